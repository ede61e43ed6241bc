"""``python manage.py swiss`` as a process: 1,000 players, pairing round 9 (issue 31).

Run from the repository root:  .venv/bin/python benchmarks/swiss_cli.py [--runs 10]
Times the documented command end to end (a new Python process each time: start-up, imports,
reading the state, the pairing, printing), ``swiss --help``, and, in the same run for a fair
comparison, the same command line through Django's ``execute_from_command_line`` (what
``manage.py`` did before the light path). Prints median / min / max wall and the median CPU
of the child, with the load average before and after. Target: under 1 s wall.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

from benchmarks.formats import simulated_swiss

ROOT = Path(__file__).resolve().parent.parent
PLAYERS, ROUNDS_PLAYED = 1_000, 8
# manage.py as it was: every subcommand through Django.
VIA_DJANGO = (
    "import os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'hosting.settings'); "
    "from django.core.management import execute_from_command_line; "
    "execute_from_command_line(['manage.py', *sys.argv[1:]])"
)


def timed(command: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU seconds (user + system) of one run of ``command``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def report(label: str, command: list[str], runs: int) -> tuple[float, bytes]:
    walls, cpus, output = [], [], b""
    for _ in range(runs):
        wall, cpu, output = timed(command)
        walls.append(wall)
        cpus.append(cpu)
    median = statistics.median(walls)
    print(
        f"  {label:<44} wall median {median:.3f} s (min {min(walls):.3f}, max {max(walls):.3f}), "
        f"CPU median {statistics.median(cpus):.3f} s"
    )
    return median, output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    state = simulated_swiss(PLAYERS, ROUNDS_PLAYED)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(state, file)
    python = sys.executable
    args = ["swiss", "--input", file.name, "--json"]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{PLAYERS:,} players, pairing round {ROUNDS_PLAYED + 1}, {runs} runs each")
    try:
        light, out_light = report(
            "manage.py swiss (the documented command)", [python, "manage.py", *args], runs
        )
        report("manage.py swiss --help", [python, "manage.py", "swiss", "--help"], runs)
        _, out_django = report(
            "the same through Django (before)", [python, "-c", VIA_DJANGO, *args], runs
        )
        report(
            "swiss --help through Django (before)",
            [python, "-c", VIA_DJANGO, "swiss", "--help"],
            runs,
        )
    finally:
        os.unlink(file.name)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    same = out_light == out_django
    print(
        f"same output on both paths: {same}; target < 1 s wall: {'ok' if light < 1 else 'MISSED'}"
    )
    return 0 if same and light < 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
