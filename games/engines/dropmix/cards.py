"""Hands and decks: drawing, the reshuffle when a deck runs out, redrawing a hand."""

from __future__ import annotations

from typing import Any

from games.engines.base import Rng

State = dict[str, Any]


def draw(state: State, seat: int, count: int, rng: Rng) -> int:
    """Draw up to ``count`` cards into ``seat``'s hand; returns how many were drawn."""
    deck, hand = state["decks"][seat], state["hands"][seat]
    drawn = 0
    for _ in range(count):
        if not deck:
            refill(state, seat, rng)
            if not deck:
                break
        hand.append(deck.pop())
        drawn += 1
    return drawn


def refill(state: State, seat: int, rng: Rng) -> None:
    """An empty deck becomes the seat's discards plus its covered cards still on the board,
    shuffled. Only the top of a stack is in play, so the cards beneath can leave it."""
    deck = state["decks"][seat]
    deck += state["discards"][seat]
    state["discards"][seat] = []
    for stack in state["stacks"]:
        if len(stack) > 1:
            covered = [entry for entry in stack[:-1] if entry[1] == seat]
            if covered:
                deck += [entry[0] for entry in covered]
                stack[:-1] = [entry for entry in stack[:-1] if entry[1] != seat]
    rng.shuffle(deck)


def redraw_hand(state: State, seat: int, rng: Rng) -> None:
    """Shuffle the whole hand into the deck and draw as many cards again."""
    hand = state["hands"][seat]
    size = len(hand)
    state["decks"][seat] += hand
    state["hands"][seat] = []
    rng.shuffle(state["decks"][seat])
    draw(state, seat, size, rng)


def take_chosen(state: State, seat: int, card: str, rng: Rng) -> None:
    """Move a chosen card from the deck to the hand; the deck is shuffled afterwards."""
    state["decks"][seat].remove(card)
    state["hands"][seat].append(card)
    rng.shuffle(state["decks"][seat])
