"""Random-play speed of the DropMix Clash engine: games/s and actions/s for 1v1 and 2v2.

Run from the repository root: ``python benchmarks/dropmix.py [--games N] [--seed S]``.
Games are uniformly random legal playouts (the conformance harness with its checks off), with
the default catalogue, target 21 and the pre-built playlists. Prints one line per format and
then the figures as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines import conformance
from games.engines.dropmix import ENGINE

FORMATS = {"1v1": 2, "2v2": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per format")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    figures = {}
    for label, seats in FORMATS.items():
        report = conformance.simulate(
            ENGINE, games=args.games, seed=args.seed, seats=seats, check=False
        )
        if report.failures:
            raise SystemExit(f"{label}: {report.failures[0]}")
        figures[label] = {
            "games": report.games,
            "actions": report.actions,
            "seconds": round(report.seconds, 3),
            "games_per_second": round(report.games_per_second, 1),
            "actions_per_second": round(report.actions_per_second),
        }
        print(
            f"dropmix {label}: {report.games} games, {report.actions} actions in "
            f"{report.seconds:.2f} s = {report.games_per_second:.1f} games/s, "
            f"{report.actions_per_second:.0f} actions/s"
        )
    print(json.dumps({"benchmark": "dropmix", "python": sys.version.split()[0], **figures}))


if __name__ == "__main__":
    main()
