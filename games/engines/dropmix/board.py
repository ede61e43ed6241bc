"""The board: five slots of stacks, the mix (top cards), control, filters and drop legality.

A stack entry is ``[card_id, seat, colour]``: who dropped the card and the colour it plays
(a part's own colour, a Wild's chosen slot colour, ``None`` for an FX). Only the top entry of
each stack is in play. Slots are numbered 1..5 in actions and views, 0..4 in state.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction
from games.engines.dropmix.catalogue import Card, Catalogue
from games.engines.dropmix.grammar import COLOURS

State = dict[str, Any]
Entry = list[Any]
SLOT_COUNT = 5
CHECK_IN = ("left", "left", None, "right", "right")


def slot_accepts(middle_colour: str) -> list[list[str]]:
    """Colours each slot accepts, left to right; only the middle slot is configurable."""
    return [["yellow", "red"], ["red"], [middle_colour], ["blue"], ["green", "blue"]]


def tops(state: State) -> list[Entry | None]:
    return [stack[-1] if stack else None for stack in state["stacks"]]


def mix_colours(state: State) -> set[str]:
    return {entry[2] for entry in tops(state) if entry and entry[2]}


def missing_colours(state: State) -> list[str]:
    """Colours highlighted for the missing-colour bonus: none on the first turn."""
    if state["turn"] < 2:
        return []
    present = mix_colours(state)
    return [colour for colour in COLOURS if colour not in present]


def controller(state: State, slot: int) -> int | None:
    """The side controlling ``slot`` (owner of its top card), or ``None`` when empty."""
    stack = state["stacks"][slot]
    return state["side_of"][stack[-1][1]] if stack else None


def full_mix_side(state: State) -> int | None:
    """The side that controls all five slots, if one does."""
    sides = {controller(state, slot) for slot in range(SLOT_COUNT)}
    if len(sides) == 1:
        return next(iter(sides))
    return None


def matches(
    catalogue: Catalogue, rule: dict[str, Any], card: Card, colour: str | None, songs: list[str]
) -> bool:
    """Whether a card playing ``colour`` matches a filter. FX cards have no colour,
    instrument or song, so they match no filter. ``songs`` are the songs of the *other* cards
    in play, for ``same_song``."""
    if card.kind == "fx":
        return False
    for key, wanted in rule.items():
        if key == "colour" and colour != wanted:
            return False
        if key == "instrument" and card.instrument(colour) != wanted:
            return False
        if key == "level" and card.level != wanted:
            return False
        if key == "same_song" and card.song not in songs:
            return False
    return True


def in_play_songs(catalogue: Catalogue, state: State, skip: int | None = None) -> list[str]:
    """Songs of the cards in play, leaving out slot ``skip``."""
    songs = []
    for slot, entry in enumerate(tops(state)):
        if entry and slot != skip:
            song = catalogue.cards[entry[0]].song
            if song:
                songs.append(song)
    return songs


def entry_matches(catalogue: Catalogue, state: State, slot: int, rule: dict[str, Any]) -> bool:
    entry = state["stacks"][slot][-1]
    songs = in_play_songs(catalogue, state, skip=slot)
    return matches(catalogue, rule, catalogue.cards[entry[0]], entry[2], songs)


def blocks(catalogue: Catalogue, state: State) -> list[tuple[Card, dict[str, Any]]]:
    """The block filters of the FX cards in play, with the card that imposes each."""
    found = []
    for entry in tops(state):
        if entry:
            card = catalogue.cards[entry[0]]
            found += [(card, e["filter"]) for e in card.effects if e["form"] == "block"]
    return found


def colour_options(card: Card, accepts: list[str]) -> list[str | None]:
    """The colours ``card`` could play on a slot accepting ``accepts``."""
    if card.kind == "fx":
        return [None]
    if card.kind == "wild":
        return list(accepts)
    return [card.colour] if card.colour in accepts else []


def describe_filter(rule: dict[str, Any]) -> str:
    """A block filter as the refusal names it: ``colour=red, level=2``."""
    return ", ".join(f"{key}={value}" for key, value in sorted(rule.items()))


def placement_refusal(
    catalogue: Catalogue, state: State, card: Card, slot: int, colour: str | None
) -> IllegalAction | None:
    """Why ``card`` playing ``colour`` cannot go on ``slot`` (0-based), or ``None``.

    Covers colour, level, the copy rule and blocks; whose move it is is checked elsewhere.
    """
    accepts = state["accepts"][slot]
    if card.kind == "part" and card.colour not in accepts:
        return IllegalAction(
            "slot_colour", slot=slot + 1, accepts=", ".join(accepts), colour=str(card.colour)
        )
    if colour not in colour_options(card, accepts):
        if card.kind == "wild":
            return IllegalAction("wild_colour_needed", slot=slot + 1, accepts=", ".join(accepts))
        return IllegalAction("colour_not_playable", card=card.id, colour=str(colour), slot=slot + 1)
    stack = state["stacks"][slot]
    if stack and catalogue.cards[stack[-1][0]].level > card.level:
        below = _level_on(catalogue, stack)
        return IllegalAction("level_cover", level=card.level, below=below)
    if any(entry and entry[0] == card.id for entry in tops(state)):
        return IllegalAction("copy_in_play", card=card.id)
    if card.kind != "fx":
        songs = in_play_songs(catalogue, state)
        for fx, rule in blocks(catalogue, state):
            if matches(catalogue, rule, card, colour, songs):
                return IllegalAction("fx_blocks", fx=fx.id, rule=describe_filter(rule))
    return None


def placements(
    catalogue: Catalogue, state: State, card_ids: list[str]
) -> list[tuple[Card, int, str | None]]:
    """Every (card, slot, colour) that ``placement_refusal`` allows for these cards, worked
    out with the mix read once (this is the hot path of ``legal_actions``)."""
    in_play = set()
    top_levels = []
    for stack in state["stacks"]:
        if stack:
            in_play.add(stack[-1][0])
            top_levels.append(catalogue.cards[stack[-1][0]].level)
        else:
            top_levels.append(0)
    block_rules = [rule for _fx, rule in blocks(catalogue, state)]
    songs = in_play_songs(catalogue, state) if block_rules else []
    found = []
    for card_id in sorted(set(card_ids)):
        if card_id in in_play:
            continue
        card = catalogue.cards[card_id]
        for slot, accepts in enumerate(state["accepts"]):
            if top_levels[slot] > card.level:
                continue
            for colour in colour_options(card, accepts):
                if any(matches(catalogue, rule, card, colour, songs) for rule in block_rules):
                    continue
                found.append((card, slot, colour))
    return found


def _level_on(catalogue: Catalogue, stack: list[Entry]) -> int:
    return catalogue.cards[stack[-1][0]].level


def clear_slot(state: State, slot: int) -> Entry:
    """Clear a slot (each card to its owner's discards) and return the top card cleared.

    ``clear_mode`` ``stack`` (the default) discards the whole stack; ``top`` only the top
    card, and the card beneath, if any, is in play again."""
    stack = state["stacks"][slot]
    if state.get("clear_mode", "stack") == "top":
        card, seat, _colour = stack[-1]
        state["discards"][seat].append(card)
        state["stacks"][slot] = stack[:-1]
        return stack[-1]
    for card, seat, _colour in stack:
        state["discards"][seat].append(card)
    state["stacks"][slot] = []
    return stack[-1]
