"""Computer players. Each returns one legal action for its seat, or ``None`` when its only
options are optional and it lets them pass (a Catch it does not press).

``heuristic``: plays a matching coloured card when it can (the one worth most points, an action
card first when the next player is about to go out), keeps Wilds until nothing else fits
and then names the colour it holds most, calls "Last card!" before playing its next-to-last
card, draws when it cannot play, and catches others now and then. ``random``: any legal action,
for tests.
"""

from __future__ import annotations

from games.engines.base import Action, Rng, State
from games.engines.color_clash.cards import (
    COLOR,
    COLORS,
    IDS_BY_NOTATION,
    NOTATION,
    POINTS,
    RANK,
    SKIP,
)
from games.engines.color_clash.table import next_holder
from games.engines.color_clash.turns import has_play, legal_actions

CATCH_CHANCE = 0.4


def random_bot(state: State, seat: int, rng: Rng) -> Action | None:
    actions = legal_actions(state, seat)
    return rng.choice(actions) if actions else None


def heuristic_bot(state: State, seat: int, rng: Rng) -> Action | None:
    actions = legal_actions(state, seat)
    if not actions:
        return None
    kinds = {action["type"] for action in actions}
    if "catch" in kinds:
        return actions[0] if rng.random() < CATCH_CHANCE else None
    hand = state["hands"][seat]
    if "choose_color" in kinds:
        return {"type": "choose_color", "color": _most_held_color(hand)}
    if "call_last_card" in kinds and (state["window"] == seat or has_play(state, hand)):
        return {"type": "call_last_card"}
    plays = [action for action in actions if action["type"] == "play"]
    if plays:
        return _best_play(state, seat, plays)
    return {"type": "draw"} if "draw" in kinds else {"type": "pass"}


def _best_play(state: State, seat: int, plays: list[Action]) -> Action:
    coloured = [action for action in plays if "color" not in action]
    if not coloured:
        # only Wilds fit: a Draw Four first (it is rarely legal later), in our strongest colour
        wild = max(plays, key=lambda action: action["card"] == "W4")
        rest = list(state["hands"][seat])
        rest.remove(next(card for card in rest if NOTATION[card] == wild["card"]))
        return {"type": "play", "card": wild["card"], "color": _most_held_color(rest)}
    threatened = len(state["hands"][next_holder(state, seat)]) <= 2

    def worth(action: Action) -> tuple[bool, int]:
        card = IDS_BY_NOTATION[action["card"]][0]
        return threatened and RANK[card] >= SKIP, POINTS[card]

    return max(coloured, key=worth)


def _most_held_color(hand: list[int]) -> str:
    counts = [0, 0, 0, 0]
    for card in hand:
        if COLOR[card] >= 0:
            counts[COLOR[card]] += 1
    return COLORS[counts.index(max(counts))]


BOTS = {"heuristic": heuristic_bot, "random": random_bot}
