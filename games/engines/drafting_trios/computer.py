"""The Drafting Trios computer player: what a practice or room "Computer" seat plays.

It reads only what its seat may see (its hand, its pile, both score sheets), never the
opponent's hand or the decks' order.

- **Drafting**: it takes the card that most improves what its hand can still score in its own
  open categories (the best trio it could lay, plus a share of the second best, so it keeps
  building towards more than one category), counting a power card for what playing it would
  be worth with the cards it holds. It discards the strongest of the cards it leaves, so the
  pile it passes on helps the opponent least.
- **Playing**: it lays the trio worth most, unless a power card is worth more now:
  VisibleZero (+30), a Bonus on the open category it can fill best, Get Even once several
  categories would otherwise stay open, a Burn when the opponent leads, an Earthquake on the
  category both could still fill. It pays for a power with the cards its trios need least,
  and it fills a category with nothing (a 0) only when no other action scores.
"""

from __future__ import annotations

from itertools import combinations

from games.engines.base import Action, Rng, State
from games.engines.drafting_trios.actions import legal_actions
from games.engines.drafting_trios.cards import (
    BONUS,
    BURN,
    CONVERSION,
    EARTHQUAKE,
    GET_EVEN,
    HEART_OF_THE_CARDS,
    MULLIGAN,
    PLUS_ONE,
    POWER_SET,
    VALUE,
    VISIBLE_ZERO,
)
from games.engines.drafting_trios.ending import BONUS_FACTOR, GET_EVEN_POINTS, total
from games.engines.drafting_trios.powers import COST, VISIBLE_ZERO_POINTS, may_activate
from games.engines.drafting_trios.rounds import DISCARD_POINTS, POWER_DISCARD_POINTS
from games.engines.drafting_trios.scoring import score
from games.engines.drafting_trios.table import DRAFT, NAME, PLAY, QUAKE, open_categories

SECOND_TRIO_SHARE = 0.5  # a second trio in the hand is worth this much of its points now
EMPTY_TRIO_PENALTY = 12  # what filling a category with 0 costs (its future points)
TYPICAL_TRIO = 18  # roughly what a category scores when it is filled with care
# Small fixed worths of the powers whose gain comes later.
PLUS_ONE_WORTH = 8
MULLIGAN_WORTH = 3
HEART_WORTH = 4
CONVERSION_WORTH = 6


def computer(state: State, seat: int, rng: Rng) -> Action:
    actions = legal_actions(state, seat)
    stage = state["stage"]
    if stage == DRAFT:
        drafts = [a for a in actions if a["type"] == "draft"]
        return _draft(state, seat, drafts) if drafts else actions[0]
    if stage == PLAY:
        return max(actions, key=lambda action: _worth_now(state, seat, action))
    if stage == QUAKE:
        return max(actions, key=lambda action: _quake_worth(state, seat, action["category"]))
    if stage == NAME:
        return _name(state, seat, actions)
    return rng.choice(actions)


# -- drafting ----------------------------------------------------------------------------------


def trio_points(state: State, seat: int, trio: tuple[str, ...], category: str) -> float:
    entry = state["categories"][seat][category]
    points = score(entry["rule"], list(trio), state["config"]["colour_bonus_on_failed_trio"])
    return points * BONUS_FACTOR if entry["bonus"] else points


def _trio_options(state: State, seat: int, hand: list[str]) -> list[tuple[float, tuple, str]]:
    """Every (points, trio, category) the hand could lay now, best first."""
    allow_power = state["config"]["power_cards_in_trios"]
    found = []
    for trio in set(combinations(sorted(hand), 3)):
        if not allow_power and not POWER_SET.isdisjoint(trio):
            continue
        for category in open_categories(state, seat):
            found.append((trio_points(state, seat, trio, category), trio, category))
    found.sort(key=lambda option: option[0], reverse=True)
    return found


def hand_worth(state: State, seat: int, hand: list[str]) -> float:
    """What a hand promises: its best trio, half its best other trio in another category
    with other cards, and what its power cards would be worth played with its cards."""
    options = _trio_options(state, seat, hand)
    worth = 0.0
    if options:
        best, trio, category = options[0]
        worth = best
        rest = list(hand)
        for card in trio:
            rest.remove(card)
        second = [o for o in _trio_options(state, seat, rest) if o[2] != category]
        if second:
            worth += SECOND_TRIO_SHARE * second[0][0]
    for power in POWER_SET.intersection(hand):
        others = list(hand)
        others.remove(power)
        if may_activate(state, seat, power) and _can_pay(power, others):
            worth = max(worth, _power_worth(state, seat, power, {}))
    return worth


def _can_pay(power: str, cards: list[str]) -> bool:
    return any(VALUE[a] + VALUE[b] in COST[power] for a, b in combinations(cards, 2))


def _draft(state: State, seat: int, drafts: list[Action]) -> Action:
    hand = state["hands"][seat]
    pile = state["piles"][seat]
    worth = {card: hand_worth(state, seat, [*hand, card]) for card in set(pile)}
    return max(drafts, key=lambda a: (worth[a["pick"]], worth.get(a["discard"] or "", 0.0)))


# -- playing -----------------------------------------------------------------------------------


def _worth_now(state: State, seat: int, action: Action) -> float:
    kind = action["type"]
    hand = state["hands"][seat]
    if kind == "trio":
        points = trio_points(state, seat, tuple(action["cards"]), action["category"])
        return points if points > 0 else -EMPTY_TRIO_PENALTY
    if kind == "discard":
        spent = _cost_of_spending(state, seat, hand, action["cards"])
        all_power = POWER_SET.issuperset(action["cards"])
        return (POWER_DISCARD_POINTS if all_power else DISCARD_POINTS) - spent
    if kind == "power":
        paid = [action["card"], *action["cost"]]
        return _power_worth(state, seat, action["card"], action) - _cost_of_spending(
            state, seat, hand, paid
        )
    return -EMPTY_TRIO_PENALTY  # a pass: only when nothing else is legal


def _cost_of_spending(state: State, seat: int, hand: list[str], spent: list[str]) -> float:
    """How much of the hand's promise (beyond this round's best trio) the spent cards take."""
    rest = list(hand)
    for card in spent:
        rest.remove(card)
    before = hand_worth(state, seat, hand)
    after = hand_worth(state, seat, rest)
    return max(0.0, before - after) * SECOND_TRIO_SHARE


def _power_worth(state: State, seat: int, power: str, action: Action) -> float:
    opponent = 1 - seat
    opened = open_categories(state, seat)
    if power == VISIBLE_ZERO:
        return VISIBLE_ZERO_POINTS
    if power == BONUS:
        category = action.get("category")
        if category is None:  # drafting: a Bonus on the best category it could fill
            return TYPICAL_TRIO * (BONUS_FACTOR - 1)
        best = max(
            (o[0] for o in _trio_options(state, seat, state["hands"][seat]) if o[2] == category),
            default=0.0,
        )
        return max(best, TYPICAL_TRIO / 2) * (BONUS_FACTOR - 1)
    if power == GET_EVEN:
        # categories likely still open at the end: those beyond the rounds the game has left
        left_open = max(0, len(opened) - _rounds_left(state))
        return left_open * GET_EVEN_POINTS
    if power == BURN:
        behind = total(state, opponent, False) - total(state, seat, False)
        return 10 + max(0, behind) / 3
    if power == EARTHQUAKE:
        category = action.get("category")
        return 6 if category is None else 6 + _quake_worth(state, seat, category) / 3
    if power == PLUS_ONE:
        return PLUS_ONE_WORTH
    if power == MULLIGAN:
        return MULLIGAN_WORTH
    if power == HEART_OF_THE_CARDS:
        return HEART_WORTH
    if power == CONVERSION:
        return CONVERSION_WORTH
    return 0.0


def _rounds_left(state: State) -> int:
    """Rounds until the sooner of the two sheets is full, one category a round."""
    return min(len(open_categories(state, s)) for s in (0, 1))


def _quake_worth(state: State, seat: int, category: str) -> float:
    """Destroying a category both could fill: worth more where the opponent's rule is the
    richer one and ours the poorer (the rules are public)."""
    ours = state["categories"][seat][category]
    theirs = state["categories"][1 - seat][category]
    mine_best = max(
        (o[0] for o in _trio_options(state, seat, state["hands"][seat]) if o[2] == category),
        default=0.0,
    )
    return (
        (TYPICAL_TRIO * (BONUS_FACTOR if theirs["bonus"] else 1))
        - mine_best
        - (TYPICAL_TRIO / 2 if ours["bonus"] else 0)
    )


def _name(state: State, seat: int, actions: list[Action]) -> Action:
    """Heart of the Cards: the number card that adds most to the hand it holds."""
    hand = state["hands"][seat]
    named = [a for a in actions if a["card"] not in POWER_SET] or actions
    return max(named, key=lambda a: hand_worth(state, seat, [*hand, a["card"]]))
