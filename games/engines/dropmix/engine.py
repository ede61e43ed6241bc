"""The DropMix Clash engine: configuration, set-up, and the protocol calls of ``base.Engine``.

The rules live in the modules this one calls: ``board`` (slots and legality), ``turns``
(moves, pending moves, end of turn), ``effects`` (FX cards), ``scoring``, ``cards``, ``decks``.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from games.engines.base import (
    TIMEOUT,
    WINDOW_CLOSED,
    Action,
    Bot,
    ConfigError,
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Rng,
    State,
    Window,
    public_events,
    refuse_unknown_fields,
)
from games.engines.dropmix import board, bots, cards, computer, turns, views
from games.engines.dropmix.catalogue import (
    Catalogue,
    CatalogueError,
    catalogue_of,
    default_catalogue,
    fingerprint,
    load_catalogue,
)
from games.engines.dropmix.decks import ROLE_RULES, SINGLE, TEAM, prebuilt_decks, validate_deck
from games.engines.dropmix.grammar import COLOURS
from games.engines.messages import Message, gettext_noop

FORMATS = {
    2: ("1v1", [[0], [1]], [SINGLE, SINGLE]),
    3: ("1v2", [[0], [1, 2]], [SINGLE, TEAM, TEAM]),
    4: ("2v2", [[0, 2], [1, 3]], [TEAM, TEAM, TEAM, TEAM]),
}
DEFAULT_CONFIG: dict[str, Any] = {
    "target": 21,
    "middle_slot_colour": "yellow",
    "wheel": {"1": 4, "2": 4, "3": 3, "X": 1},
    "retract_seconds": 3,
    "spin_retract_seconds": 2,
    "decks": None,
    "catalogue": None,
    # The rules' two open rulings (rules/dropmix_clash.md, [default]): the lowest a score can
    # fall (None: no floor), and whether clearing a slot discards its whole stack or only
    # the top card, uncovering the one beneath.
    "score_floor": 0,
    "clear_mode": "stack",
}
WHEEL_LABELS = ("1", "2", "3", "X")
CLEAR_MODES = ("stack", "top")


PUBLIC_EVENTS: dict[str, tuple[str, ...]] = {
    # the board is public: drops, spins and scores; a drawn or chosen card never appears
    "turn": ("side", "turn"),
    "dropped": ("seat", "card", "slot", "colour"),
    "fx": ("card",),
    "missing_colour": ("side", "colour"),
    "spinning": ("seat",),
    "spun": ("seat", "result", "cleared"),
    "retracted": ("seat", "move"),
    "final": ("seat", "move"),
    "passed": ("seat",),
    "chose": ("seat",),
    "drew": ("seat", "count"),
    "timed_out": ("seats",),
    "scored": ("side", "points"),
    "lost": ("side", "points"),
    "won": ("side", "score"),
}


class DropMixClash:
    key = "dropmix"
    name = "DropMix Clash"
    min_seats = 2
    max_seats = 4
    # The turn timer is the host's time control (off = None, 15, 30 or 60 s), not config.
    default_time_control = {
        "allowances": {"turn": 30},
        "reserve": 0,
        "increment": 0,
        "policy": "forfeit_turn",
        "choices": {"turn": [None, 15, 30, 60]},
    }

    def __init__(self) -> None:
        # The first that is not "random" is what a computer seat plays (``default_bot``).
        self.bots: dict[str, Bot] = {
            "computer": partial(computer.computer, self),
            "greedy": partial(bots.greedy, self),
            "random": partial(bots.random_play, self),
        }

    def validate_config(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        if seats not in FORMATS:
            raise ConfigError(
                Message(
                    gettext_noop("DropMix Clash is played by 2, 3 or 4 seats, not {seats}"),
                    seats=seats,
                )
            )
        unknown = sorted(set(config) - set(DEFAULT_CONFIG))
        if unknown:
            raise ConfigError(
                Message(gettext_noop("unknown config keys: {unknown}"), unknown=", ".join(unknown))
            )
        full = {**DEFAULT_CONFIG, **config}
        problems = _config_problems(full)
        if problems:
            raise ConfigError(Message.join("; ", problems))
        catalogue = _catalogue(full["catalogue"])
        full["wheel"] = {label: full["wheel"][label] for label in WHEEL_LABELS}
        full["decks"] = _decks(catalogue, full["decks"], FORMATS[seats][2])
        return full

    def setup(self, config: dict[str, Any], seats: int, rng: Rng) -> State:
        fmt, sides, roles = FORMATS[seats]
        state: State = {
            "format": fmt,
            "sides": sides,
            "side_of": [0 if seat in sides[0] else 1 for seat in range(seats)],
            "roles": roles,
            "target": config["target"],
            "wheel": [list(WHEEL_LABELS), [config["wheel"][k] for k in WHEEL_LABELS]],
            "retract_seconds": config["retract_seconds"],
            "spin_seconds": config["spin_retract_seconds"],
            "score_floor": config["score_floor"],
            "clear_mode": config["clear_mode"],
            "accepts": board.slot_accepts(config["middle_slot_colour"]),
            "stacks": [[] for _ in range(board.SLOT_COUNT)],
            "hands": [[] for _ in range(seats)],
            "decks": [list(deck) for deck in config["decks"]],
            "discards": [[] for _ in range(seats)],
            "scores": [0, 0],
            "active": rng.randrange(2),
            "turn": 1,
            "checkin": [None] * seats,
            "full_mix": None,
            "last_spin": None,
            "winner": None,
            "choices": [],
        }
        if config["catalogue"] is not None:
            state["catalogue"] = config["catalogue"]
            state["catalogue_id"] = fingerprint(config["catalogue"])
        turns.start_turn(state)
        for seat in range(seats):
            rng.shuffle(state["decks"][seat])
            cards.draw(state, seat, ROLE_RULES[roles[seat]].opening_hand, rng)
        return state

    def to_act(self, state: State) -> list[int]:
        phase = turns.phase(state)
        if phase == turns.OVER:
            return []
        if phase == turns.CHOOSING:
            return [state["choices"][0][0]]
        pending = state["pending"]
        if phase != turns.MOVING:
            return [pending["seat"]]
        seats = turns.movers(state)
        if pending and pending["seat"] not in seats:
            seats = sorted([*seats, pending["seat"]])
        return seats

    def decision(self, state: State, seat: int) -> Decision | None:
        phase = turns.phase(state)
        if phase == turns.CHOOSING and state["choices"][0][0] == seat:
            return Decision("turn", state["turn"])
        # Every audience sees whose clock runs: only public state may decide it.
        if phase == turns.MOVING and turns.owes_move(state, seat):
            return Decision("turn", state["turn"])
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        phase = turns.phase(state)
        if phase == turns.OVER:
            return []
        pending = state["pending"]
        retract = [{"type": "retract"}] if pending and pending["seat"] == seat else []
        if phase == turns.CHOOSING:
            if state["choices"][0][0] != seat:
                return []
            return [{"type": "choose", "card": card} for card in sorted(set(state["decks"][seat]))]
        if phase != turns.MOVING or not turns.may_move(state, seat):
            return retract
        actions = _drops(catalogue_of(state), state, seat)
        if turns.may_spin(state, seat):
            actions.append({"type": "spin"})
        if turns.may_pass(state, seat):
            actions.append({"type": "pass"})
        return actions + retract

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("not_an_object")
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in FIELDS:
            raise IllegalAction("unknown_action", type=repr(kind))
        refuse_unknown_fields(action, *FIELDS[kind])
        if kind in (WINDOW_CLOSED, TIMEOUT):
            if seat is not None:
                raise IllegalAction("host_only", type=kind)
            self._validate_system(state, action)
            return
        if not isinstance(seat, int) or not 0 <= seat < len(state["hands"]):
            raise IllegalAction("player_seat_needed")
        if state["winner"] is not None:
            raise IllegalAction("game_over")
        refusal = _PLAYER_CHECKS[kind](state, seat, action)
        if refusal is not None:
            raise refusal

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        self.validate(state, seat, action)
        kind = action["type"]
        if kind == WINDOW_CLOSED:
            return turns.close_window(state, rng)
        if kind == TIMEOUT:
            return turns.time_out(state, list(action["seats"]), rng)
        if kind == "drop":
            catalogue = catalogue_of(state)
            return turns.drop(
                catalogue, state, seat, action["card"], action["slot"], action.get("colour"), rng
            )
        if kind == "spin":
            return turns.spin(state, seat, rng)
        if kind == "pass":
            return turns.pass_extras(state, seat, rng)
        if kind == "retract":
            return turns.retract(state, seat)
        return turns.choose(state, seat, action["card"], rng)

    def public_events(self, events: list[Event]) -> list[Event]:
        return public_events(events, PUBLIC_EVENTS)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def timeout_action(self, state: State, seats: list[int]) -> Action:
        return {"type": TIMEOUT, "seats": list(seats)}

    def windows(self, state: State) -> list[Window]:
        phase = turns.phase(state)
        if phase == turns.SPINNING:
            return [Window("spin", float(state["spin_seconds"]), state["pending"]["seat"])]
        if phase == turns.LAST_MOVE:
            return [Window("retract", float(state["retract_seconds"]), state["pending"]["seat"])]
        return []

    def outcome(self, state: State) -> Outcome | None:
        winner = state["winner"]
        if winner is None:
            return None
        won, lost = sorted(state["sides"][winner]), sorted(state["sides"][1 - winner])
        scores = {seat: state["scores"][side] for seat, side in enumerate(state["side_of"])}
        return Outcome(winners=won, ranking=[won, lost], scores=scores, reason="target")

    def resample_hidden(self, state: State, viewer: int | None, rng: Rng) -> State:
        # state is JSON by contract, and a JSON round trip copies it faster than deepcopy
        return views.resample_hidden(json.loads(json.dumps(state)), viewer, rng)

    def reshuffle_unseen(self, state: State, rng: Rng) -> State:
        return views.reshuffle_unseen(json.loads(json.dumps(state)), rng)

    def _validate_system(self, state: State, action: Action) -> None:
        if action["type"] == WINDOW_CLOSED:
            names = [window.name for window in self.windows(state)]
            if action.get("name") not in names:
                raise IllegalAction("no_such_window")
            return
        seats = action.get("seats")
        owing = {s for s in range(len(state["hands"])) if self.decision(state, s) is not None}
        if (
            not isinstance(seats, list)
            or not seats
            or len(set(map(str, seats))) != len(seats)
            or not all(isinstance(s, int) and s in owing for s in seats)
        ):
            raise IllegalAction("timeout_running_only")


def _drops(catalogue: Catalogue, state: State, seat: int) -> list[Action]:
    # without extras, a seat that may move at all may make a base move with any card
    fitted = bool(state["extras"])
    actions = []
    for card, slot, colour in board.placements(catalogue, state, state["hands"][seat]):
        if fitted and turns.drop_permit(catalogue, state, seat, card, colour) is None:
            continue
        action = {"type": "drop", "card": card.id, "slot": slot + 1}
        if card.kind == "wild" and len(state["accepts"][slot]) > 1:
            action["colour"] = colour
        actions.append(action)
    return actions


def _check_drop(state: State, seat: int, action: Action) -> IllegalAction | None:
    return turns.drop_refusal(
        catalogue_of(state),
        state,
        seat,
        action.get("card"),
        action.get("slot"),
        action.get("colour"),
    )


def _check_spin(state: State, seat: int, action: Action) -> IllegalAction | None:
    return None if turns.may_spin(state, seat) else IllegalAction("spin_not_now")


def _check_pass(state: State, seat: int, action: Action) -> IllegalAction | None:
    if turns.may_pass(state, seat):
        return None
    return IllegalAction("pass_extras_only")


def _check_retract(state: State, seat: int, action: Action) -> IllegalAction | None:
    pending = state["pending"]
    if not pending or pending["seat"] != seat:
        return IllegalAction("nothing_to_retract")
    return None


def _check_choose(state: State, seat: int, action: Action) -> IllegalAction | None:
    if turns.phase(state) != turns.CHOOSING or state["choices"][0][0] != seat:
        return IllegalAction("not_choosing")
    if action.get("card") not in state["decks"][seat]:
        return IllegalAction("not_in_deck")
    return None


FIELDS: dict[str, tuple[str, ...]] = {
    "drop": ("card", "slot", "colour"),
    "spin": (),
    "pass": (),
    "retract": (),
    "choose": ("card",),
    WINDOW_CLOSED: ("name",),
    TIMEOUT: ("seats",),
}
"""The fields of each action besides its ``type``; any other is refused."""

_PLAYER_CHECKS = {
    "drop": _check_drop,
    "spin": _check_spin,
    "pass": _check_pass,
    "retract": _check_retract,
    "choose": _check_choose,
}


def _config_problems(config: dict[str, Any]) -> list[str]:
    problems = []
    if config["target"] not in (15, 21) or isinstance(config["target"], bool):
        problems.append(Message(gettext_noop("target must be 15 or 21")))
    if config["middle_slot_colour"] not in COLOURS:
        problems.append(
            Message(
                gettext_noop("middle_slot_colour must be one of {colours}"),
                colours=", ".join(COLOURS),
            )
        )
    wheel = config["wheel"]
    if (
        not isinstance(wheel, dict)
        or set(wheel) != set(WHEEL_LABELS)
        or not all(
            isinstance(w, int) and not isinstance(w, bool) and w >= 0 for w in wheel.values()
        )
        or not sum(wheel.values())
    ):
        problems.append(
            Message(
                gettext_noop(
                    "wheel must give a whole-number weight to each of 1, 2, 3 and X, not all 0"
                )
            )
        )
    for key in ("retract_seconds", "spin_retract_seconds"):
        value = config[key]
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            problems.append(
                Message(gettext_noop("{key} must be a positive number of seconds"), key=key)
            )
    if config["catalogue"] is not None and not isinstance(config["catalogue"], dict):
        problems.append(Message(gettext_noop("catalogue must be a catalogue object")))
    floor = config["score_floor"]
    if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int) or floor > 0):
        problems.append(
            Message(
                gettext_noop(
                    "score_floor must be a whole number of 0 or less, or null for no floor"
                )
            )
        )
    if config["clear_mode"] not in CLEAR_MODES:
        problems.append(
            Message(
                gettext_noop("clear_mode must be one of {clear_modes}"),
                clear_modes=", ".join(CLEAR_MODES),
            )
        )
    return problems


def _catalogue(data: dict[str, Any] | None) -> Catalogue:
    if data is None:
        return default_catalogue()
    try:
        return load_catalogue(data)
    except CatalogueError as error:
        raise ConfigError(str(error)) from None


def _decks(catalogue: Catalogue, decks: Any, roles: list[str]) -> list[list[str]]:
    """Every seat's deck: given (and checked) or the seat's pre-built playlists."""
    if decks is None:
        decks = [None] * len(roles)
    if not isinstance(decks, list) or len(decks) != len(roles):
        raise ConfigError(
            Message(
                gettext_noop("decks must list one deck (or null) per seat, {seats} in all"),
                seats=len(roles),
            )
        )
    missing = [seat for seat, deck in enumerate(decks) if deck is None]
    try:
        prebuilt = prebuilt_decks(catalogue, [roles[seat] for seat in missing])
    except ValueError as error:
        raise ConfigError(str(error)) from None
    chosen = list(decks)
    for seat, deck in zip(missing, prebuilt, strict=True):
        chosen[seat] = deck
    problems = [
        Message(gettext_noop("seat {seat}: {problem}"), seat=seat, problem=problem)
        for seat, deck in enumerate(decks)
        if deck is not None
        for problem in validate_deck(catalogue, deck, roles[seat])
    ]
    if problems:
        raise ConfigError(
            Message(gettext_noop("illegal deck: {problems}"), problems=Message.join("; ", problems))
        )
    return [list(deck) for deck in chosen]
