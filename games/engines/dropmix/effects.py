"""FX cards interpreted from their data: one function per effect form of the grammar.

``resolve`` runs an FX card's effects when it is dropped and its conditions hold (each
condition needs one of the side's cards in play to match it). Effects record points in the
move's ``Tally`` (settled by ``scoring.settle`` so the acting side's gains land before any
loss), add move permits, clear slots, or draw cards. Drawing and random clearing make the
move final at once: drawing reveals cards, and random results are only drawn for final moves.

Readings the rules leave open, fixed here:
- "Your cards" are the cards in play of the dropper's side (a team shares them). FX cards in
  play have no colour, instrument or song and match no filter.
- ``score_song_pairs`` counts disjoint pairs: three cards of one song make one pair.
- ``draw(who=both)`` draws for the dropper and every opponent, dropper first; FX draws are
  not capped by the hand limit (only the end-of-turn draw is).
- ``clear`` never clears the FX's own slot; it costs points only with ``costs_points``.
- ``block`` lasts while the FX is on top of its slot, whatever its conditions; the other
  effects happen once, on the drop.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from games.engines.base import Rng
from games.engines.dropmix import board, cards
from games.engines.dropmix.catalogue import Card, Catalogue
from games.engines.dropmix.scoring import Tally

State = dict[str, Any]


@dataclass
class Drop:
    """The move an FX belongs to: who dropped it where, and what it covered."""

    seat: int
    side: int
    slot: int
    covered: list[Any] | None
    tally: Tally
    final: bool = False


def conditions_hold(catalogue: Catalogue, state: State, fx: Card, side: int) -> bool:
    """Every condition needs at least one of the side's cards in play matching it."""
    own = _own_slots(state, side)
    return all(
        any(board.entry_matches(catalogue, state, slot, rule) for slot in own)
        for rule in fx.conditions
    )


def resolve(
    catalogue: Catalogue, state: State, effects: list[dict[str, Any]], drop: Drop, rng: Rng
) -> None:
    for effect in effects:
        _FORMS[effect["form"]](catalogue, state, effect, drop, rng)


def needs_randomness(effects: list[dict[str, Any]]) -> bool:
    """Whether these effects may draw cards or pick at random (then the move is final)."""
    for effect in effects:
        if effect["form"] == "draw" or effect.get("target") == "random":
            return True
        if effect["form"] == "on_cover" and needs_randomness(effect["then"]):
            return True
    return False


def _extra_move(catalogue, state, effect, drop, rng) -> None:
    rule = effect.get("filter")
    state["extras"].append(["drop", dict(rule) if rule else None])


def _extra_spin(catalogue, state, effect, drop, rng) -> None:
    state["extras"].append(["spin", None])


def _score_sets(catalogue, state, effect, drop, rng) -> None:
    own = [slot for slot in _own_slots(state, drop.side) if state["stacks"][slot][-1][2]]
    rules = effect["filters"]
    fits = [
        [
            index
            for index, rule in enumerate(rules)
            if board.entry_matches(catalogue, state, s, rule)
        ]
        for s in own
    ]
    drop.tally.gain(drop.side, effect["n"] * _most_sets(fits, len(rules)))


def _most_sets(fits: list[list[int]], size: int) -> int:
    """Most disjoint sets holding one card per filter; each card counts in one set at most.

    At most five cards are in play, so trying every assignment is cheap and exact.
    """
    best = 0
    for assignment in product(*[[None, *options] for options in fits]):
        used = Counter(index for index in assignment if index is not None)
        best = max(best, min(used[index] for index in range(size)))
    return best


def _score_song_pairs(catalogue, state, effect, drop, rng) -> None:
    songs = Counter(
        catalogue.cards[state["stacks"][slot][-1][0]].song for slot in _own_slots(state, drop.side)
    )
    pairs = sum(count // 2 for song, count in songs.items() if song)
    drop.tally.gain(drop.side, effect["n"] * pairs)


def _draw(catalogue, state, effect, drop, rng) -> None:
    drop.final = True
    seats = [drop.seat]
    if effect["who"] == "both":
        seats += state["sides"][1 - drop.side]
    for seat in seats:
        if effect["mode"] == "top":
            cards.draw(state, seat, effect["count"], rng)
        elif effect["mode"] == "choose":
            if not state["decks"][seat]:
                cards.refill(state, seat, rng)
            if state["decks"][seat]:
                state["choices"].append([seat, min(effect["count"], len(state["decks"][seat]))])
        else:
            cards.redraw_hand(state, seat, rng)


def _clear(catalogue, state, effect, drop, rng) -> None:
    owners = {1 - drop.side} if effect["who"] == "opponent" else {0, 1}
    candidates = [
        slot
        for slot in range(board.SLOT_COUNT)
        if slot != drop.slot and board.controller(state, slot) in owners
    ]
    target = effect["target"]
    if target == "adjacent":
        chosen = [slot for slot in candidates if abs(slot - drop.slot) == 1]
    elif target == "random":
        drop.final = True
        chosen = [rng.choice(candidates)] if candidates else []
    else:
        chosen = [
            slot
            for slot in candidates
            if any(board.entry_matches(catalogue, state, slot, rule) for rule in target["any"])
        ]
    cleared = [board.clear_slot(state, slot) for slot in chosen]
    if effect.get("costs_points"):
        for entry in cleared:
            drop.tally.lose(state["side_of"][entry[1]], 1)


def _score(catalogue, state, effect, drop, rng) -> None:
    who = effect["who"]
    sides = [drop.side] if who == "self" else [1 - drop.side] if who == "opponent" else [0, 1]
    for side in sides:
        drop.tally.add(side, effect["delta"])


def _on_cover(catalogue, state, effect, drop, rng) -> None:
    covers = effect["covers"]
    if covers == "empty":
        triggered = drop.covered is None
    else:
        triggered = drop.covered is not None and drop.covered[2] == covers["colour"]
    if triggered:
        resolve(catalogue, state, effect["then"], drop, rng)


def _block(catalogue, state, effect, drop, rng) -> None:
    """Blocks act while the FX is in play (see ``board.blocks``); nothing happens on the drop."""


_FORMS = {
    "extra_move": _extra_move,
    "extra_spin": _extra_spin,
    "score_sets": _score_sets,
    "score_song_pairs": _score_song_pairs,
    "draw": _draw,
    "clear": _clear,
    "score": _score,
    "on_cover": _on_cover,
    "block": _block,
}


def _own_slots(state: State, side: int) -> list[int]:
    return [slot for slot in range(board.SLOT_COUNT) if board.controller(state, slot) == side]
