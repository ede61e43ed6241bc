"""Computer players: a greedy one that takes the most points now, and a random one.

Each takes the engine first; the engine binds itself in, giving ``Bot`` callables."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines.base import Action, Rng
from games.engines.dropmix import board

State = dict[str, Any]
SPIN_WHEN_OPPONENT_HOLDS = 3  # slots held by the opponent that make the greedy bot spin


def random_play(engine: Any, state: State, seat: int, rng: Rng) -> Action:
    """Any legal action but a retract, uniformly."""
    return rng.choice(_moves(engine, state, seat))


def greedy(engine: Any, state: State, seat: int, rng: Rng) -> Action:
    """The move that gains the side most points at once; a spin when the opponent holds many
    slots; the highest card when choosing."""
    actions = _moves(engine, state, seat)
    choices = [a for a in actions if a["type"] == "choose"]
    if choices:
        return choices[-1]
    side = state["side_of"][seat]
    held = sum(board.controller(state, slot) == 1 - side for slot in range(board.SLOT_COUNT))
    spin = {"type": "spin"}
    if spin in actions and held >= SPIN_WHEN_OPPONENT_HOLDS:
        return spin
    drops = [a for a in actions if a["type"] == "drop"]
    if not drops:
        return spin if spin in actions else actions[0]
    # Try each drop on a copy with its own randomness, so the real game's draws are untouched.
    seed = rng.randrange(2**32)
    return max(drops, key=lambda action: _gain(engine, state, seat, action, seed))


def _gain(engine: Any, state: State, seat: int, action: Action, seed: int) -> int:
    trial = json.loads(json.dumps(state))
    engine.apply(trial, seat, action, random.Random(seed))
    side = state["side_of"][seat]
    return (trial["scores"][side] - state["scores"][side]) - (
        trial["scores"][1 - side] - state["scores"][1 - side]
    )


def _moves(engine: Any, state: State, seat: int) -> list[Action]:
    """Legal actions, leaving out retracts unless nothing else is legal (a bot asked while
    its own last move waits for its window)."""
    actions = engine.legal_actions(state, seat)
    return [a for a in actions if a["type"] != "retract"] or actions
