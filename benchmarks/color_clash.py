"""Color Clash random-play speed, next to RLCard's UNO game measured the same way.

Each action = list the legal actions, pick one at random, apply it. Single rounds, 2 players.
Our engine runs in this process; RLCard runs in a subprocess of its own virtualenv (a dev-only
extra: ``benchmarks/requirements-rlcard.txt``), found via ``--rlcard-python``, the
``RLCARD_PYTHON`` environment variable, or ``.venv-rlcard`` beside the repository.

    python benchmarks/color_clash.py [--seconds 10] [--rounds 10] [--rlcard-python PATH]

The engines take turns: ``--seconds`` of CPU time each is cut into ``--rounds`` slices, and each
round runs one slice of Classic, Family night and RLCard (the order alternating from round to
round), so a change in the machine's load falls on all three alike. The ratio is taken per
round and the median reported: run one after the other, the ratio moved between 1.36x and 1.74x
with the load of the moment (issue 31). Times are the CPU time of each process
(``time.process_time``). Prints each engine's totals, the per-round ratios, their median and
one JSON line. Our rounds are far longer than RLCard's under random play (drawing is allowed
even when a card fits, a draw and the play of the drawn card are two actions, Catches add
cards), so games/s is not comparable between the two; actions/s is the measure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def color_clash_player(seed: int, mode: str) -> Callable[[float], dict]:
    """A function that plays whole Color Clash rounds for a slice of CPU seconds and gives
    that slice's figures; its random stream goes on from slice to slice."""
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

    def play(seconds: float) -> dict:
        games = actions = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            state = engine.setup(config, 2, rng)
            while True:
                options = [(seat, legal_actions(state, seat)) for seat in to_act(state)]
                options += [
                    (None, [{"type": "window_closed", "name": w.name}]) for w in windows(state)
                ]
                if not options:
                    break
                seat, legal = (
                    options[rng.randrange(len(options))] if len(options) > 1 else options[0]
                )
                apply(state, seat, legal[rng.randrange(len(legal))], rng)
                actions += 1
            if engine.outcome(state) is None:
                raise SystemExit("a Color Clash round stopped without an outcome")
            games += 1
        return _figures("color_clash", games, actions, time.process_time() - started)

    return play


def rlcard_player(seed: int) -> Callable[[float], dict]:
    """As ``color_clash_player`` for RLCard's UNO; runs inside the RLCard virtualenv and
    imports nothing from this repository."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=2)
    game.np_random.seed(seed)
    rng = random.Random(seed)

    def play(seconds: float) -> dict:
        games = actions = failed = 0
        started = time.process_time()
        while time.process_time() - started < seconds:
            game.init_game()
            try:
                while not game.is_over():
                    legal = game.get_legal_actions()
                    game.step(legal[rng.randrange(len(legal))])
                    actions += 1
            except IndexError:  # RLCard's UNO can run out of cards to reshuffle; counted
                failed += 1
                continue
            games += 1
        result = _figures("rlcard_uno", games, actions, time.process_time() - started)
        result["games_failed"] = failed
        return result

    return play


def rlcard_worker(seed: int) -> None:
    """Plays one slice per line of standard input (its CPU seconds), one JSON line back."""
    play = rlcard_player(seed)
    for line in sys.stdin:
        print(json.dumps(play(float(line))), flush=True)


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


class RLCardProcess:
    """The RLCard worker, kept running for the whole benchmark and asked for one slice at a time."""

    def __init__(self, python: str, seed: int) -> None:
        command = [python, __file__, "--rlcard-worker", "--seed", str(seed)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def play(self, seconds: float) -> dict:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the RLCard worker stopped (exit {self.process.wait()})")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait()


def _total(slices: list[dict]) -> dict:
    total = _figures(
        slices[0]["engine"],
        sum(s["games"] for s in slices),
        sum(s["actions"] for s in slices),
        sum(s["seconds"] for s in slices),
    )
    if any("games_failed" in s for s in slices):
        total["games_failed"] = sum(s.get("games_failed", 0) for s in slices)
    return total


def _default_rlcard_python() -> Path:
    """``.venv-rlcard`` in the repository root, else beside it (shared by git worktrees)."""
    for base in (ROOT, ROOT.parent):
        python = base / ".venv-rlcard" / "bin" / "python"
        if python.exists():
            return python
    return ROOT / ".venv-rlcard" / "bin" / "python"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU time per engine")
    parser.add_argument("--rounds", type=int, default=10, help="slices per engine, interleaved")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rlcard-python",
        default=os.environ.get("RLCARD_PYTHON") or str(_default_rlcard_python()),
    )
    parser.add_argument("--rlcard-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rlcard_worker:
        rlcard_worker(args.seed)
        return
    players: dict[str, Callable[[float], dict]] = {
        "classic": color_clash_player(args.seed, "classic"),
        "family": color_clash_player(args.seed, "family"),
    }
    rlcard = None
    if Path(args.rlcard_python).exists():
        rlcard = RLCardProcess(args.rlcard_python, args.seed)
        players["rlcard"] = rlcard.play
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    slices: dict[str, list[dict]] = {label: [] for label in players}
    ratios = []
    seconds = args.seconds / args.rounds
    try:
        for number in range(args.rounds):
            order = list(players) if number % 2 == 0 else list(reversed(players))
            for label in order:
                slices[label].append(players[label](seconds))
            if rlcard:
                ours, theirs = slices["classic"][-1], slices["rlcard"][-1]
                ratios.append(ours["actions_per_second"] / theirs["actions_per_second"])
    finally:
        if rlcard:
            rlcard.close()
    results: dict = {label: _total(found) for label, found in slices.items()}
    for label, figures in results.items():
        print(
            f"{label:8} {figures['actions_per_second']:>9,} actions/s "
            f"{figures['games_per_second']:>8,} games/s "
            f"({figures['games']} games, {figures['actions_per_game']} actions/game)"
        )
    if ratios:
        median = statistics.median(ratios)
        results["ratios_classic_to_rlcard"] = [round(r, 2) for r in ratios]
        results["ratio_classic_to_rlcard"] = round(median, 2)
        print(f"per-round ratios: {', '.join(f'{r:.2f}' for r in ratios)}")
        print(
            f"Color Clash (classic) / RLCard UNO actions/s, median of {len(ratios)} "
            f"interleaved rounds: {median:.2f}x (range {min(ratios):.2f}-{max(ratios):.2f})"
        )
    else:
        print(f"RLCard not found at {args.rlcard_python}: only Color Clash measured")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
