"""``python manage.py swiss|bracket|standings`` without the service.

The three format commands are pure: JSON in, JSON out. Setting Django up for them imported the
whole project (Redis, Celery, the API schema, every app: ~1 s of CPU, 2.6-3.2 s wall for a Swiss
round whose pairing takes 0.17 s), so ``manage.py`` hands these subcommands to :func:`run`
before Django is set up. The management commands in ``tournaments/management/commands/`` take
their arguments and their work from here too, so both paths accept the same options and print
the same output (``tests/tournaments/test_format_cli.py`` compares them). What needs the
service goes on to Django: ``standings --tournament`` (the database), ``--settings``,
``--pythonpath``, ``--traceback``, ``--force-color`` and ``--version``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError
from tournaments.formats.json_api import (
    bracket_json,
    placements_json,
    standings_json,
    swiss_json,
)
from tournaments.tiebreaks import DEFAULT_REGULATIONS, REGULATIONS, check_regulations

SWISS_HELP = "Pair the next round of a Swiss event from its JSON state (docs/formats-json.md)."
BRACKET_HELP = (
    "Print the bracket or round-robin schedule for N seeds (shape: docs/formats-json.md)."
)
STANDINGS_HELP = (
    "Rank a Swiss or round-robin state by points and tie-breaks, a bracket or Genius "
    "season state by placements, or a stored tournament (--tournament)."
)


def add_swiss_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--input", required=True, help="state file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")


def add_bracket_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        required=True,
        choices=["single_elimination", "double_elimination", "round_robin"],
    )
    parser.add_argument("--participants", type=int, required=True)
    parser.add_argument("--third-place", action="store_true")
    parser.add_argument("--grand-final", choices=["none", "single", "reset"], default="single")
    parser.add_argument("--cycles", type=int, choices=[1, 2], default=1)
    parser.add_argument("--groups", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")


def add_standings_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--input", help="state file, or - for stdin")
    source.add_argument("--tournament", metavar="SLUG", help="a stored tournament")
    parser.add_argument("--tiebreaks", default="", help="comma-separated keys, in order")
    parser.add_argument(
        "--regulations",
        help=f"tie-break regulations: {', '.join(REGULATIONS)} "
        f"(default: the tournament's, or {DEFAULT_REGULATIONS})",
    )
    parser.add_argument("--json", action="store_true", help="print JSON (the default)")


def read_state(path: str) -> dict[str, Any]:
    """The JSON object in the file at ``path`` (``-``: standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as error:
        raise FormatError(
            Message(gettext_noop("cannot read {path}: {reason}"), path=path, reason=error.strerror)
        ) from None
    try:
        state = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            Message(gettext_noop("{path} is not JSON: {error}"), path=path, error=str(error))
        ) from None
    if not isinstance(state, dict):
        raise FormatError(Message(gettext_noop("{path} must hold a JSON object"), path=path))
    return state


def swiss(options: dict[str, Any]) -> dict[str, Any]:
    return swiss_json(read_state(options["input"]))


def bracket(options: dict[str, Any]) -> dict[str, Any]:
    return bracket_json(
        options["format"],
        options["participants"],
        third_place=options["third_place"],
        grand_final=options["grand_final"],
        cycles=options["cycles"],
        groups=options["groups"],
    )


def standings(options: dict[str, Any]) -> dict[str, Any]:
    """The table of the state file ``options["input"]`` (``--tournament`` is Django's)."""
    regulations = options["regulations"]
    if regulations is not None:
        check_regulations(regulations)
    state = read_state(options["input"])
    # A state naming a knockout format or a season is ranked by placements.
    if "format" in state:
        return placements_json(state)
    keys = [key.strip() for key in options["tiebreaks"].split(",") if key.strip()]
    return standings_json(state, keys, regulations or DEFAULT_REGULATIONS)


Command = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[..., dict[str, Any]]]
COMMANDS: dict[str, Command] = {
    "swiss": (SWISS_HELP, add_swiss_arguments, swiss),
    "bracket": (BRACKET_HELP, add_bracket_arguments, bracket),
    "standings": (STANDINGS_HELP, add_standings_arguments, standings),
}

# Django's options common to every command, as ``BaseCommand.create_parser`` words them, so
# that ``--help`` reads the same on both paths; the test compares the two.
_COMMON = [
    (("--version",), {"action": "store_true", "help": "Show program's version number and exit."}),
    (
        ("-v", "--verbosity"),
        {
            "default": 1,
            "type": int,
            "choices": [0, 1, 2, 3],
            "help": "Verbosity level; 0=minimal output, 1=normal output, 2=verbose output, "
            "3=very verbose output",
        },
    ),
    (
        ("--settings",),
        {
            "help": "The Python path to a settings module, e.g. "
            '"myproject.settings.main". If this isn\'t provided, the '
            "DJANGO_SETTINGS_MODULE environment variable will be used."
        },
    ),
    (
        ("--pythonpath",),
        {"help": 'A directory to add to the Python path, e.g. "/home/djangoprojects/myproject".'},
    ),
    (
        ("--traceback",),
        {"action": "store_true", "help": "Display a full stack trace on CommandError exceptions."},
    ),
    (("--no-color",), {"action": "store_true", "help": "Don't colorize the command output."}),
    (
        ("--force-color",),
        {"action": "store_true", "help": "Force colorization of the command output."},
    ),
    (("--skip-checks",), {"action": "store_true", "help": "Skip system checks."}),
]
_COMMON_OPTIONS = {name for names, _ in _COMMON for name in names if name.startswith("--")}
# Options whose work is Django's: the light path leaves the whole command line to it.
_DJANGO_ONLY = ("version", "settings", "pythonpath", "traceback", "force_color", "tournament")


class _HelpFormatter(argparse.HelpFormatter):
    """Django's ``DjangoHelpFormatter``: a command's own options first, the common ones last."""

    def _reordered(self, actions: Sequence[argparse.Action]) -> list[argparse.Action]:
        return sorted(actions, key=lambda a: bool(set(a.option_strings) & _COMMON_OPTIONS))

    def add_usage(self, usage: Any, actions: Any, *args: Any, **kwargs: Any) -> None:
        super().add_usage(usage, self._reordered(actions), *args, **kwargs)

    def add_arguments(self, actions: Any) -> None:
        super().add_arguments(self._reordered(actions))


def parser_for(prog_name: str, name: str) -> argparse.ArgumentParser:
    """The parser Django's ``manage.py NAME`` builds for the command ``name``."""
    description, add_arguments, _ = COMMANDS[name]
    parser = argparse.ArgumentParser(
        prog=f"{os.path.basename(prog_name)} {name}",
        description=description,
        formatter_class=_HelpFormatter,
    )
    for names, options in _COMMON:
        parser.add_argument(*names, **options)
    add_arguments(parser)
    return parser


def run(argv: Sequence[str]) -> int | None:
    """Run ``argv`` (``manage.py NAME …``) and give its exit status, or None when the command
    line needs Django (an option in ``_DJANGO_ONLY``); errors read as Django prints them."""
    options = vars(parser_for(argv[0], argv[1]).parse_args(argv[2:]))
    if any(options.get(name) for name in _DJANGO_ONLY):
        return None
    _, _, work = COMMANDS[argv[1]]
    try:
        result = work(options)
    except FormatError as error:
        message = f"CommandError: {error}\n"
        if sys.stderr.isatty() and not options["no_color"] and "DJANGO_COLORS" not in os.environ:
            message = f"\x1b[31;1m{message}\x1b[0m"  # Django's ERROR style on a terminal
        sys.stderr.write(message)
        return 1
    print(json.dumps(result))
    return 0
