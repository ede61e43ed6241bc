"""The rule set of a game: seat roles and the flags for the resolved gaps of the rules.

Every flag defaults to the reading of ``shared/rules/drafting_trios.md``; the stored config
of a game is the complete dict ``validate_config`` returns, so a replay never depends on
today's defaults.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import ConfigError
from games.engines.messages import Message, gettext_noop

EC = "EC"
DMO = "DMO"
DEFAULT_ROLES = {"0": EC, "1": DMO}

SHORT_HAND_PASS = "pass"
SHORT_HAND_END_GAME = "end_game"

FLAGS: dict[str, Any] = {
    # A trio is three number cards; True lets power cards join as value 0, no colour.
    "power_cards_in_trios": False,
    # The +3 / +7 colour bonuses need the category's condition; True grants them anyway.
    "colour_bonus_on_failed_trio": False,
    # The service shows legal choices only; True adds each open category's best score now.
    "assist_previews": False,
    # A seat holding fewer than three cards at play (a deck ran dry) can only pass; with
    # "end_game" its pass also makes this round the last one.
    "short_hand": SHORT_HAND_PASS,
}
_CHOICES = {"short_hand": (SHORT_HAND_PASS, SHORT_HAND_END_GAME)}


def validate_config(config: dict[str, Any], seats: int) -> dict[str, Any]:
    """The complete config, or ``ConfigError`` naming what to fix."""
    if seats != 2:
        raise ConfigError(
            Message(
                gettext_noop("Drafting Trios is a Death Match for exactly 2 seats, not {seats}"),
                seats=seats,
            )
        )
    unknown = sorted(set(config) - {"roles", *FLAGS})
    if unknown:
        known = ", ".join(["roles", *FLAGS])
        raise ConfigError(
            Message(
                gettext_noop("unknown config key(s) {unknown}; known keys: {known}"),
                unknown=", ".join(unknown),
                known=known,
            )
        )
    full = {"roles": _roles(config.get("roles", DEFAULT_ROLES))}
    for flag, default in FLAGS.items():
        value = config.get(flag, default)
        choices = _CHOICES.get(flag)
        if choices is None and not isinstance(value, bool):
            raise ConfigError(
                Message(
                    gettext_noop("{flag} must be true or false, not {value!r}"),
                    flag=flag,
                    value=value,
                )
            )
        if choices is not None and value not in choices:
            raise ConfigError(
                Message(
                    gettext_noop("{flag} must be one of {choices}, not {value!r}"),
                    flag=flag,
                    choices=", ".join(choices),
                    value=value,
                )
            )
        full[flag] = value
    return full


def _roles(roles: Any) -> dict[str, str]:
    if not isinstance(roles, dict):
        raise ConfigError(
            Message(
                gettext_noop('roles must map each seat to its role, e.g. {{"0": "EC", "1": "DMO"}}')
            )
        )
    normalised = {str(seat): role for seat, role in roles.items()}
    if set(normalised) != {"0", "1"}:
        raise ConfigError(
            Message(
                gettext_noop("roles must give a role to seat 0 and seat 1, and to no other seat")
            )
        )
    if sorted(map(str, normalised.values())) != [DMO, EC]:
        raise ConfigError(
            Message(gettext_noop("roles must make exactly one seat the EC and the other the DMO"))
        )
    return normalised
