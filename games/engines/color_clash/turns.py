"""A turn: play a matching card or a Wild, or draw one card (then play it or keep it), or pass
when allowed. Also the turn timer's expiry and the first player's colour for a turned Wild.

Every ``check_*`` function raises ``IllegalAction`` or returns the arguments of its effect, so
that nothing changes (and no randomness is drawn) before an action is known to be legal.
This module is the hot path of random playouts: it works on card ids and precomputed tables.
"""

from __future__ import annotations

from games.engines.base import Action, Event, IllegalAction, Rng, State
from games.engines.color_clash.cards import (
    COLOR,
    COLOR_INDEX,
    COLORS,
    DECK_SIZE,
    DRAW_TWO,
    IDS_BY_NOTATION,
    NOTATION,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from games.engines.color_clash.last_card import open_window, window_actions
from games.engines.color_clash.rounds import end_round, score_first_out, stalled
from games.engines.color_clash.table import (
    can_draw,
    draw_cards,
    holders,
    next_holder,
    start_turn,
)

CARDS_OF_COLOR = tuple(
    frozenset(card for card, color in enumerate(COLOR) if color == index) for index in range(4)
)
"""Per colour index, the card ids of that colour: a Wild Draw Four needs none in hand."""
WILD_DRAW_FOURS = frozenset(IDS_BY_NOTATION["W4"])
MATCHING = tuple(
    tuple(
        frozenset(
            card
            for card in range(DECK_SIZE)
            if RANK[card] == WILD
            or (RANK[card] != WILD_DRAW_FOUR and COLOR[card] == color)
            or (RANK[card] == top_rank and RANK[card] < WILD)
        )
        for top_rank in range(WILD_DRAW_FOUR + 1)
    )
    for color in range(len(COLORS))
)
"""``MATCHING[color][top_rank]``: the cards that match the colour in force or the top card's
rank, and the Wilds (always playable). Wild Draw Fours have their own condition."""


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action ``seat`` may take now: its turn, or a call or Catch while a window is open."""
    window = state["window"]
    if window is not None:
        return window_actions(state, seat, window)
    if seat != state["turn"]:
        return []
    if state["choosing_color"]:
        return [{"type": "choose_color", "color": name} for name in COLORS]
    hand = state["hands"][seat]
    color = state["color"]
    drawn = state["drawn"]
    candidates = hand if drawn is None else (drawn,)
    matching = MATCHING[color][RANK[state["discard_pile"][-1]]]
    # one action per notation: a hand may hold two copies of a card
    names = dict.fromkeys([NOTATION[card] for card in candidates if card in matching])
    wild = "W" in names
    if wild:
        del names["W"]
    actions: list[Action] = [{"type": "play", "card": name} for name in names]
    if wild:
        actions += [{"type": "play", "card": "W", "color": name} for name in COLORS]
    if not WILD_DRAW_FOURS.isdisjoint(candidates) and CARDS_OF_COLOR[color].isdisjoint(hand):
        actions += [{"type": "play", "card": "W4", "color": name} for name in COLORS]
    if drawn is not None:
        actions.append({"type": "pass"})
    elif state["draw_pile"] or len(state["discard_pile"]) > 1:
        actions.append({"type": "draw"})
    elif not actions:
        actions.append({"type": "pass"})
    if len(hand) == 2 and not state["called"][seat] and state["config"]["mode"] == "classic":
        actions.append({"type": "call_last_card"})
    return actions


def playable(state: State, hand: list[int], card: int) -> bool:
    """``card`` may be played now from ``hand``."""
    rank = RANK[card]
    if rank == WILD:
        return True
    color = state["color"]
    if rank == WILD_DRAW_FOUR:
        return CARDS_OF_COLOR[color].isdisjoint(hand)
    return COLOR[card] == color or rank == RANK[state["discard_pile"][-1]]


def has_play(state: State, hand: list[int]) -> bool:
    return any(playable(state, hand, card) for card in hand)


def check_turn(state: State, seat: int | None) -> None:
    if seat is None:
        raise IllegalAction("system_no_turn")
    if seat != state["turn"]:
        raise IllegalAction("not_your_turn")
    if state["window"] is not None:
        raise IllegalAction("last_card_window_open")


def check_play(state: State, seat: int | None, action: Action) -> tuple[int, int, int]:
    if seat != state["turn"] or state["window"] is not None or state["choosing_color"]:
        check_turn(state, seat)
        raise IllegalAction("choose_wild_colour_first")
    name = action.get("card")
    ids = IDS_BY_NOTATION.get(name) if isinstance(name, str) else None
    if ids is None:
        raise IllegalAction("not_a_card", card=repr(name))
    hand = state["hands"][seat]
    drawn = state["drawn"]
    if drawn is not None:
        if NOTATION[drawn] != name:
            raise IllegalAction("play_drawn_only", card=NOTATION[drawn])
        card = drawn
    else:
        for card in ids:
            if card in hand:
                break
        else:
            raise IllegalAction("not_held", card=name)
    rank = RANK[card]
    chosen = action.get("color")
    if rank >= WILD:
        color = COLOR_INDEX.get(chosen) if isinstance(chosen, str) else None
        if color is None:
            raise IllegalAction("wild_needs_colour")
        in_force = state["color"]
        if rank == WILD_DRAW_FOUR and not CARDS_OF_COLOR[in_force].isdisjoint(hand):
            raise IllegalAction("wild_draw_four_colour", colour=COLORS[in_force])
        return seat, card, color
    if chosen is not None:
        raise IllegalAction("only_wild_colour")
    if COLOR[card] != state["color"] and rank != RANK[state["discard_pile"][-1]]:
        top = NOTATION[state["discard_pile"][-1]]
        raise IllegalAction("no_match", card=name, colour=COLORS[state["color"]], top=top)
    return seat, card, COLOR[card]


def play(state: State, seat: int, card: int, color: int, rng: Rng) -> list[Event]:
    hand = state["hands"][seat]
    hand.remove(card)
    state["discard_pile"].append(card)
    state["color"] = color
    state["drawn"] = None
    state["stuck"] = 0
    rank = RANK[card]
    played: Event = {"type": "played", "seat": seat, "card": NOTATION[card]}
    if rank >= WILD:
        played["color"] = COLORS[color]
    events = [played]
    left = len(hand)
    if left == 1 and not state["called"][seat]:
        if state["config"]["mode"] == "family":
            state["called"][seat] = True
            events.append({"type": "last_card_called", "seat": seat, "automatic": True})
        else:
            events.append(open_window(state, seat))
    elif not left:
        state["places"].append(seat)
        state["called"][seat] = False
        events.append({"type": "went_out", "seat": seat, "place": len(state["places"])})
    if rank == REVERSE:
        state["direction"] = -state["direction"]
    following = next_holder(state, seat)
    if rank < SKIP or rank == WILD:
        to_play = following
    elif rank == SKIP:
        events.append({"type": "skipped", "seat": following})
        to_play = next_holder(state, following)
    elif rank == REVERSE:
        # with two seats left in the round a Reverse acts as a Skip: the same seat plays again
        to_play = seat if left and holders(state) == 2 else following
    else:
        count = draw_cards(state, following, 2 if rank == DRAW_TWO else 4, rng)
        events.append({"type": "drew", "seat": following, "count": count, "penalty": True})
        to_play = next_holder(state, following)
    if not left:
        if len(state["places"]) == 1:
            score_first_out(state, seat)
        if holders(state) <= 1:
            events.extend(end_round(state, rng))
            return events
    start_turn(state, to_play)
    return events


def check_draw(state: State, seat: int | None, action: Action) -> tuple[int]:
    if seat != state["turn"] or state["window"] is not None or state["choosing_color"]:
        check_turn(state, seat)
        raise IllegalAction("choose_wild_colour_first")
    if state["drawn"] is not None:
        raise IllegalAction("already_drawn")
    if not state["draw_pile"] and len(state["discard_pile"]) < 2:
        raise IllegalAction("nothing_to_draw")
    return (seat,)


def draw(state: State, seat: int, rng: Rng) -> list[Event]:
    """Draw one card: keep the turn if it can be played, otherwise keep the card and the turn
    ends."""
    draw_cards(state, seat, 1, rng)
    state["stuck"] = 0
    hand = state["hands"][seat]
    card = hand[-1]
    if playable(state, hand, card):
        state["drawn"] = card
    else:
        start_turn(state, next_holder(state, seat))
    return [{"type": "drew", "seat": seat, "count": 1}]


def check_pass(state: State, seat: int | None, action: Action) -> tuple[int]:
    check_turn(state, seat)
    if state["choosing_color"]:
        raise IllegalAction("choose_wild_colour_first")
    if state["drawn"] is None:
        if can_draw(state):
            raise IllegalAction("pass_after_draw")
        if has_play(state, state["hands"][seat]):
            raise IllegalAction("must_play")
    return (seat,)


def pass_turn(state: State, seat: int, rng: Rng) -> list[Event]:
    events: list[Event] = [{"type": "passed", "seat": seat}]
    if state["drawn"] is None:
        return events + _stuck_pass(state, seat, rng)
    start_turn(state, next_holder(state, seat))
    return events


def check_choose_color(state: State, seat: int | None, action: Action) -> tuple[int, int]:
    check_turn(state, seat)
    if not state["choosing_color"]:
        raise IllegalAction("no_wild_to_colour")
    color = action.get("color")
    if not isinstance(color, str) or color not in COLOR_INDEX:
        raise IllegalAction("choose_a_colour")
    return seat, COLOR_INDEX[color]


def choose_color(state: State, seat: int, color: int, rng: Rng) -> list[Event]:
    state["color"] = color
    state["choosing_color"] = False
    return [{"type": "color_chosen", "seat": seat, "color": COLORS[color]}]


def check_timeout(state: State, seat: int | None, action: Action) -> tuple[int]:
    if seat is not None:
        raise IllegalAction("timeouts_host_only")
    turn = state["turn"]
    if turn is None or state["window"] is not None or action.get("seats") != [turn]:
        raise IllegalAction("timeout_turn_only")
    return (turn,)


def timeout(state: State, seat: int, rng: Rng) -> list[Event]:
    """The turn timer ran out: draw one card (unless this turn already drew) and the turn ends.
    Never plays a card. A colour still owed for a turned Wild is picked at random."""
    events: list[Event] = [{"type": "timed_out", "seat": seat}]
    if state["choosing_color"]:
        events.extend(choose_color(state, seat, rng.randrange(len(COLORS)), rng))
    if state["drawn"] is None:
        if can_draw(state):
            draw_cards(state, seat, 1, rng)
            state["stuck"] = 0
            events.append({"type": "drew", "seat": seat, "count": 1})
        elif has_play(state, state["hands"][seat]):
            state["stuck"] = 0
        else:
            return events + _stuck_pass(state, seat, rng)
    start_turn(state, next_holder(state, seat))
    return events


def _stuck_pass(state: State, seat: int, rng: Rng) -> list[Event]:
    """A pass by a seat that could neither play nor draw: two laps of these end the round."""
    state["stuck"] += 1
    if stalled(state):
        return end_round(state, rng, stalled=True)
    start_turn(state, next_holder(state, seat))
    return []
