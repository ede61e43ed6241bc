"""The choices a seat may make in each stage: enumerated fully, and checked one by one.

Card lists in listed actions are sorted, so a choice has one spelling in ``legal_actions``;
``check`` accepts any order and returns the sorted (normalised) action that is stored.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engines.base import Action, IllegalAction, State, refuse_unknown_fields
from games.engines.drafting_trios.cards import ALL_CARDS, POWER_SET, VALUE
from games.engines.drafting_trios.powers import COST, TARGET_KEYS, may_activate, targets
from games.engines.drafting_trios.scoring import CATEGORIES
from games.engines.drafting_trios.table import (
    DRAFT,
    NAME,
    OPEN,
    OVER,
    PLAY,
    QUAKE,
    SEATS,
    open_categories,
    open_for_both,
    without,
)

TRIO_SIZE = 3


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in state["waiting"]:
        return []
    return _ENUMERATORS[state["stage"]](state, seat)


def may_mulligan(state: State, seat: int) -> bool:
    """Instead of a later drafting phase's first pick, a seat may spend a charge."""
    return state["round"] > 1 and state["step"] == 0 and state["mulligans"][seat] > 0


def _draft_actions(state: State, seat: int) -> list[Action]:
    pile = state["piles"][seat]
    if len(pile) == 1:
        return [{"type": "draft", "pick": pile[0], "discard": None}]
    distinct = sorted(set(pile))
    doubled = set() if len(distinct) == len(pile) else {c for c in distinct if pile.count(c) > 1}
    actions: list[Action] = [
        {"type": "draft", "pick": pick, "discard": discard}
        for pick in distinct
        for discard in distinct
        if pick != discard or pick in doubled
    ]
    if may_mulligan(state, seat):
        actions.append({"type": "mulligan"})
    return actions


def _name_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "name", "card": card} for card in ALL_CARDS]


def _quake_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "earthquake", "category": category} for category in open_for_both(state)]


def _play_actions(state: State, seat: int) -> list[Action]:
    hand = sorted(state["hands"][seat])
    if len(hand) < TRIO_SIZE:
        return [{"type": "pass"}]
    triples = sorted(set(combinations(hand, TRIO_SIZE)))
    trio_ok = state["config"]["power_cards_in_trios"]
    open_ids = open_categories(state, seat)
    actions: list[Action] = [
        {"type": "trio", "category": category, "cards": cards}
        for cards in [list(t) for t in triples if trio_ok or POWER_SET.isdisjoint(t)]
        for category in open_ids
    ]
    for power in sorted(POWER_SET.intersection(hand)):
        if not may_activate(state, seat, power):
            continue
        rest = list(hand)
        rest.remove(power)
        cost_set = COST[power]
        pairs = [
            list(pair)
            for pair in sorted(set(combinations(rest, 2)))
            if VALUE[pair[0]] + VALUE[pair[1]] in cost_set
        ]
        if not pairs:
            continue
        for extra in targets(state, seat, power):
            actions.extend(
                {"type": "power", "card": power, "cost": pair, **extra} for pair in pairs
            )
    actions.extend({"type": "discard", "cards": list(triple)} for triple in triples)
    return actions


_ENUMERATORS = {
    DRAFT: _draft_actions,
    NAME: _name_actions,
    PLAY: _play_actions,
    QUAKE: _quake_actions,
}


def check(state: State, seat: int | None, action: Any) -> Action:
    """The normalised action if ``seat`` may take it now, else ``IllegalAction``."""
    if not isinstance(action, dict):
        raise IllegalAction("not_an_object")
    kind = action.get("type")
    if state["stage"] == OVER:
        raise IllegalAction("game_over")
    if seat not in SEATS:
        raise IllegalAction("players_only")
    if seat not in state["waiting"]:
        if seat in state["order"]:
            raise IllegalAction("already_chose")
        raise IllegalAction("opponent_choosing")
    checker = _CHECKERS[state["stage"]].get(kind) if isinstance(kind, str) else None
    if checker is None:
        expected = ", ".join(_CHECKERS[state["stage"]])
        raise IllegalAction("not_a_choice_now", type=repr(kind), expected=expected)
    return checker(state, seat, action)


def _cards(action: Action, key: str, count: int) -> list[str]:
    cards = action.get(key)
    if not isinstance(cards, list) or len(cards) != count:
        raise IllegalAction("card_list", key=key, count=count)
    for card in cards:
        if card not in VALUE:
            raise IllegalAction("not_a_trios_card", card=repr(card))
    return sorted(cards)


def _check_draft(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action, "pick", "discard")
    pile = state["piles"][seat]
    pick, discard = action.get("pick"), action.get("discard")
    if len(pile) == 1:
        if pick != pile[0] or discard is not None:
            raise IllegalAction("single_card_pile")
    elif without(pile, [pick, discard]) is None:
        raise IllegalAction("pick_and_discard")
    return {"type": "draft", "pick": pick, "discard": discard}


def _check_mulligan(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action)
    if state["mulligans"][seat] == 0:
        raise IllegalAction("no_mulligan_charge")
    if not may_mulligan(state, seat):
        raise IllegalAction("mulligan_not_now")
    return {"type": "mulligan"}


def _check_name(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action, "card")
    if action.get("card") not in VALUE:
        raise IllegalAction("name_a_card")
    return {"type": "name", "card": action["card"]}


def _check_quake(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action, "category")
    if action.get("category") not in open_for_both(state):
        raise IllegalAction("quake_category")
    return {"type": "earthquake", "category": action["category"]}


def _short_handed(state: State, seat: int) -> bool:
    return len(state["hands"][seat]) < TRIO_SIZE


def _check_pass(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action)
    if not _short_handed(state, seat):
        raise IllegalAction("must_play_three")
    return {"type": "pass"}


def _check_hand(state: State, seat: int) -> None:
    if _short_handed(state, seat):
        raise IllegalAction("pass_only")


def _check_trio(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action, "category", "cards")
    _check_hand(state, seat)
    category = action.get("category")
    if category not in CATEGORIES:
        raise IllegalAction("unknown_category", category=repr(category))
    if state["categories"][seat][category]["state"] != OPEN:
        raise IllegalAction("category_not_open", category=category)
    cards = _cards(action, "cards", TRIO_SIZE)
    if not state["config"]["power_cards_in_trios"] and not POWER_SET.isdisjoint(cards):
        raise IllegalAction("trio_no_power")
    if without(state["hands"][seat], cards) is None:
        raise IllegalAction("cards_not_held")
    return {"type": "trio", "category": category, "cards": cards}


def _check_power(state: State, seat: int, action: Action) -> Action:
    power = action.get("card")
    if power not in POWER_SET:
        raise IllegalAction("not_a_power", card=repr(power))
    refuse_unknown_fields(action, "card", "cost", *TARGET_KEYS.get(power, ()))
    _check_hand(state, seat)
    if not may_activate(state, seat, power):
        raise IllegalAction("power_used", power=power)
    cost = _cards(action, "cost", 2)
    if without(state["hands"][seat], [power, *cost]) is None:
        raise IllegalAction("power_cost_not_held")
    paid = VALUE[cost[0]] + VALUE[cost[1]]
    if paid not in COST[power]:
        allowed = ", ".join(str(value) for value in sorted(COST[power]))
        raise IllegalAction("power_cost_sum", paid=paid, power=power, allowed=allowed)
    chosen = {key: action.get(key) for key in TARGET_KEYS.get(power, ())}
    if chosen not in targets(state, seat, power):
        raise IllegalAction(_TARGET_REFUSALS[power])
    return {"type": "power", "card": power, "cost": cost, **chosen}


_TARGET_REFUSALS = {
    "earthquake": "earthquake_target",
    "bonus": "bonus_target",
    "conversion": "conversion_target",
}


def _check_discard(state: State, seat: int, action: Action) -> Action:
    refuse_unknown_fields(action, "cards")
    _check_hand(state, seat)
    cards = _cards(action, "cards", TRIO_SIZE)
    if without(state["hands"][seat], cards) is None:
        raise IllegalAction("cards_not_held")
    return {"type": "discard", "cards": cards}


_CHECKERS: dict[str, dict[str, Any]] = {
    DRAFT: {"draft": _check_draft, "mulligan": _check_mulligan},
    NAME: {"name": _check_name},
    PLAY: {
        "trio": _check_trio,
        "power": _check_power,
        "discard": _check_discard,
        "pass": _check_pass,
    },
    QUAKE: {"earthquake": _check_quake},
}
