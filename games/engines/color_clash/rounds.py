"""Rounds and the match around them: dealing, the first card, scoring, ending.

A round ends when at most one seat still holds cards (with two seats, when the first goes
out), or when nobody could play or draw for two full laps. The next round is dealt at once
unless the match is over. Only the first seat to go out scores: the cards left in the others'
hands after any Draw Two / Draw Four of its last card was drawn. A substitute never scores,
and a substitute going out first means nobody scores that round.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Event, Rng, State
from games.engines.color_clash import last_card
from games.engines.color_clash.cards import (
    COLOR,
    DECK_SIZE,
    DRAW_TWO,
    HAND_SIZE,
    NOTATION,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
    hand_points,
)
from games.engines.color_clash.config import MATCHES, TARGET
from games.engines.color_clash.table import draw_cards, holders, start_turn


def new_match(config: dict[str, Any], seats: int, rng: Rng) -> State:
    """A match about to play its first round. The state's keys:

    ``hands`` card ids per seat; ``draw_pile``/``discard_pile`` card ids, top last;
    ``color`` colour index in force (``None`` while the first player picks one for a turned
    Wild); ``direction`` 1 or -1; ``turn`` the seat to play (``None`` once over); ``serial``
    counts turns; ``drawn`` the playable card drawn this turn, if any; ``choosing_color``;
    ``called`` who has called "Last card!" for the card they hold; ``window`` the seat whose
    3-second "Last card!" window is open, ``grace`` whether its first second runs, ``held``
    the seats whose Catch waits for that second to end; ``places`` who went out this round, in
    order; ``stuck`` consecutive passes by seats that could neither play nor draw; ``round_points``
    what the round's first-out seat scored; ``scores`` match totals; ``rounds`` results.
    """
    state: State = {
        "config": config,
        "round": 0,
        "dealer": 0,
        "hands": [[] for _ in range(seats)],
        "draw_pile": [],
        "discard_pile": [],
        "color": None,
        "direction": 1,
        "turn": None,
        "serial": 0,
        "drawn": None,
        "choosing_color": False,
        "called": [False] * seats,
        "window": None,
        "grace": False,
        "held": [],
        "places": [],
        "stuck": 0,
        "round_points": None,
        "scores": [0] * seats,
        "rounds": [],
        "substitutes": list(config["substitutes"]),
        "over": False,
        "end_reason": None,
    }
    deal_round(state, rng)
    return state


def deal_round(state: State, rng: Rng) -> list[Event]:
    """Shuffle, deal seven each and turn the first card. The dealer moves one seat each round
    (seat n-1 deals round 1) and the seat after the dealer plays first."""
    seats = len(state["hands"])
    number = state["round"] + 1
    dealer = (number - 2) % seats
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    state.update(
        round=number,
        dealer=dealer,
        hands=[deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(seats)],
        draw_pile=deck[seats * HAND_SIZE :],
        discard_pile=[],
        direction=1,
        drawn=None,
        choosing_color=False,
        called=[False] * seats,
        window=None,
        grace=False,
        held=[],
        places=[],
        stuck=0,
        round_points=None,
    )
    card = _turn_first_card(state, rng)
    events: list[Event] = [
        {"type": "round_started", "round": number, "dealer": dealer, "top": NOTATION[card]}
    ]
    events.extend(_first_card_effect(state, card, (dealer + 1) % seats, rng))
    return events


def _turn_first_card(state: State, rng: Rng) -> int:
    """Classic: a Wild Draw Four goes back into the pile at a random place. Family night: turn
    until a number shows; the turned action cards stay under it in the discard pile."""
    pile, discard = state["draw_pile"], state["discard_pile"]
    family = state["config"]["mode"] == "family"
    while True:
        card = pile.pop()
        rank = RANK[card]
        if family and rank > 9:
            discard.append(card)
        elif not family and rank == WILD_DRAW_FOUR:
            pile.insert(rng.randrange(len(pile) + 1), card)
        else:
            discard.append(card)
            return card


def _first_card_effect(state: State, card: int, first: int, rng: Rng) -> list[Event]:
    """Skip: the first player is skipped. Reverse: the dealer starts, play goes the other way.
    Draw Two: the first player draws two and loses the turn. Wild: the first player picks the
    colour, then plays."""
    seats = len(state["hands"])
    rank = RANK[card]
    state["color"] = None if rank == WILD else COLOR[card]
    turn = first
    events: list[Event] = []
    if rank == SKIP:
        turn = (first + 1) % seats
        events.append({"type": "skipped", "seat": first})
    elif rank == REVERSE:
        state["direction"] = -1
        turn = state["dealer"]
    elif rank == DRAW_TWO:
        events.append({"type": "drew", "seat": first, "count": draw_cards(state, first, 2, rng)})
        turn = (first + 1) % seats
    elif rank == WILD:
        state["choosing_color"] = True
    start_turn(state, turn)
    return events


def score_first_out(state: State, seat: int) -> None:
    """The first seat out scores the cards left in the other hands (a substitute scores
    nothing, and then nobody scores this round)."""
    points = [0] * len(state["hands"])
    if seat not in state["substitutes"]:
        points[seat] = sum(hand_points(hand) for hand in state["hands"])
    state["round_points"] = points


def end_round(state: State, rng: Rng, *, stalled: bool = False) -> list[Event]:
    """Record the round, add its points, then deal the next round or end the match."""
    seats = len(state["hands"])
    places = list(state["places"])
    if not stalled:
        places.extend(seat for seat in range(seats) if state["hands"][seat])
    points = state["round_points"] or [0] * seats
    for seat in range(seats):
        state["scores"][seat] += points[seat]
    record = {
        "round": state["round"],
        "places": places,
        "winner": state["places"][0] if state["places"] else None,
        "points": {str(seat): points[seat] for seat in range(seats)},
        "stalled": stalled,
        "substitutes": list(state["substitutes"]),
    }
    state["rounds"].append(record)
    last_card.shut(state)
    events: list[Event] = [{"type": "round_ended", **record}]
    reason = _match_end_reason(state)
    if reason is None:
        events.extend(deal_round(state, rng))
    else:
        state.update(over=True, end_reason=reason, turn=None, drawn=None, choosing_color=False)
        events.append({"type": "match_ended", "reason": reason})
    return events


def stalled(state: State) -> bool:
    """Nobody could play or draw for two full laps of the seats still in the round."""
    return state["stuck"] >= 2 * holders(state)


def _match_end_reason(state: State) -> str | None:
    rounds = MATCHES[state["config"]["match"]]
    played = len(state["rounds"])
    if rounds is not None:
        return f"{played} round(s) played" if played >= rounds else None
    if max(state["scores"]) >= TARGET:
        return f"a total reached {TARGET}"
    if len(state["substitutes"]) == len(state["hands"]):
        # substitutes cannot score, so nobody could ever reach the target
        return "every seat is played by a substitute"
    return None
