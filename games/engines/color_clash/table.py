"""The table's moving parts every rule uses: whose turn is next, drawing, reshuffling.

The state is a plain JSON dict; its keys are described in ``rounds.new_match``. Piles are
lists of card ids whose last item is the top card.
"""

from __future__ import annotations

from games.engines.base import Rng, State


def next_holder(state: State, seat: int) -> int:
    """The next seat in the direction of play that still holds cards (empty seats are skipped,
    they have left the round). ``seat`` itself when nobody else holds cards."""
    hands = state["hands"]
    seats = len(hands)
    step = state["direction"]
    other = seat
    for _ in range(seats):
        other = (other + step) % seats
        if hands[other]:
            return other
    return seat


def holders(state: State) -> int:
    """How many seats are still in the round."""
    return sum(1 for hand in state["hands"] if hand)


def can_draw(state: State) -> bool:
    """A card can be drawn: the pile has one, or the discards under the top can be reshuffled."""
    return bool(state["draw_pile"]) or len(state["discard_pile"]) > 1


def draw_cards(state: State, seat: int, count: int, rng: Rng) -> int:
    """``seat`` draws up to ``count`` cards, reshuffling the discards when the pile runs out;
    returns how many it got (fewer only when nothing is left to draw)."""
    pile = state["draw_pile"]
    hand = state["hands"][seat]
    if count == 1 and pile:  # the common case: a turn's single draw
        hand.append(pile.pop())
        state["called"][seat] = False
        return 1
    drawn = 0
    for _ in range(count):
        if not pile and not _reshuffle(state, rng):
            break
        hand.append(pile.pop())
        drawn += 1
    if drawn:
        state["called"][seat] = False  # a grown hand owes a fresh "Last card!" later
    return drawn


def start_turn(state: State, seat: int) -> None:
    """A new turn for ``seat``: a fresh timer (new serial), no card drawn yet."""
    state["turn"] = seat
    state["serial"] += 1
    state["drawn"] = None


def _reshuffle(state: State, rng: Rng) -> bool:
    discard = state["discard_pile"]
    if len(discard) <= 1:
        return False
    pile = state["draw_pile"]
    pile.extend(discard[:-1])
    del discard[:-1]
    rng.shuffle(pile)
    return True
