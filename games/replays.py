"""A finished game step by step, for the replay page: the board after each logged action,
every seat's own view (after the end every hand may be shown: the revealed seed lets anyone
recompute them), and each seat's clock as it stood after that action.

The steps come from replaying the log from the revealed seed, as ``verify`` does; the clocks
from the same pure clock arithmetic the server ran, at the times the log recorded."""

from __future__ import annotations

from typing import Any

from games import clocks, engines
from games.engines.base import StepRng
from games.models import GameSession
from hosting.errors import Conflict


def steps(game: GameSession) -> dict[str, Any]:
    """``{"seats": [...], "steps": [...]}``; step 0 is the deal, step n the n-th action."""
    if not game.is_over:
        raise Conflict("the replay opens once the game has ended")
    engine = engines.get(game.engine)
    seed = game.rng_seed  # the effective seed: the server seed with every client seed
    seats = list(game.seats.order_by("number"))
    numbers = [s.number for s in seats]
    control = game.control(engine)
    state = engine.setup(game.config, len(seats), StepRng(seed, 0))
    started = game.started.timestamp() if game.started else 0.0
    seat_clocks = {str(n): clocks.new_clock(control) for n in numbers}
    _settle(engine, control, state, seat_clocks, started)
    frames = [_frame(engine, state, numbers, seat_clocks, None, None, started)]
    for event in game.log.order_by("seq"):
        moment = event.at.timestamp()
        engine.apply(state, event.seat, event.action, StepRng(seed, event.seq))
        _settle(engine, control, state, seat_clocks, moment)
        frames.append(_frame(engine, state, numbers, seat_clocks, event.seat, event.action, moment))
    return {
        "seats": [
            {"number": s.number, "name": s.label(), "kind": s.kind, "role": s.role} for s in seats
        ],
        "started": started,
        "steps": frames,
    }


def _settle(engine, control, state, seat_clocks: dict[str, dict], moment: float) -> None:
    """What ``services`` does to the clocks after each action (stop who decided, start who
    owes a new decision)."""
    over = engine.outcome(state) is not None
    for key, clock in list(seat_clocks.items()):
        decision = None if over else engine.decision(state, int(key))
        if decision is None:
            seat_clocks[key] = clocks.stop(control, clock, moment)
        elif (clock["phase"], clock["serial"]) != (decision.phase, decision.serial):
            stopped = clocks.stop(control, clock, moment)
            seat_clocks[key] = clocks.start(stopped, decision.phase, decision.serial, moment)


def _frame(engine, state, numbers, seat_clocks, seat, action, moment: float) -> dict[str, Any]:
    public = engine.view(state, None)
    own = {}
    for number in numbers:
        seen = engine.view(state, number)
        own[str(number)] = {k: v for k, v in seen.items() if public.get(k, _ABSENT) != v}
    return {
        "seat": seat,
        "action": action,
        "at": moment,
        "view": public,
        "own": own,
        "clocks": {
            key: {"reserve": round(clock["reserve"], 3), "owes": clock["phase"]}
            for key, clock in seat_clocks.items()
        },
    }


_ABSENT = object()
