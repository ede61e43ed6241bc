"""A finished game step by step, for the replay page: the board after each logged action,
every seat's own view (after the end every hand may be shown: the revealed seed lets anyone
recompute them), and each seat's clock as it stood after that action.

The steps come from replaying the log from the revealed seed, as ``verify`` does; the clocks
from the same pure clock arithmetic the server ran, at the times the log recorded."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from games import clocks, engines, public_log
from games.engines.base import StepRng, reshuffled_unseen
from games.models import GameSession
from hosting.core.errors import Conflict


def steps(game: GameSession, *, full: bool = False) -> dict[str, Any]:
    """``{"seats": [...], "steps": [...]}``; step 0 is the deal, step n the n-th action.

    ``full`` (a staff admin's dispute page, never a public page) adds each step's whole
    state and works while the game still runs."""
    if not game.is_over and not full:
        raise Conflict(_("the replay opens once the game has ended"))
    engine = engines.get(game.engine)
    seed = game.rng_seed  # the effective seed: the server seed with every client seed
    seats = list(game.seats.order_by("number"))
    numbers = [s.number for s in seats]
    control = game.control(engine)
    state, reserves = start_state(game)
    started = game.started.timestamp() if game.started else 0.0
    seat_clocks = {
        str(n): {**clocks.new_clock(control), "reserve": reserves[str(n)]} for n in numbers
    }
    _settle(engine, control, state, seat_clocks, started)
    frames = [_frame(engine, state, numbers, seat_clocks, None, None, started)]
    if full:
        frames[0]["state"] = json.loads(json.dumps(state))
    for event in game.log.order_by("seq"):
        moment = event.at.timestamp()
        engine.apply(state, event.seat, event.action, StepRng(seed, event.seq))
        _settle(engine, control, state, seat_clocks, moment)
        frame = _frame(engine, state, numbers, seat_clocks, event.seat, event.action, moment)
        # the step's caption: its public log entry, said in words by the page
        frame["log"] = public_log.entry(game.engine, event.seq, event.seat, event.events)
        if full:
            frame["state"] = json.loads(json.dumps(state))
        frames.append(frame)
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


def start_state(
    game: GameSession, *, seed: bytes | None = None
) -> tuple[dict[str, Any], dict[str, float]]:
    """The state a game started from and each seat's reserve then: the deal from its
    effective seed (or ``seed``, as ``verify`` derives it), or, for a game continued from
    another (``origin``), that game's state at the event it continued from with the unseen
    cards reshuffled by this game's seed."""
    engine = engines.get(game.engine)
    seed = game.rng_seed if seed is None else seed
    if game.origin is None:
        control = game.control(engine)
        count = game.seats.count()
        reserves = {str(n): clocks.new_clock(control)["reserve"] for n in range(count)}
        return engine.setup(game.config, count, StepRng(seed, 0)), reserves
    source = GameSession.objects.get(pk=game.origin["game"])
    state, reserves = state_at(source, game.origin["seq"])
    return reshuffled_unseen(engine, state, StepRng(seed, 0)), reserves


def replayed(game: GameSession, *, seed: bytes | None = None) -> dict[str, Any]:
    """The state a game's whole log leads to from its start (``start_state``), as ``verify``
    and ``check_games`` rebuild it to compare with the stored one."""
    engine = engines.get(game.engine)
    seed = game.rng_seed if seed is None else seed
    state, _events = start_state(game, seed=seed)
    for event in game.log.order_by("seq"):
        engine.apply(state, event.seat, event.action, StepRng(seed, event.seq))
    return state


def state_at(game: GameSession, seq: int) -> tuple[dict[str, Any], dict[str, float]]:
    """An ended game's full state after its ``seq``-th logged action (0: its start) and each
    seat's reserve at that moment, rebuilt from the revealed seed as the replay page does."""
    if not game.is_over:
        raise Conflict(_("the state at an event is rebuilt once the game has ended"))
    engine = engines.get(game.engine)
    seed = game.rng_seed
    control = game.control(engine)
    state, reserves = start_state(game)
    seat_clocks = {key: {**clocks.new_clock(control), "reserve": r} for key, r in reserves.items()}
    _settle(engine, control, state, seat_clocks, game.started.timestamp() if game.started else 0.0)
    for event in game.log.filter(seq__lte=seq).order_by("seq"):
        engine.apply(state, event.seat, event.action, StepRng(seed, event.seq))
        _settle(engine, control, state, seat_clocks, event.at.timestamp())
    # A decision under way at that event starts afresh in the new game: its reserve stands.
    return state, {key: clock["reserve"] for key, clock in seat_clocks.items()}
