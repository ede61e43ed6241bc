"""A turn: two moves (plus FX extras), pending moves that can be retracted, and its end.

Who may move: a single player makes both base moves; in a team each member makes one, unless
the team's first move was a spin, after which either member makes the second. Extra moves
granted by FX may be made by either member and are used before the base moves when the move
fits them. Once the base moves are made, the side may ``pass`` on the extras left.

Pending moves: the last move made is pending, and may be retracted, until the next move is
made; a last move of the turn stays pending for the "retract" window, a spin for the "spin"
window whose closing draws its result. A move that drew cards or picked at random is final
at once. A move made in place of a retracted one is final at once, which keeps a turn from
cycling through drops and retracts forever.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction, Rng
from games.engines.dropmix import board, cards, effects
from games.engines.dropmix.catalogue import Card, Catalogue, catalogue_of
from games.engines.dropmix.decks import ROLE_RULES
from games.engines.dropmix.scoring import Tally, settle

State = dict[str, Any]
Events = list[dict[str, Any]]
EMPTY_BOARD_BONUS_ODDS = 12  # an Equalizer against an empty board scores 1 time in 12

OVER, CHOOSING, SPINNING, LAST_MOVE, MOVING = "over", "choosing", "spin", "retract", "moving"


def phase(state: State) -> str:
    if state["winner"] is not None:
        return OVER
    if state["choices"]:
        return CHOOSING
    pending = state["pending"]
    if pending and pending["kind"] == "spin":
        return SPINNING
    if pending and not state["base_left"] and not state["extras"]:
        return LAST_MOVE
    return MOVING


def start_turn(state: State) -> None:
    state["base_left"] = 2
    state["base_by"] = []
    state["first_spin"] = False
    state["extras"] = []
    state["pending"] = None
    state["no_retract"] = False


def base_move_allowed(state: State, seat: int) -> bool:
    if not state["base_left"] or state["side_of"][seat] != state["active"]:
        return False
    if state["roles"][seat] == "single" or state["first_spin"]:
        return True
    return seat not in state["base_by"]


def may_move(state: State, seat: int) -> bool:
    """Whether ``seat`` has a move now (drop, spin or pass), retracts aside."""
    if phase(state) != MOVING or state["side_of"][seat] != state["active"]:
        return False
    if base_move_allowed(state, seat):
        return True
    extras = state["extras"]
    if not extras:
        return False
    if not state["base_left"] or any(kind == "spin" for kind, _ in extras):
        return True  # a pass, or an extra spin
    return _has_extra_drop(state, seat)


def owes_move(state: State, seat: int) -> bool:
    """Whether ``seat``'s turn clock runs: from public state alone, unlike ``may_move``. A
    team member whose base move is made still owes the side's extra moves (one of them may
    hold a card that fits, which only their hands say); the turn is the side's, and its
    timer with it."""
    if phase(state) != MOVING or state["side_of"][seat] != state["active"]:
        return False
    return base_move_allowed(state, seat) or bool(state["extras"])


def movers(state: State) -> list[int]:
    return [seat for seat in state["sides"][state["active"]] if may_move(state, seat)]


def may_pass(state: State, seat: int) -> bool:
    return may_move(state, seat) and not state["base_left"]


def may_spin(state: State, seat: int) -> bool:
    if not may_move(state, seat):
        return False
    return base_move_allowed(state, seat) or any(kind == "spin" for kind, _ in state["extras"])


def drop_permit(
    catalogue: Catalogue, state: State, seat: int, card: Card, colour: str | None
) -> int | None:
    """Index of the extra permit this drop would use, -1 for a base move, ``None`` if none."""
    songs = None
    for index, (kind, rule) in enumerate(state["extras"]):
        if kind != "drop":
            continue
        if rule is None:
            return index
        if songs is None:
            songs = board.in_play_songs(catalogue, state)
        if board.matches(catalogue, rule, card, colour, songs):
            return index
    return -1 if base_move_allowed(state, seat) else None


def effective_colour(card: Card, accepts: list[str], given: Any) -> Any:
    """The colour a drop plays: named for a Wild on a two-colour slot, implied otherwise."""
    if given is not None:
        return given
    if card.kind == "part":
        return card.colour
    if card.kind == "wild" and len(accepts) == 1:
        return accepts[0]
    return None


def drop_refusal(
    catalogue: Catalogue, state: State, seat: int, card_id: Any, slot: Any, colour: Any
) -> IllegalAction | None:
    """Why ``seat`` may not drop ``card_id`` on ``slot`` (1..5) as ``colour``, or ``None``."""
    if phase(state) != MOVING or state["side_of"][seat] != state["active"]:
        return IllegalAction("not_your_move")
    if card_id not in state["hands"][seat]:
        return IllegalAction("card_not_held")
    if not isinstance(slot, int) or isinstance(slot, bool) or not 1 <= slot <= board.SLOT_COUNT:
        return IllegalAction("slot_range")
    card = catalogue.cards[card_id]
    colour = effective_colour(card, state["accepts"][slot - 1], colour)
    refusal = board.placement_refusal(catalogue, state, card, slot - 1, colour)
    if refusal is not None:
        return refusal
    if drop_permit(catalogue, state, seat, card, colour) is None:
        if not state["extras"]:
            return IllegalAction("partner_moves")
        return IllegalAction("extras_do_not_fit")
    return None


def drop(
    catalogue: Catalogue, state: State, seat: int, card_id: str, slot: int, colour: Any, rng: Rng
) -> Events:
    """Drop a card (already validated) on ``slot`` (1..5)."""
    card = catalogue.cards[card_id]
    side = state["side_of"][seat]
    index = slot - 1
    colour = effective_colour(card, state["accepts"][index], colour)
    permit = drop_permit(catalogue, state, seat, card, colour)
    state["pending"] = None  # making a move makes the previous one final
    hand = state["hands"][seat]
    undo = _snapshot(state, hand.index(card_id))
    _use_permit(state, seat, permit, spin=False)
    hand.remove(card_id)
    stack = state["stacks"][index]
    covered = stack[-1] if stack else None
    missing = colour in board.missing_colours(state)
    stack.append([card_id, seat, colour])
    if state["checkin"][seat] is None:
        state["checkin"][seat] = board.CHECK_IN[index]
    tally = Tally()
    tally.gain(side, 2 if missing else 1)
    move = effects.Drop(seat, side, index, covered, tally)
    fx_fired = card.kind == "fx" and effects.conditions_hold(catalogue, state, card, side)
    if fx_fired:
        effects.resolve(catalogue, state, card.effects, move, rng)
    tally.gain(side, _full_mix_bonus(state, side))
    events: Events = [
        {"type": "dropped", "seat": seat, "card": card_id, "slot": slot, "colour": colour},
    ]
    if missing:
        events.append({"type": "missing_colour", "side": side, "colour": colour})
    if fx_fired:
        events.append({"type": "fx", "card": card_id})
    events += settle(state, tally, side)
    if not (move.final or state["no_retract"] or state["winner"] is not None):
        state["pending"] = {
            "kind": "drop",
            "seat": seat,
            "card": card_id,
            "slot": slot,
            "undo": undo,
        }
    state["no_retract"] = False
    return events + advance(state, rng)


def spin(state: State, seat: int, rng: Rng) -> Events:
    """Spin the Equalizer: pending until the spin window closes, unless it may not be retracted."""
    state["pending"] = None
    undo = _snapshot(state, None)
    _use_permit(state, seat, _spin_permit(state, seat), spin=True)
    if state["no_retract"]:
        state["no_retract"] = False
        return resolve_spin(state, seat, rng) + advance(state, rng)
    state["pending"] = {"kind": "spin", "seat": seat, "undo": undo}
    return [{"type": "spinning", "seat": seat}]


def resolve_spin(state: State, seat: int, rng: Rng) -> Events:
    """Draw the wheel and clear the opponent's cards in play at that level (X: all of them)."""
    side = state["side_of"][seat]
    result = _wheel(state, rng)
    opponents = [s for s in range(board.SLOT_COUNT) if board.controller(state, s) == 1 - side]
    tally = Tally()
    cleared = []
    if not opponents:
        bonus = rng.randrange(EMPTY_BOARD_BONUS_ODDS) == 0
        tally.gain(side, int(bonus))
    else:
        catalogue = catalogue_of(state)
        cleared = [
            slot + 1
            for slot in opponents
            if result == "X" or catalogue.cards[state["stacks"][slot][-1][0]].level == int(result)
        ]
        for slot in cleared:
            board.clear_slot(state, slot - 1)
        tally.lose(1 - side, len(cleared))
    state["full_mix"] = board.full_mix_side(state)
    # numbered, so that a page tells a new spin from the same one seen again
    number = (state["last_spin"] or {}).get("number", 0) + 1
    state["last_spin"] = {"seat": seat, "result": result, "cleared": cleared, "number": number}
    events: Events = [{"type": "spun", "seat": seat, "result": result, "cleared": cleared}]
    return events + settle(state, tally, side)


def _wheel(state: State, rng: Rng) -> str:
    """A label of the Equalizer wheel, drawn by its weights."""
    labels, weights = state["wheel"]
    pick = rng.randrange(sum(weights))
    for label, weight in zip(labels, weights, strict=True):
        if pick < weight:
            return label
        pick -= weight
    raise AssertionError("the wheel weights sum to more than any pick")


def retract(state: State, seat: int) -> Events:
    pending = state["pending"]
    undo = pending["undo"]
    for key in _UNDONE:
        state[key] = undo[key]
    if pending["kind"] == "drop":
        state["hands"][seat].insert(undo["hand_index"], pending["card"])
    state["pending"] = None
    state["no_retract"] = True
    return [{"type": "retracted", "seat": seat, "move": pending["kind"]}]


def close_window(state: State, rng: Rng) -> Events:
    """The pending move's window passed: it is final (a spin's result is drawn now)."""
    pending = state["pending"]
    state["pending"] = None
    events: Events = [{"type": "final", "seat": pending["seat"], "move": pending["kind"]}]
    if pending["kind"] == "spin":
        events += resolve_spin(state, pending["seat"], rng)
    return events + advance(state, rng)


def pass_extras(state: State, seat: int, rng: Rng) -> Events:
    state["pending"] = None
    state["extras"] = []
    return [{"type": "passed", "seat": seat}, *advance(state, rng)]


def choose(state: State, seat: int, card: str, rng: Rng) -> Events:
    cards.take_chosen(state, seat, card, rng)
    head = state["choices"][0]
    head[1] -= 1
    if not head[1] or not state["decks"][seat]:
        state["choices"].pop(0)
    return [{"type": "chose", "seat": seat}, *advance(state, rng)]


def time_out(state: State, seats: list[int], rng: Rng) -> Events:
    """Out of time: a chooser takes cards from the top; the acting side forfeits its turn."""
    events: Events = [{"type": "timed_out", "seats": seats}]
    forfeits = any(state["side_of"][seat] == state["active"] for seat in seats)
    while state["choices"] and (forfeits or state["choices"][0][0] in seats):
        chooser, count = state["choices"].pop(0)
        cards.draw(state, chooser, count, rng)
    if forfeits:
        return events + end_turn(state, rng)
    return events + advance(state, rng)


def advance(state: State, rng: Rng) -> Events:
    """End the turn once nothing is left to do in it."""
    if phase(state) == MOVING and not state["pending"] and not movers(state):
        return end_turn(state, rng)
    return []


def end_turn(state: State, rng: Rng) -> Events:
    """Pending moves become final, the side draws up to its hand limits, the turn passes."""
    events: Events = []
    pending = state["pending"]
    state["pending"] = None
    if pending and pending["kind"] == "spin":
        events += resolve_spin(state, pending["seat"], rng)
        if state["winner"] is not None:
            return events
    for seat in state["sides"][state["active"]]:
        rules = ROLE_RULES[state["roles"][seat]]
        owed = max(0, min(rules.draw_per_turn, rules.hand_limit - len(state["hands"][seat])))
        if owed:
            drawn = cards.draw(state, seat, owed, rng)
            events.append({"type": "drew", "seat": seat, "count": drawn})
    state["active"] = 1 - state["active"]
    state["turn"] += 1
    start_turn(state)
    events.append({"type": "turn", "side": state["active"], "turn": state["turn"]})
    return events


def cards_owed(state: State, seat: int) -> int:
    """Cards ``seat`` draws at the end of this turn if its hand stays as it is."""
    if state["side_of"][seat] != state["active"]:
        return 0
    rules = ROLE_RULES[state["roles"][seat]]
    return max(0, min(rules.draw_per_turn, rules.hand_limit - len(state["hands"][seat])))


_UNDONE = (
    "stacks",
    "scores",
    "discards",
    "base_left",
    "base_by",
    "first_spin",
    "extras",
    "full_mix",
    "checkin",
)


def _has_extra_drop(state: State, seat: int) -> bool:
    catalogue = catalogue_of(state)
    return any(
        drop_permit(catalogue, state, seat, card, colour) is not None
        for card, _slot, colour in board.placements(catalogue, state, state["hands"][seat])
    )


def _snapshot(state: State, hand_index: int | None) -> dict[str, Any]:
    return {
        "stacks": [list(stack) for stack in state["stacks"]],
        "scores": list(state["scores"]),
        "discards": [list(pile) for pile in state["discards"]],
        "base_left": state["base_left"],
        "base_by": list(state["base_by"]),
        "first_spin": state["first_spin"],
        "extras": [list(extra) for extra in state["extras"]],
        "full_mix": state["full_mix"],
        "checkin": list(state["checkin"]),
        "hand_index": hand_index,
    }


def _spin_permit(state: State, seat: int) -> int:
    for index, (kind, _rule) in enumerate(state["extras"]):
        if kind == "spin":
            return index
    return -1


def _use_permit(state: State, seat: int, permit: int | None, *, spin: bool) -> None:
    if permit is not None and permit >= 0:
        state["extras"].pop(permit)
        return
    if spin and state["base_left"] == 2:
        state["first_spin"] = True
    state["base_left"] -= 1
    state["base_by"].append(seat)


def _full_mix_bonus(state: State, side: int) -> int:
    """+1 when the side newly controls all five slots."""
    holder = board.full_mix_side(state)
    newly = holder is not None and holder != state["full_mix"]
    state["full_mix"] = holder
    return 1 if newly and holder == side else 0
