"""Random-play speed of the Drafting Trios engine: complete games and actions per second.

Run from the repository root: ``python benchmarks/drafting_trios.py [games]``. Plays uniformly
random legal games through the shared harness without invariant checks (the same games the
conformance test checks), on one core, and prints the figures and one JSON line. Wall-clock
rates are the headline; the rate per CPU second is printed too, since other processes on a
busy machine slow the wall clock.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import conformance
from games.engines.drafting_trios import ENGINE

TARGET_GAMES_PER_SECOND = 200


def main(games: int = 2000) -> dict:
    conformance.simulate(ENGINE, games=20, seed="warm-up", seats=2, check=False)
    cpu_started = time.process_time()
    report = conformance.simulate(ENGINE, games=games, seed="bench", seats=2, check=False)
    cpu_seconds = time.process_time() - cpu_started
    if report.failures:
        raise SystemExit(f"random play failed: {report.failures[:3]}")
    figures = {
        "benchmark": "drafting_trios_random_play",
        "games": report.games,
        "actions": report.actions,
        "seconds": round(report.seconds, 3),
        "games_per_second": round(report.games_per_second, 1),
        "actions_per_second": round(report.actions_per_second, 1),
        "actions_per_game": round(report.actions / report.games, 1),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(report.games / cpu_seconds, 1),
        "target_games_per_second": TARGET_GAMES_PER_SECOND,
    }
    print(f"Drafting Trios random play: {report.games} games, {report.actions} actions")
    print(f"  {figures['games_per_second']} games/s (target {TARGET_GAMES_PER_SECOND})")
    print(f"  {figures['actions_per_second']} actions/s")
    print(f"  {figures['games_per_cpu_second']} games per CPU second (wall time counts other load)")
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
