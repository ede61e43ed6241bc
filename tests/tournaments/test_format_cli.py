"""``manage.py swiss|bracket|standings`` run before Django is set up (tournaments/formats/cli.py):
the same options, help, output and errors as the management commands, without importing the
service."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command, load_command_class

from tournaments.formats import cli

ROOT = Path(__file__).resolve().parents[2]
STATE = {
    "players": [{"id": i, "rating": 2500 - 10 * i} for i in range(1, 8)],
    "total_rounds": 3,
    "rounds": [
        {
            "games": [
                {"white": 1, "black": 4, "result": "1-0"},
                {"white": 5, "black": 2, "result": "1/2-1/2"},
                {"white": 3, "black": 6, "result": "0-1"},
            ],
            "byes": [{"player": 7, "points": 1, "kind": "pab"}],
        }
    ],
}


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True
    )


def django_output(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def state_file(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(STATE))
    return str(path)


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_help_reads_as_django_prints_it(name, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    command = load_command_class("tournaments", name)
    django = command.create_parser("manage.py", name).format_help()
    assert cli.parser_for("manage.py", name).format_help() == django
    assert manage(name, "--help").stdout == django


@pytest.mark.parametrize(
    "args",
    [
        ["swiss", "--input", "{state}", "--json"],
        ["standings", "--input", "{state}", "--tiebreaks", "buchholz,sonneborn_berger,wins"],
        ["standings", "--input", "{state}", "--regulations", "fide-2024", "-v", "0"],
        [
            "bracket",
            "--format",
            "double_elimination",
            "--participants",
            "11",
            "--grand-final",
            "reset",
        ],
        ["bracket", "--format", "round_robin", "--participants", "6", "--groups", "2", "--json"],
    ],
)
def test_output_is_the_management_commands(args, state_file):
    args = [arg.format(state=state_file) for arg in args]
    done = manage(*args)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == django_output(*args)


@pytest.mark.parametrize(
    "args",
    [
        ["swiss", "--input", "/no/such/file.json"],
        ["standings", "--input", "/dev/null"],
        ["standings", "--input", "{state}", "--tiebreaks", "nope"],
        ["standings", "--input", "{state}", "--regulations", "fide-1999"],
        ["bracket", "--format", "single_elimination", "--participants", "1"],
    ],
)
def test_errors_are_the_management_commands(args, state_file):
    args = [arg.format(state=state_file) for arg in args]
    with pytest.raises(CommandError) as refused:
        call_command(*args, stdout=StringIO())
    done = manage(*args)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"CommandError: {refused.value}\n"


def test_a_bad_option_is_refused_with_django_usage():
    done = manage("bracket", "--format", "swiss", "--participants", "4")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: manage.py bracket [-h] --format")
    assert "argument --format: invalid choice: 'swiss'" in done.stderr


def test_the_light_path_imports_no_django(state_file):
    probe = (
        "import runpy, sys\n"
        f"sys.argv = ['manage.py', 'swiss', '--input', {state_file!r}]\n"
        "try:\n    runpy.run_path('manage.py', run_name='__main__')\n"
        "except SystemExit as done:\n    assert done.code == 0, done.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'redis', 'celery', 'rest_framework', 'hosting'})\n"
        "print(heavy, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stderr == "[]\n"
    assert json.loads(done.stdout)["pairings"]


@pytest.mark.parametrize(
    "options",
    [
        ["standings", "--tournament", "spring-open"],
        ["swiss", "--input", "s.json", "--settings", "hosting.settings"],
        ["swiss", "--input", "s.json", "--version"],
        ["bracket", "--format", "round_robin", "--participants", "4", "--traceback"],
    ],
)
def test_what_needs_the_service_goes_on_to_django(options):
    assert cli.run(["manage.py", *options]) is None
