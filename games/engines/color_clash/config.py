"""Match configuration: mode, match length, substitutes and the turn timer.

Defaults: Classic plays one round (the Quick match default); Family night plays three rounds,
its own default in the rules. Any match length may be combined with either mode. The turn
timer is 30 s in Classic and 90 s in Family night unless the host picks 30/45/60/90.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import ConfigError
from games.engines.messages import Message, gettext_noop

MODES = ("classic", "family")
MATCHES = {"one_round": 1, "three_rounds": 3, "five_rounds": 5, "to_500": None}
"""Match length -> number of rounds; ``None`` plays on until a total reaches ``TARGET``."""
TARGET = 500
TURN_SECONDS = (30, 45, 60, 90)
DEFAULT_MATCH = {"classic": "one_round", "family": "three_rounds"}
DEFAULT_TURN_SECONDS = {"classic": 30, "family": 90}

DEFAULT_TIME_CONTROL = {
    "allowances": {"turn": 30},
    "reserve": 0,
    "increment": 0,
    "policy": "draw_and_pass",
    "choices": {"turn": list(TURN_SECONDS)},
}


def validate_config(config: dict[str, Any], seats: int) -> dict[str, Any]:
    """The complete config with defaults filled in, or ``ConfigError`` saying what to fix."""
    if not isinstance(seats, int) or not 2 <= seats <= 6:
        raise ConfigError(
            Message(gettext_noop("Color Clash needs 2 to 6 seats, not {seats}"), seats=seats)
        )
    unknown = set(config) - {"mode", "match", "substitutes", "turn_seconds"}
    if unknown:
        raise ConfigError(
            Message(
                gettext_noop("unknown setting(s): {unknown}"), unknown=", ".join(sorted(unknown))
            )
        )
    mode = config.get("mode", "classic")
    if mode not in MODES:
        raise ConfigError(Message(gettext_noop("mode must be 'classic' or 'family'")))
    match = config.get("match", DEFAULT_MATCH[mode])
    if not isinstance(match, str) or match not in MATCHES:
        raise ConfigError(
            Message(gettext_noop("match must be one of {matches}"), matches=", ".join(MATCHES))
        )
    turn_seconds = config.get("turn_seconds", DEFAULT_TURN_SECONDS[mode])
    if turn_seconds not in TURN_SECONDS or isinstance(turn_seconds, bool):
        raise ConfigError(Message(gettext_noop("turn_seconds must be 30, 45, 60 or 90")))
    substitutes = config.get("substitutes", [])
    if not isinstance(substitutes, list) or any(
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats
        for seat in substitutes
    ):
        raise ConfigError(
            Message(
                gettext_noop("substitutes must be a list of seats from 0 to {last}"),
                last=seats - 1,
            )
        )
    return {
        "mode": mode,
        "match": match,
        "substitutes": sorted(set(substitutes)),
        "turn_seconds": turn_seconds,
    }


def time_control(config: dict[str, Any]) -> dict[str, Any]:
    """The time control for a validated config: its turn allowance, expiring to draw-and-pass."""
    return {**DEFAULT_TIME_CONTROL, "allowances": {"turn": config["turn_seconds"]}}
