"""Computer players for tests and practice.

``random``: a uniformly random legal choice. ``greedy``: drafts toward its best open
category (the pick that most raises the best trio its hand can form, discarding the card
that would help it least) and plays the action worth the most points now.
"""

from __future__ import annotations

from itertools import combinations

from games.engines.base import Action, Rng, State
from games.engines.drafting_trios.actions import legal_actions
from games.engines.drafting_trios.cards import POWER_SET, VISIBLE_ZERO
from games.engines.drafting_trios.ending import BONUS_FACTOR
from games.engines.drafting_trios.powers import VISIBLE_ZERO_POINTS
from games.engines.drafting_trios.rounds import DISCARD_POINTS, POWER_DISCARD_POINTS
from games.engines.drafting_trios.scoring import score
from games.engines.drafting_trios.table import DRAFT, PLAY, open_categories


def random_bot(state: State, seat: int, rng: Rng) -> Action:
    return rng.choice(legal_actions(state, seat))


def greedy_bot(state: State, seat: int, rng: Rng) -> Action:
    actions = legal_actions(state, seat)
    if state["stage"] == DRAFT and actions[0].get("discard") is not None:
        return _greedy_draft(state, seat, actions)
    if state["stage"] == PLAY:
        return max(actions, key=lambda action: _points_now(state, seat, action))
    return rng.choice(actions)


def best_trio_points(state: State, seat: int, hand: list[str]) -> float:
    """The most points one trio of ``hand`` would score in an open category now."""
    sheet = state["categories"][seat]
    colour_flag = state["config"]["colour_bonus_on_failed_trio"]
    allow_power = state["config"]["power_cards_in_trios"]
    best = 0.0
    for triple in set(combinations(sorted(hand), 3)):
        if not allow_power and not POWER_SET.isdisjoint(triple):
            continue
        for category in open_categories(state, seat):
            entry = sheet[category]
            points = score(entry["rule"], triple, colour_flag)
            best = max(best, points * BONUS_FACTOR if entry["bonus"] else points)
    return best


def _greedy_draft(state: State, seat: int, actions: list[Action]) -> Action:
    hand = state["hands"][seat]
    worth = {
        card: best_trio_points(state, seat, [*hand, card]) for card in set(state["piles"][seat])
    }
    drafts = [action for action in actions if action["type"] == "draft"]
    return max(drafts, key=lambda action: (worth[action["pick"]], -worth[action["discard"]]))


def _points_now(state: State, seat: int, action: Action) -> float:
    kind = action["type"]
    if kind == "trio":
        entry = state["categories"][seat][action["category"]]
        points = score(
            entry["rule"], action["cards"], state["config"]["colour_bonus_on_failed_trio"]
        )
        return points * BONUS_FACTOR if entry["bonus"] else points
    if kind == "discard":
        all_power = POWER_SET.issuperset(action["cards"])
        return POWER_DISCARD_POINTS if all_power else DISCARD_POINTS
    if kind == "power" and action["card"] == VISIBLE_ZERO:
        return VISIBLE_ZERO_POINTS
    return 0
