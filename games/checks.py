"""What every hosted game must keep, checked from its rows (``manage.py check_games``).

The log is contiguous (versions 1..N, one action each) and the game's version is its length;
the effective seed follows from the server seed and the seats' client seeds, replaying the log
from it rebuilds the stored state, and the stored outcome is the one
the rules give that state; clocks and windows are where the rules put them (a clock runs for
exactly the seats that owe a decision, the next deadline is the earliest of them); a game that
is over has no clock running, no window open and no deadline pending. A crash between two
writes, a timer applied twice or a half-applied action shows up here. Each problem is one line
a person can act on.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from games import clocks, engines, fairness, replays
from games.engines.base import Engine
from games.engines.conformance import canonical
from games.models import GameEvent, GameSession

# ``next_deadline`` is stored to the microsecond; clock and window deadlines are floats.
DEADLINE_TOLERANCE_SECONDS = 0.001
BATCH = 200


def all_problems() -> Iterator[tuple[GameSession, list[str]]]:
    """Every game, oldest first, with its problems (an empty list: none)."""
    last = 0
    while True:
        batch = list(GameSession.objects.filter(pk__gt=last).order_by("pk")[:BATCH])
        if not batch:
            return
        for game in batch:
            yield game, game_problems(game)
        last = batch[-1].pk


def game_problems(game: GameSession) -> list[str]:
    log = list(
        GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "action")
    )
    found = _log(game, [seq for seq, _, _ in log])
    if game.state is None:
        if game.status not in (GameSession.Status.WAITING, GameSession.Status.ABORTED):
            found.append(f"the game is {game.status} but has no state")
        elif log:
            found.append(f"the game never started but its log has {len(log)} actions")
        return found
    try:
        engine = engines.get(game.engine)
    except KeyError:
        return [*found, f"its engine {game.engine!r} is not installed: it cannot be replayed"]
    if found:
        return found  # a broken log cannot be replayed meaningfully
    client_seeds = list(game.seats.order_by("number").values_list("client_seed", flat=True))
    seats = len(client_seeds)
    if game.effective_seed:
        derived = fairness.effective_seed(bytes.fromhex(game.seed), client_seeds)
        if derived != game.rng_seed:
            return ["its effective seed is not the one its server and client seeds give"]
    try:
        rebuilt = replays.replayed(game)
    except Exception as error:  # any failure to replay is what this check reports
        return [f"replaying its log fails: {type(error).__name__}: {error}"]
    if canonical(rebuilt) != canonical(game.state):
        return ["replaying its log from the seed does not give the stored state"]
    found += _outcome(game, engine)
    found += _clocks(game, engine, seats)
    return found


def _log(game: GameSession, seqs: list[int]) -> list[str]:
    found = []
    expected = list(range(1, len(seqs) + 1))
    if seqs != expected:
        missing = sorted(set(expected) - set(seqs))
        found.append(
            f"the log is not contiguous: {len(seqs)} actions, versions {_span(seqs)}"
            + (f", missing {', '.join(map(str, missing[:10]))}" if missing else "")
        )
    if game.version != len(seqs):
        found.append(f"its version is {game.version} but its log has {len(seqs)} actions")
    return found


def _span(seqs: list[int]) -> str:
    return f"{seqs[0]}..{seqs[-1]}" if seqs else "none"


def _outcome(game: GameSession, engine: Engine) -> list[str]:
    ruled = engine.outcome(game.state)
    if game.status == GameSession.Status.FINISHED:
        if ruled is None:
            return ["the game is finished but by the rules it is not over"]
        if canonical(ruled.to_json()) != canonical(game.outcome):
            return ["its stored outcome is not the one the rules give its final state"]
    elif game.status == GameSession.Status.RUNNING and ruled is not None:
        return ["the game is over by the rules but still running"]
    return []


def _clocks(game: GameSession, engine: Engine, seats: int) -> list[str]:
    found = []
    keys = {str(n) for n in range(seats)}
    if set(game.clocks) != keys:
        return [f"it has clocks for seats {sorted(game.clocks)}, not for each of its {seats}"]
    control = game.control(engine)
    for key in sorted(keys, key=int):
        clock = game.clocks[key]
        if clock["reserve"] < 0:
            found.append(f"seat {key}'s reserve is negative ({clock['reserve']})")
        running = clock["started"] is not None
        if game.is_over:
            if running:
                found.append(f"the game is over but seat {key}'s clock still runs")
            continue
        owed = engine.decision(game.state, int(key))
        if owed is None and running:
            found.append(f"seat {key}'s clock runs but the seat owes no decision")
        elif owed is not None and (clock["phase"], clock["serial"]) != (owed.phase, owed.serial):
            found.append(
                f"seat {key} owes a {owed.phase} decision but its clock is "
                + (f"on {clock['phase']}" if running else "stopped")
            )
    if game.is_over:
        if game.windows:
            found.append(f"the game is over but {len(game.windows)} window(s) are still open")
        if game.next_deadline is not None:
            found.append(f"the game is over but a deadline is pending ({_when(game)})")
        return found
    if game.status != GameSession.Status.RUNNING:
        return found
    ruled = {(w.name, w.seat) for w in engine.windows(game.state)}
    held = {(w["name"], w["seat"]) for w in game.windows}
    if ruled != held:
        found.append(
            f"its open windows {sorted(held, key=str)} are not the rules' {sorted(ruled, key=str)}"
        )
    if game.is_paused:
        # A dispute holds it: no deadline is pending until an admin resumes it.
        if game.next_deadline is not None:
            found.append(f"the game is paused but a deadline is pending ({_when(game)})")
        return found
    found += _deadline(game, control)
    return found


def _deadline(game: GameSession, control: Any) -> list[str]:
    deadlines = [w["deadline"] for w in game.windows]
    clock_deadline = clocks.next_deadline(control, game.clocks)
    if clock_deadline is not None:
        deadlines.append(clock_deadline)
    expected = min(deadlines, default=None)
    stored = game.next_deadline.timestamp() if game.next_deadline else None
    if expected is None and stored is not None:
        return [f"a deadline is pending ({_when(game)}) but no clock runs and no window is open"]
    if expected is not None and stored is None:
        return [f"no deadline is pending but one falls due at {_iso(expected)}"]
    if expected is not None and abs(expected - stored) > DEADLINE_TOLERANCE_SECONDS:
        return [f"its next deadline is {_when(game)}, but its clocks say {_iso(expected)}"]
    return []


def _when(game: GameSession) -> str:
    return game.next_deadline.isoformat() if game.next_deadline else "none"


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, tz=UTC).isoformat()
