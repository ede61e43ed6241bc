"""The DropMix Clash computer player: what a practice or room "Computer" seat plays.

- **Drops**: each legal drop is tried on a copy of the game (its own randomness, so the real
  game's draws are untouched), to the end of the move, and valued by the points it gains its
  side over the opponent's (a drop, the missing-colour bonus, a Full Mix, its FX), plus the
  slots it takes from the opponent and keeps for its side (control is what the Equalizer and
  the Full Mix are about).
- **The Equalizer**: it spins when the opponent leads (or holds most of the board) and the
  spin is expected to be worth more than its best drop: the opponent's cards each level of the
  wheel would clear, weighted by the wheel, counted double against a side ahead on points.
- **Choosing** a card from the deck: the highest level, then a Wild or FX over a plain part.
- **Extra moves**: it takes them when they gain something, and passes otherwise.
"""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines.base import WINDOW_CLOSED, Action, Rng
from games.engines.dropmix import board
from games.engines.dropmix.catalogue import catalogue_of

State = dict[str, Any]
SLOT_WORTH = 0.4  # a slot held is worth this much of a point: it scores later, and guards
LEAD_SLOTS = 3  # an opponent holding this many slots is "ahead" even when not in points
# A point taken from a leader counts double: it narrows the gap and puts off their win,
# where a point of our own only does the first.
LEADER_FACTOR = 2.0
KIND_ORDER = {"part": 0, "wild": 1, "fx": 2}


def computer(engine: Any, state: State, seat: int, rng: Rng) -> Action:
    actions = engine.legal_actions(state, seat)
    moves = [a for a in actions if a["type"] != "retract"] or actions
    choices = [a for a in moves if a["type"] == "choose"]
    if choices:
        return max(choices, key=lambda a: _card_rank(state, a["card"]))
    drops = [a for a in moves if a["type"] == "drop"]
    seed = rng.randrange(2**32)
    best_drop, best_worth = None, float("-inf")
    for drop in drops:
        worth = drop_worth(engine, state, seat, drop, seed)
        if worth > best_worth:
            best_drop, best_worth = drop, worth
    spin = {"type": "spin"}
    if spin in moves and (
        best_drop is None or (_opponent_leads(state, seat) and spin_worth(state, seat) > best_worth)
    ):
        return spin
    passing = {"type": "pass"}
    if passing in moves and (best_drop is None or best_worth <= 0):
        return passing
    return best_drop or moves[0]


def drop_worth(engine: Any, state: State, seat: int, action: Action, seed: int) -> float:
    """Points gained over the opponent by the drop, to the end of its move, plus the change
    in slots held (ours up, theirs down)."""
    side = state["side_of"][seat]
    trial = json.loads(json.dumps(state))
    rng = random.Random(seed)
    engine.apply(trial, seat, action, rng)
    for window in engine.windows(trial):  # the move made final, as the host would
        engine.apply(trial, None, {"type": WINDOW_CLOSED, "name": window.name}, rng)
    if trial["winner"] == side:
        return 1000.0
    points = (trial["scores"][side] - state["scores"][side]) - (
        trial["scores"][1 - side] - state["scores"][1 - side]
    )
    return points + SLOT_WORTH * (_held(trial, side) - _held(state, side))


def spin_worth(state: State, seat: int) -> float:
    """The expected points the opponent loses to a spin, with the slots it gives back."""
    side = state["side_of"][seat]
    labels, weights = state["wheel"]
    total = sum(weights)
    catalogue = catalogue_of(state)
    levels = [
        catalogue.cards[state["stacks"][slot][-1][0]].level
        for slot in range(board.SLOT_COUNT)
        if board.controller(state, slot) == 1 - side
    ]
    if not levels:
        return 1 / total  # the 1-in-12 point against an empty board
    cleared = 0.0
    for label, weight in zip(labels, weights, strict=True):
        hit = len(levels) if label == "X" else sum(level == int(label) for level in levels)
        cleared += weight / total * hit
    worth = min(cleared, state["scores"][1 - side]) + SLOT_WORTH * cleared
    leads = state["scores"][1 - side] > state["scores"][side]
    return worth * LEADER_FACTOR if leads else worth


def _held(state: State, side: int) -> int:
    return sum(board.controller(state, slot) == side for slot in range(board.SLOT_COUNT))


def _opponent_leads(state: State, seat: int) -> bool:
    side = state["side_of"][seat]
    return state["scores"][1 - side] > state["scores"][side] or _held(state, 1 - side) >= LEAD_SLOTS


def _card_rank(state: State, card_id: str) -> tuple[int, int]:
    card = catalogue_of(state).cards[card_id]
    return card.level, KIND_ORDER.get(card.kind, 0)
