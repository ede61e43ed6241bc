"""Schemathesis against the live API, as an anonymous client, a player and an organiser:
positive and negative data, every check (``--checks all``), every phase (examples, coverage,
fuzzing, stateful), on a scratch PostgreSQL database that it migrates, seeds and drops.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python benchmarks/schemathesis_probe.py [--max-examples 25] [--seed 30]

The seed is a running online cup (a Color Clash game between two players, a webhook and a
spare personal token of the organiser's); schemathesis is pointed at those rows half of the
time (its ``dictionaries``) and at random ids otherwise. The server is uvicorn on a free
loopback port, rate limits off (the fuzz is hundreds of requests a minute from one address),
without Redis (timers and live updates in process). Its outbound HTTP goes to a closed loopback
port through ``HTTP(S)_PROXY``: a webhook the fuzz creates never reaches another host.

Prints, per identity, the test cases run, the server errors, the mismatches (any failed
check but one: an answer off the document, a status it does not list, a body the document
forbids that was accepted, ...) and the bodies the document allows that a rule it cannot state
refused (ST202, listed but not a mismatch), then one JSON line, also written to
``var/schemathesis.json``; exits 1 on any server error or mismatch. Figures are in
docs/api.md ("Schemathesis"). The pytest version (tests/hosting/test_schemathesis.py) runs
the same checks with a few examples per operation.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
IDENTITIES = ("anonymous", "player", "organiser")
# Where an outbound request of the server under test goes: a closed loopback port.
NOWHERE = "http://127.0.0.1:9"
# Each identity's schemathesis output and reports, and the server's log, kept for reading.
SCRATCH = ROOT / "var" / "schemathesis"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=25, help="cases per operation")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--phases", default="examples,coverage,fuzzing,stateful")
    parser.add_argument("--as", dest="identities", default=",".join(IDENTITIES))
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(server)
    name = f"schemathesis_probe_{os.getpid()}"
    database_url = f"{parts.scheme}://{parts.netloc}/{name}"
    admin_url = f"{parts.scheme}://{parts.netloc}/postgres"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REQUIRE_SERVICES")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="hosting.settings",
        PYTHONPATH=str(ROOT),
        HTTP_PROXY=NOWHERE,
        HTTPS_PROXY=NOWHERE,
        NO_PROXY="",
    )
    _create_database(admin_url, name)
    try:
        known = _seeded(env)
        env["THROTTLE_RATES"] = ",".join(f"{key}=off" for key in known.pop("throttles"))
        shutil.rmtree(SCRATCH, ignore_errors=True)
        SCRATCH.mkdir(parents=True)
        with _server(env, _free_port(), SCRATCH) as url:
            results = {
                who: _run(url, who, known, args, SCRATCH / who)
                for who in args.identities.split(",")
            }
    finally:
        _drop_database(admin_url, name)
    total = {
        "command": "benchmarks/schemathesis_probe.py " + " ".join(sys.argv[1:]),
        "max_examples": args.max_examples,
        "phases": args.phases,
        "identities": results,
        **{
            key: sum(r[key] for r in results.values())
            for key in ("cases", "server_errors", "mismatches", "rule_refusals")
        },
    }
    for who, result in results.items():
        print(
            f"{who}: {result['cases']} cases over {result['operations']} operations, "
            f"{result['server_errors']} server errors, {result['mismatches']} mismatches, "
            f"{result['rule_refusals']} valid bodies refused by a rule"
        )
        for failure in result["failures"]:
            print(f"  - {failure['check']} {failure['operation']}: {failure['text']}")
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "var" / "schemathesis.json").write_text(json.dumps(total, indent=2) + "\n")
    print(json.dumps({k: v for k, v in total.items() if k != "identities"}))
    return 1 if total["mismatches"] or total["server_errors"] else 0


def _create_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


SEED = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from hosting.core import tokens
from hosting.core.roles import ORGANISER, grant
from tournaments import services
from tournaments.disputes import services as disputes
from tournaments.webhooks import services as webhooks

call_command("migrate", "--noinput", verbosity=0)
users = get_user_model().objects
host = users.create_user("probe-organiser")
grant(host, ORGANISER)
players = [users.create_user(name) for name in ("probe-ada", "probe-brook")]
cup = services.tournament_create(
    organiser=host, name="Probe cup", slug="probe-cup", format="single_elimination",
    game="color_clash", play_online=True, seed_window_seconds=0,
)
services.registration_open(tournament=cup, by=host)
for rating, player in enumerate(players):
    services.entrant_register(tournament=cup, user=player, rating=2000 - rating)
services.seeding_apply(tournament=cup, by=host, method="rating")
stage = services.stage_start(tournament=cup, by=host)
match = stage.matches.get(code="W1.1")
game = match.match_games.get().game_id
hook = webhooks.endpoint_create(
    tournament=cup, by=host, url="http://127.0.0.1:9/", events=["match.ready"]
)
spare = tokens.token_create(user=host, name="to revoke")
dispute = disputes.dispute_file(match=match, by=players[0], reason="a probe's dispute")
print(json.dumps({
    "tokens": {
        "organiser": tokens.token_create(user=host, name="probe").secret,
        "player": tokens.token_create(user=players[0], name="probe").secret,
    },
    "rows": {
        "slug": cup.slug, "code": match.code, "game_id": game, "number": 1,
        "hook_id": hook.pk, "token_id": spare.token.pk, "dispute_id": dispute.pk,
    },
    "throttles": sorted(settings.THROTTLE_RATES),
}))
"""


def _seeded(env: dict[str, str]) -> dict:
    """Migrate the scratch database and seed it (in a process of its own, on its settings)."""
    code = "import django; django.setup()\n" + SEED
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"seeding failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _server(env: dict[str, str], port: int, scratch: Path):
    command = [
        *(sys.executable, "-m", "uvicorn", "hosting.asgi:application"),
        *("--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"),
        *("--log-level", "warning"),
    ]
    log = (scratch / "uvicorn.log").open("w")
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        give_up = time.monotonic() + 40
        while True:
            if process.poll() is not None:
                raise SystemExit(f"uvicorn exited: {(scratch / 'uvicorn.log').read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/ping", timeout=2).status_code == 200:
                    break
            if time.monotonic() > give_up:
                raise SystemExit("the server did not become healthy in time")
            time.sleep(0.3)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
        server_errors = re.findall(r"^.*(?:Internal Server Error|Traceback).*$", _log(scratch))
        if server_errors:
            print(f"the server logged {len(server_errors)} errors: see {scratch}/uvicorn.log")


def _log(scratch: Path) -> str:
    return (scratch / "uvicorn.log").read_text(errors="replace")


def _config(known: dict, folder: Path) -> Path:
    """Half the time a path parameter is the seeded row's, else what schemathesis makes."""
    lines = ["[dictionaries]"]
    lines += [f"{name} = {{ values = [{json.dumps(v)}] }}" for name, v in known["rows"].items()]
    lines += ["", "[parameters]"]
    lines += [
        f'"path.{name}" = {{ dictionary = "{name}", probability = 0.5 }}' for name in known["rows"]
    ]
    path = folder / "schemathesis.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(url: str, who: str, known: dict, args: argparse.Namespace, folder: Path) -> dict:
    folder.mkdir(parents=True)
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        *("--config-file", str(_config(known, folder))),
        *("run", f"{url}/api/schema/", "--checks", "all", "--mode", "all"),
        *("--phases", args.phases, "--max-examples", str(args.max_examples)),
        *("--seed", str(args.seed), "--workers", "1", "--request-timeout", "10"),
        *("--generation-database", "none", "--no-color", "--continue-on-failure"),
        *("--report", "junit", "--report-junit-path", str(folder / "junit.xml")),
        *("--suppress-health-check", "all", "--warnings", "off"),
        # A NUL character is refused at the edge, as the API's conventions say (parse_error).
        *("--generation-allow-x00", "false"),
    ]
    if who != "anonymous":
        command += ["--header", f"Authorization: Bearer {known['tokens'][who]}"]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    (folder / "output.txt").write_text(done.stdout + done.stderr)
    if not (folder / "junit.xml").exists():
        raise SystemExit(f"schemathesis made no report:\n{done.stdout}{done.stderr}")
    return _summary(done.stdout, folder / "junit.xml")


# A body the schema allows but a rule it cannot state refuses (a registered engine, dates in
# order, an entrant of this tournament): counted and listed, not a mismatch of the document.
RULE_REFUSAL = "ST202"


def _summary(output: str, junit: Path) -> dict:
    """Cases, and each failure by its check's code, from schemathesis's summary and its JUnit
    report; ``mismatches`` are every failure but a rule's refusal of a valid body."""
    cases = re.search(r"Test cases:\s*\n?\s*(\d+) generated", output)
    operations = ElementTree.parse(junit).getroot().findall(".//testcase")
    failures: list[dict[str, str]] = []
    for case in operations:
        for problem in [*case.findall("failure"), *case.findall("error")]:
            text = problem.text or problem.tag
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            failures.append(
                {
                    "operation": case.get("name") or "",
                    "check": problem.get("message") or problem.tag,
                    "text": " / ".join(lines[1:6])[:600],
                }
            )
    return {
        "cases": int(cases.group(1)) if cases else 0,
        "operations": len(operations),
        "server_errors": len(re.findall(r"Server error", output)),
        "by_check": dict(sorted(Counter(f["check"] for f in failures).items())),
        "mismatches": sum(f["check"] != RULE_REFUSAL for f in failures),
        "rule_refusals": sum(f["check"] == RULE_REFUSAL for f in failures),
        "failures": failures,
    }


if __name__ == "__main__":
    sys.exit(main())
