"""The Color Clash engine: the protocol of ``games.engines.base`` over the rule modules.

Actions (``type``): ``play`` (``card`` notation, ``color`` for a Wild), ``draw``, ``pass``,
``choose_color`` (the first player, when the first card turned is a Wild), ``call_last_card``,
``catch`` (``target`` seat); and from the host, applied as seat ``None``: ``window_closed``,
``timeout`` and ``substitute`` (``seat``, ``on``) when a computer takes over a seat or hands it
back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.base import (
    TIMEOUT,
    WINDOW_CLOSED,
    Action,
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Rng,
    State,
    View,
    Window,
    public_events,
    refuse_unknown_fields,
)
from games.engines.color_clash import config as match_config
from games.engines.color_clash import last_card, turns, views
from games.engines.color_clash.bots import BOTS
from games.engines.color_clash.outcome import outcome
from games.engines.color_clash.rounds import new_match

SUBSTITUTE = "substitute"

Check = Callable[[State, "int | None", Action], tuple[Any, ...]]
Effect = Callable[..., list[Event]]


def check_substitute(state: State, seat: int | None, action: Action) -> tuple[int, bool]:
    if seat is not None:
        raise IllegalAction("substitute_host_only")
    target, on = action.get("seat"), action.get("on")
    if not isinstance(target, int) or isinstance(target, bool):
        raise IllegalAction("substitute_needs_seat")
    if not 0 <= target < len(state["hands"]):
        raise IllegalAction("no_such_seat", seat=target)
    if not isinstance(on, bool):
        raise IllegalAction("substitute_needs_on")
    if (target in state["substitutes"]) == on:
        raise IllegalAction("already_substitute" if on else "already_player", seat=target)
    return target, on


def substitute(state: State, target: int, on: bool, rng: Rng) -> list[Event]:
    """A computer substitute takes the seat over (or hands it back); it cannot score."""
    if on:
        state["substitutes"] = sorted([*state["substitutes"], target])
    else:
        state["substitutes"].remove(target)
    return [{"type": "substitute", "seat": target, "on": on}]


RULES: dict[str, tuple[Check, Effect]] = {
    "play": (turns.check_play, turns.play),
    "draw": (turns.check_draw, turns.draw),
    "pass": (turns.check_pass, turns.pass_turn),
    "choose_color": (turns.check_choose_color, turns.choose_color),
    "call_last_card": (last_card.check_call, last_card.call),
    "catch": (last_card.check_catch, last_card.catch),
    WINDOW_CLOSED: (last_card.check_window_closed, last_card.close_window),
    TIMEOUT: (turns.check_timeout, turns.timeout),
    SUBSTITUTE: (check_substitute, substitute),
}


FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("card", "color"),
    "draw": (),
    "pass": (),
    "choose_color": ("color",),
    "call_last_card": (),
    "catch": ("target",),
    WINDOW_CLOSED: ("name",),
    TIMEOUT: ("seats",),
    SUBSTITUTE: ("seat", "on"),
}
"""The fields of each action besides its ``type``; any other is refused."""


def rule_for(state: State, action: Action) -> tuple[Check, Effect]:
    try:
        rule = RULES[action["type"]]
    except (KeyError, TypeError):
        kind = action.get("type") if isinstance(action, dict) else action
        raise IllegalAction("unknown_action", type=repr(kind)) from None
    refuse_unknown_fields(action, *FIELDS[action["type"]])
    if state["over"]:
        raise IllegalAction("match_over")
    return rule


PUBLIC_EVENTS: dict[str, tuple[str, ...]] = {
    # every seat sees plays, counts and colours; a drawn card itself never appears
    "round_started": ("round", "dealer", "top"),
    "played": ("seat", "card", "color"),
    "color_chosen": ("seat", "color"),
    "drew": ("seat", "count", "penalty"),
    "skipped": ("seat",),
    "passed": ("seat",),
    "last_card_called": ("seat", "automatic"),
    "catch_held": ("seat", "target"),
    "catch_dropped": ("seats", "target"),
    "caught": ("seat", "target"),
    "went_out": ("seat", "place"),
    "timed_out": ("seat",),
    "substitute": ("seat", "on"),
    "round_ended": ("round", "winner", "points"),
    "match_ended": (),
}


class ColorClash:
    key = "color_clash"
    name = "Color Clash"
    min_seats = 2
    max_seats = 6
    default_time_control = match_config.DEFAULT_TIME_CONTROL
    bots = BOTS

    def validate_config(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        return match_config.validate_config(config, seats)

    def time_control(self, config: dict[str, Any]) -> dict[str, Any]:
        """The time control for a validated config (Family night's turns default to 90 s)."""
        return match_config.time_control(config)

    def setup(self, config: dict[str, Any], seats: int, rng: Rng) -> State:
        return new_match(config, seats, rng)

    def to_act(self, state: State) -> list[int]:
        if state["window"] is None:
            turn = state["turn"]
            return [] if turn is None else [turn]
        held = last_card.held_catchers(state)
        return [seat for seat, hand in enumerate(state["hands"]) if hand and seat not in held]

    def decision(self, state: State, seat: int) -> Decision | None:
        # drawing keeps the serial: the same turn's allowance continues
        if seat == state["turn"] and state["window"] is None:
            return Decision("turn", state["serial"])
        return None

    legal_actions = staticmethod(turns.legal_actions)

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        check, _ = rule_for(state, action)
        check(state, seat, action)

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        check, effect = rule_for(state, action)
        return effect(state, *check(state, seat, action), rng)

    def public_events(self, events: list[Event]) -> list[Event]:
        return public_events(events, PUBLIC_EVENTS)

    def view(self, state: State, seat: int | None) -> View:
        return views.view(state, seat, self.to_act(state))

    def timeout_action(self, state: State, seats: list[int]) -> Action:
        return {"type": TIMEOUT, "seats": list(seats)}

    def windows(self, state: State) -> list[Window]:
        return last_card.windows(state)

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state) if state["over"] else None

    def resample_hidden(self, state: State, viewer: int | None, rng: Rng) -> State:
        return views.resample_hidden(state, viewer, rng)

    def reshuffle_unseen(self, state: State, rng: Rng) -> State:
        return views.reshuffle_unseen(state, rng)


ENGINE = ColorClash()
