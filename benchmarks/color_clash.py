"""Color Clash random-play speed, next to RLCard's UNO game measured the same way.

Each action = list the legal actions, pick one at random, apply it. Single rounds, 2 players.
Our engine runs in this process; RLCard runs in a subprocess of its own virtualenv (a dev-only
extra: ``benchmarks/requirements-rlcard.txt``), found via ``--rlcard-python``, the
``RLCARD_PYTHON`` environment variable, or ``.venv-rlcard`` beside the repository.

    python benchmarks/color_clash.py [--seconds 10] [--rlcard-python PATH]

Prints both figures, the ratio of actions/s, and one JSON line. Times are the CPU time of each
process (``time.process_time``), so other load on a shared machine does not skew the ratio.
Our rounds are far longer than RLCard's under random play (drawing is allowed even when a card
fits, a draw and the play of the drawn card are two actions, Catches add cards), so games/s is
not comparable between the two; actions/s is the measure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure_color_clash(seconds: float, seed: int, mode: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from games.engines.color_clash import ENGINE

    engine = ENGINE
    config = engine.validate_config({"mode": mode, "match": "one_round"}, 2)
    rng = random.Random(seed)
    to_act, legal_actions, windows, apply = (
        engine.to_act,
        engine.legal_actions,
        engine.windows,
        engine.apply,
    )
    games = actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = engine.setup(config, 2, rng)
        while True:
            options = [(seat, legal_actions(state, seat)) for seat in to_act(state)]
            options += [(None, [{"type": "window_closed", "name": w.name}]) for w in windows(state)]
            if not options:
                break
            seat, legal = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
            apply(state, seat, legal[rng.randrange(len(legal))], rng)
            actions += 1
        if engine.outcome(state) is None:
            raise SystemExit("a Color Clash round stopped without an outcome")
        games += 1
    return _figures("color_clash", games, actions, time.process_time() - started)


def measure_rlcard(seconds: float, seed: int) -> dict:
    """Runs inside the RLCard virtualenv; imports nothing from this repository."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random.seed(seed)
    rng = random.Random(seed)
    games = actions = failed = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        game.init_game()
        try:
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[rng.randrange(len(legal))])
                actions += 1
        except IndexError:  # RLCard's UNO can run out of cards to reshuffle; counted, not hidden
            failed += 1
            continue
        games += 1
    result = _figures("rlcard_uno", games, actions, time.process_time() - started)
    result["games_failed"] = failed
    return result


def _figures(name: str, games: int, actions: int, elapsed: float) -> dict:
    return {
        "engine": name,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(games / elapsed, 1),
        "actions_per_game": round(actions / max(games, 1), 1),
    }


def run_rlcard(python: str, seconds: float, seed: int) -> dict:
    command = [python, __file__, "--rlcard-worker", "--seconds", str(seconds), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _default_rlcard_python() -> Path:
    """``.venv-rlcard`` in the repository root, else beside it (shared by git worktrees)."""
    for base in (ROOT, ROOT.parent):
        python = base / ".venv-rlcard" / "bin" / "python"
        if python.exists():
            return python
    return ROOT / ".venv-rlcard" / "bin" / "python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rlcard-python",
        default=os.environ.get("RLCARD_PYTHON") or str(_default_rlcard_python()),
    )
    parser.add_argument("--rlcard-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rlcard_worker:
        print(json.dumps(measure_rlcard(args.seconds, args.seed)))
        return
    results = {
        "classic": measure_color_clash(args.seconds, args.seed, "classic"),
        "family": measure_color_clash(args.seconds, args.seed, "family"),
    }
    if Path(args.rlcard_python).exists():
        results["rlcard"] = run_rlcard(args.rlcard_python, args.seconds, args.seed)
    for label, figures in results.items():
        print(
            f"{label:8} {figures['actions_per_second']:>9,} actions/s "
            f"{figures['games_per_second']:>8,} games/s "
            f"({figures['games']} games, {figures['actions_per_game']} actions/game)"
        )
    if "rlcard" in results:
        ratio = results["classic"]["actions_per_second"] / results["rlcard"]["actions_per_second"]
        results["ratio_classic_to_rlcard"] = round(ratio, 2)
        print(f"Color Clash (classic) / RLCard UNO actions/s: {ratio:.2f}x")
    else:
        print(f"RLCard not found at {args.rlcard_python}: only Color Clash measured")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
