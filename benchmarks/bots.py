"""Computer players against a uniformly random player: the computer's win rate.

Run from the repository root: ``python benchmarks/bots.py [games]`` (default 200 per game).
For Drafting Trios (1v1) and DropMix Clash (1v1), each game seats the engine's computer
player (``computer``) against its ``random`` player (a uniformly random legal action), the
computer taking the first seat in half of the games and the second in the other half, each
game from its own seed. Windows close as soon as nobody acts (as the host closes them when
they run out), so only the players' choices decide. Prints the figures and one JSON line;
exits non-zero when a win rate is under the target.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import engines
from games.engines.base import WINDOW_CLOSED, Engine, StepRng, seed_bytes

TARGET_WIN_RATE = 0.80
MAX_STEPS = 20_000


def play(engine: Engine, seed: bytes, players: list[str], rng: random.Random) -> list[int]:
    """One game with ``players[seat]`` (bot keys) in each seat; the winning seats."""
    seats = len(players)
    config = engine.validate_config({}, seats)
    state = engine.setup(config, seats, StepRng(seed, 0))
    for step in range(1, MAX_STEPS):
        outcome = engine.outcome(state)
        if outcome is not None:
            return list(outcome.winners)
        moved = False
        for seat in engine.to_act(state):
            if engine.decision(state, seat) is None:
                continue  # as the service asks computers: only seats whose clock runs
            action = engine.bots[players[seat]](state, seat, rng)
            if action is None:
                continue
            engine.apply(state, seat, action, StepRng(seed, step))
            moved = True
            break
        if not moved:
            windows = engine.windows(state)
            if not windows:
                raise RuntimeError("nobody can act and no window is open")
            action = {"type": WINDOW_CLOSED, "name": windows[0].name}
            engine.apply(state, None, action, StepRng(seed, step))
    raise RuntimeError("the game did not end")


def win_rate(key: str, games: int) -> dict[str, Any]:
    engine = engines.get(key)
    wins = 0
    started = time.perf_counter()
    for number in range(games):
        computer = number % 2
        players = ["random", "random"]
        players[computer] = "computer"
        rng = random.Random(f"bots:{key}:{number}")
        winners = play(engine, seed_bytes(f"bots:{key}:{number}"), players, rng)
        wins += computer in winners
    return {
        "engine": key,
        "games": games,
        "computer_wins": wins,
        "win_rate": round(wins / games, 3),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(games: int = 200) -> list[dict[str, Any]]:
    results = [win_rate(key, games) for key in ("drafting_trios", "dropmix")]
    for row in results:
        print(
            f"{row['engine']}: computer won {row['computer_wins']} of {row['games']} games "
            f"against a random player ({row['win_rate']:.1%}, {row['seconds']} s)"
        )
    print(json.dumps({"benchmark": "bots_vs_random", "results": results}))
    return results


if __name__ == "__main__":
    figures = main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
    if any(row["win_rate"] < TARGET_WIN_RATE for row in figures):
        raise SystemExit(f"a computer won under {TARGET_WIN_RATE:.0%} of its games")
