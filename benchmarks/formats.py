"""Timings of the pure tournament layer: brackets for 4,096 entrants, Swiss rounds, standings.

Run from the repository root:  /work/main/.venv/bin/python benchmarks/formats.py
Targets: a Swiss round for 1,000 players under 1 s, for 10,000 under 10 s.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tournaments.formats.json_api import bracket_json, standings_json, swiss_json

SWISS_TARGETS = {1_000: 1.0, 10_000: 10.0}
ROUNDS_BEFORE = 4  # simulated first, so that score groups and colour histories exist


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def simulated_swiss(n: int, rounds: int, seed: int = 2026) -> dict[str, Any]:
    """A Swiss event after ``rounds`` rounds; stronger players win more often."""
    rng = random.Random(seed)
    players = [{"id": i, "rating": rng.randint(1000, 2800)} for i in range(1, n + 1)]
    rating = {p["id"]: p["rating"] for p in players}
    state: dict[str, Any] = {"players": players, "total_rounds": rounds + 5, "rounds": []}
    for _ in range(rounds):
        pairing = swiss_json(state)
        games = []
        for pair in pairing["pairings"]:
            expected = 1 / (1 + 10 ** ((rating[pair["black"]] - rating[pair["white"]]) / 400))
            roll = rng.random()
            result = (
                "1-0"
                if roll < 0.8 * expected
                else "1/2-1/2"
                if roll < 0.8 * expected + 0.2
                else "0-1"
            )
            games.append({**pair, "result": result})
        byes = [{"player": pairing["bye"], "points": 1, "kind": "pab"}] if pairing["bye"] else []
        state["rounds"].append({"games": games, "byes": byes})
    return state


def main() -> int:
    print("bracket generation (bracket_json, whole structure as JSON)")
    cases = [
        ("single elimination, 4,096", "single_elimination", 4096, {"third_place": True}),
        ("single elimination, 4,000 (96 byes)", "single_elimination", 4000, {}),
        ("double elimination, 4,096, reset", "double_elimination", 4096, {"grand_final": "reset"}),
        ("double elimination, 3,000 (byes)", "double_elimination", 3000, {}),
        # A round robin of n has n(n-1)/2 games; 512 (130,816 games) is already a big one.
        ("round robin, 512 (511 rounds)", "round_robin", 512, {}),
    ]
    for label, key, n, options in cases:
        seconds, result = timed(partial(bracket_json, key, n, **options))
        matches = sum(len(r["matches"]) for b in result["brackets"] for r in b["rounds"])
        print(f"  {label:<38} {seconds:8.3f} s  {matches:>9,} matches")

    print(f"Swiss: one round after {ROUNDS_BEFORE} simulated rounds (swiss_json, parse included)")
    missed = []
    for n, target in SWISS_TARGETS.items():
        setup, state = timed(partial(simulated_swiss, n, ROUNDS_BEFORE))
        seconds, pairing = timed(partial(swiss_json, state))
        verdict = "ok" if seconds < target else "MISSED"
        if seconds >= target:
            missed.append(n)
        print(
            f"  {n:>6,} players: {seconds:6.3f} s (target < {target:g} s, {verdict}); "
            f"{len(pairing['pairings']):,} boards; setup {setup:.1f} s"
        )
        chain = ["buchholz", "buchholz_cut1", "sonneborn_berger", "progressive", "wins"]
        seconds, _ = timed(partial(standings_json, state, chain))
        print(f"  {n:>6,} players: standings with {len(chain)} tie-breaks {seconds:6.3f} s")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
