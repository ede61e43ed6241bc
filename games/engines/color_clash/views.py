"""What each seat may see, and the redeal that proves it sees nothing more.

A seat sees its own hand, everyone's card counts, the top card, the colour in force, the
direction, who may act, the places and scores; a spectator sees the same without any hand.
The draw pile's order, other hands and which card another seat drew stay hidden.
"""

from __future__ import annotations

from games.engines.base import IllegalAction, Rng, State, View
from games.engines.color_clash.cards import COLORS, NOTATION, RANK, WILD
from games.engines.color_clash.last_card import WINDOW, WINDOW_SECONDS, held_catchers, in_grace
from games.engines.color_clash.turns import check_play


def view(state: State, seat: int | None, to_act: list[int]) -> View:
    hands = state["hands"]
    color = state["color"]
    window = state["window"]
    seen: View = {
        "mode": state["config"]["mode"],
        "match": state["config"]["match"],
        "round": state["round"],
        "dealer": state["dealer"],
        "turn": state["turn"],
        "to_act": to_act,
        "hand_counts": {str(other): len(hand) for other, hand in enumerate(hands)},
        "top": NOTATION[state["discard_pile"][-1]],
        "color": None if color is None else COLORS[color],
        "choosing_color": state["choosing_color"],
        "direction": state["direction"],
        "draw_pile": len(state["draw_pile"]),
        "discard_pile": len(state["discard_pile"]),
        "drew": state["drawn"] is not None,
        "window": None
        if window is None
        else {
            "name": WINDOW,
            "seconds": WINDOW_SECONDS,
            "seat": window,
            "grace": in_grace(state),
            "held": held_catchers(state),
        },
        "last_card_called": [other for other, called in enumerate(state["called"]) if called],
        "places": list(state["places"]),
        "scores": {str(other): total for other, total in enumerate(state["scores"])},
        "rounds": [{**record, "points": dict(record["points"])} for record in state["rounds"]],
        "substitutes": list(state["substitutes"]),
        "over": state["over"],
    }
    if seat is not None:
        seen["hand"] = [NOTATION[card] for card in sorted(hands[seat])]
        if state["drawn"] is not None and state["turn"] == seat:
            seen["drawn"] = NOTATION[state["drawn"]]
        seen["refusals"] = refusals(state, seat)
    return seen


def refusals(state: State, seat: int) -> dict[str, dict]:
    """Why each card of the seat's hand cannot be played now, by the rules' own refusal (its
    code and params): a tap on a dimmed card says it. Only the seat's own cards and public
    facts enter it."""
    if state["over"] or state["turn"] is None:
        return {}
    said: dict[str, dict] = {}
    for card in set(state["hands"][seat]):
        name = NOTATION[card]
        action = {"type": "play", "card": name}
        if RANK[card] >= WILD:
            action["color"] = COLORS[0]
        try:
            check_play(state, seat, action)
        except IllegalAction as refusal:
            said[name] = {"refusal": refusal.code, "params": refusal.params}
    return said


def resample_hidden(state: State, viewer: int | None, rng: Rng) -> State:
    """A copy with the draw pile and every hand but ``viewer``'s redealt, sizes kept."""
    copied = _copy(state)
    hands = copied["hands"]
    others = [seat for seat in range(len(hands)) if seat != viewer]
    pool = copied["draw_pile"] + [card for seat in others for card in hands[seat]]
    rng.shuffle(pool)
    for seat in others:
        size = len(hands[seat])
        hands[seat], pool = pool[:size], pool[size:]
    copied["draw_pile"] = pool
    turn = copied["turn"]
    if copied["drawn"] is not None and turn != viewer:
        copied["drawn"] = hands[turn][-1]  # the card another seat drew is hidden too
    return copied


def reshuffle_unseen(state: State, rng: Rng) -> State:
    """A copy whose draw pile (nobody has seen its order) is shuffled again; hands stay."""
    copied = _copy(state)
    rng.shuffle(copied["draw_pile"])
    return copied


def _copy(state: State) -> State:
    """A copy sharing no list with ``state`` (round records are never changed once written);
    much faster than ``copy.deepcopy``, and the conformance checks call this at every step."""
    copied = dict(state)
    copied["config"] = dict(state["config"])
    copied["hands"] = [list(hand) for hand in state["hands"]]
    for key in ("draw_pile", "discard_pile", "called", "places", "scores", "substitutes"):
        copied[key] = list(state[key])
    if state["round_points"] is not None:
        copied["round_points"] = list(state["round_points"])
    copied["rounds"] = list(state["rounds"])
    return copied
