"""What a room of each game offers: the options its host chooses (validated, with a readable
refusal naming what is allowed), how many people it seats, and how its members and computers
sit in its games (DropMix: by the side each chose in the lobby).

Color Clash: 2 to 6 people, its mode, match length and turn timer. Drafting Trios: a Death
Match of exactly 2 (its clocks are the rules' own). DropMix Clash: 1v1, 1v2 or 2v2, a target
of 15 or 21 and a turn timer of 15, 30 or 60 s (``shared/rules/dropmix_clash.md``, Set-up).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.base import ConfigError
from games.engines.color_clash import config as clash_config
from hosting.core.errors import UserError

COLOR_CLASH, DRAFTING_TRIOS, DROPMIX = "color_clash", "drafting_trios", "dropmix"
GAMES = {
    COLOR_CLASH: gettext_lazy("Color Clash"),
    DRAFTING_TRIOS: gettext_lazy("Drafting Trios"),
    DROPMIX: gettext_lazy("DropMix Clash"),
}
CLASH_MAX_PLAYERS = 6
CLASH_MAX_COMPUTERS = 5
# A Classic room offers "to 500" first, Family night three rounds (the rules' resolution).
CLASH_DEFAULT_MATCH = {"classic": "to_500", "family": "three_rounds"}
# DropMix: the people on each side (side 0, side 1) in each format.
DROPMIX_FORMATS = {"1v1": (1, 1), "1v2": (1, 2), "2v2": (2, 2)}
DROPMIX_TARGETS = (15, 21)
DROPMIX_TURN_SECONDS = (15, 30, 60)
DROPMIX_DEFAULTS = {"format": "1v1", "target": 21, "turn_seconds": 30}


def engine_key(value: Any) -> str:
    key = value or COLOR_CLASH
    if key not in GAMES:
        raise UserError(
            _("game must be one of: %(games)s") % {"games": ", ".join(GAMES)},
            code="invalid_config",
        )
    return key


def room_fields(engine: str, data: dict[str, Any], *, match_default: str = "") -> dict[str, Any]:
    """A room's columns for the host's choices of ``engine`` (defaults filled in)."""
    if engine == COLOR_CLASH:
        return {"engine": engine, "options": {}, **_clash(data, match_default)}
    if engine == DRAFTING_TRIOS:
        return {"engine": engine, "options": {}, "mode": "", "match": "", "turn_seconds": 0}
    chosen = _dropmix(data)
    options = {"format": chosen["format"], "target": chosen["target"]}
    return {
        "engine": engine,
        "options": options,
        "mode": "",
        "match": "",
        "turn_seconds": chosen["turn_seconds"],
    }


def _clash(data: dict[str, Any], match_default: str) -> dict[str, Any]:
    mode = data.get("mode") or "classic"
    if mode not in clash_config.MODES:
        raise UserError(_("mode must be 'classic' or 'family'"), code="invalid_config")
    config: dict[str, Any] = {"mode": mode}
    config["match"] = data.get("match") or match_default or CLASH_DEFAULT_MATCH[mode]
    turn_seconds = data.get("turn_seconds")
    if turn_seconds not in (None, ""):
        try:
            config["turn_seconds"] = int(turn_seconds)
        except (TypeError, ValueError):
            raise UserError(
                _("turn_seconds must be 30, 45, 60 or 90"), code="invalid_config"
            ) from None
    try:
        valid = clash_config.validate_config(config, 2)
    except ConfigError as error:
        raise UserError(str(error), code="invalid_config") from None
    return {key: valid[key] for key in ("mode", "match", "turn_seconds")}


def _whole(value: Any, allowed: tuple[int, ...], message: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number not in allowed:
        raise UserError(message, code="invalid_config")
    return number


def _dropmix(data: dict[str, Any]) -> dict[str, Any]:
    chosen = {key: data.get(key) or default for key, default in DROPMIX_DEFAULTS.items()}
    if chosen["format"] not in DROPMIX_FORMATS:
        raise UserError(_("format must be 1v1, 1v2 or 2v2"), code="invalid_config")
    chosen["target"] = _whole(chosen["target"], DROPMIX_TARGETS, _("target must be 15 or 21"))
    chosen["turn_seconds"] = _whole(
        chosen["turn_seconds"], DROPMIX_TURN_SECONDS, _("turn_seconds must be 15, 30 or 60")
    )
    return chosen


def side_sizes(room: Any) -> tuple[int, int]:
    """DropMix: how many people each side seats."""
    return DROPMIX_FORMATS[room.options.get("format", "1v1")]


def capacity(room: Any) -> int:
    """The most people a room seats."""
    if room.engine == DRAFTING_TRIOS:
        return 2
    if room.engine == DROPMIX:
        return sum(side_sizes(room))
    return CLASH_MAX_PLAYERS


def practice_computers(engine: str, data: dict[str, Any]) -> int:
    """How many computers a practice game seats: Color Clash 1 to 5 as chosen, Drafting Trios
    one, DropMix as many as its format leaves (the person on the first side)."""
    if engine == DRAFTING_TRIOS:
        return 1
    if engine == DROPMIX:
        return sum(DROPMIX_FORMATS[_dropmix(data)["format"]]) - 1
    try:
        count = int(data.get("computers", 3))
    except (TypeError, ValueError):
        count = -1
    if not 1 <= count <= CLASH_MAX_COMPUTERS:
        raise UserError(_("practice is against 1 to 5 computer players"), code="invalid_config")
    return count


def refusal_to_start(room: Any, members: list[Any]) -> str:
    """Why a private room's people cannot start yet ("" when they can)."""
    if room.engine == DRAFTING_TRIOS and len(members) != 2:
        return _("Drafting Trios is played by exactly two people")
    if room.engine == DROPMIX:
        wanted = side_sizes(room)
        held = tuple(sum(m.side == side for m in members) for side in (0, 1))
        if held != wanted:
            return _("each side needs its players before the start: %(left)s against %(right)s") % {
                "left": wanted[0],
                "right": wanted[1],
            }
    if len(members) < 2:
        return _("a game needs at least two players")
    return ""


def seating(room: Any, members: list[Any], computers: int) -> list[Any]:
    """Who sits in each seat of the room's next game, in seat order (``None``: a computer).
    DropMix seats sides as its engine reads them: 1v2 seats side 0's player first, 2v2
    alternates the sides (partners opposite)."""
    if room.engine != DROPMIX:
        return [*members, *[None] * computers]
    sides: list[list[Any]] = [[m for m in members if m.side == side] for side in (0, 1)]
    for side, size in enumerate(side_sizes(room)):
        sides[side] += [None] * (size - len(sides[side]))  # practice: computers fill in
    if room.options.get("format") == "2v2":
        return [sides[0][0], sides[1][0], sides[0][1], sides[1][1]]
    return [*sides[0], *sides[1]]


def game_settings(room: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The engine config and time control of the room's games."""
    if room.engine == COLOR_CLASH:
        config = {"mode": room.mode, "match": room.match, "turn_seconds": room.turn_seconds}
        return config, None
    if room.engine == DROPMIX:
        config = {"target": room.options.get("target", DROPMIX_DEFAULTS["target"])}
        return config, {"allowances": {"turn": room.turn_seconds}}
    return {}, None
