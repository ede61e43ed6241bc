"""The FX grammar of the rules file, as data: which effect forms exist and what each takes.

Every FX card is a list of effects plus optional conditions; a filter is a small dict that a
card matches when every key holds. Checking a catalogue means checking these shapes, so the
engine can interpret any card without card-specific code (see ``effects.py``).
"""

from __future__ import annotations

from typing import Any

from games.engines.messages import Message, gettext_noop

COLOURS = ("yellow", "red", "blue", "green")
FILTER_KEYS = ("colour", "instrument", "level", "same_song")
WHO_SCORE = ("self", "opponent", "both")
WHO_DRAW = ("self", "both")
WHO_CLEAR = ("opponent", "both")
DRAW_MODES = ("top", "choose", "redraw")
CLEAR_TARGETS = ("adjacent", "random")

EFFECT_FORMS = (
    "extra_move",
    "extra_spin",
    "score_sets",
    "score_song_pairs",
    "draw",
    "clear",
    "score",
    "on_cover",
    "block",
)


def filter_problems(value: Any, where: str) -> list[str]:
    """Everything wrong with one filter, each message naming ``where`` it is."""
    if not isinstance(value, dict) or not value:
        return [
            Message(
                gettext_noop(
                    "{where}: a filter must be a non-empty object with keys {filter_keys}"
                ),
                where=where,
                filter_keys=", ".join(FILTER_KEYS),
            )
        ]
    problems = [
        Message(gettext_noop("{where}: unknown filter key {key!r}"), where=where, key=key)
        for key in value
        if key not in FILTER_KEYS
    ]
    if "colour" in value and value["colour"] not in COLOURS:
        problems.append(
            Message(
                gettext_noop("{where}: colour must be one of {colours}"),
                where=where,
                colours=", ".join(COLOURS),
            )
        )
    if "instrument" in value and not _text(value["instrument"]):
        problems.append(
            Message(gettext_noop("{where}: instrument must be a non-empty string"), where=where)
        )
    if "level" in value and (_is_bool(value["level"]) or value["level"] not in (1, 2, 3)):
        problems.append(Message(gettext_noop("{where}: level must be 1, 2 or 3"), where=where))
    if "same_song" in value and value["same_song"] is not True:
        problems.append(Message(gettext_noop("{where}: same_song can only be true"), where=where))
    return problems


def effects_problems(effects: Any, where: str) -> list[str]:
    """Everything wrong with a list of effects (an FX card's, or an ``on_cover``'s ``then``)."""
    if not isinstance(effects, list) or not effects:
        return [Message(gettext_noop("{where}: effects must be a non-empty list"), where=where)]
    problems: list[str] = []
    for index, effect in enumerate(effects):
        problems += _effect_problems(effect, f"{where}[{index}]")
    return problems


def _effect_problems(effect: Any, where: str) -> list[str]:
    if not isinstance(effect, dict):
        return [
            Message(gettext_noop("{where}: an effect must be an object with a 'form'"), where=where)
        ]
    form = effect.get("form")
    if form not in EFFECT_FORMS:
        return [
            Message(
                gettext_noop("{where}: unknown form {form!r}; known forms: {effect_forms}"),
                where=where,
                form=form,
                effect_forms=", ".join(EFFECT_FORMS),
            )
        ]
    return _CHECKS[form](effect, f"{where} ({form})")


def _extra_move(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"filter"}, where)
    if "filter" in effect:
        problems += filter_problems(effect["filter"], f"{where}.filter")
    return problems


def _extra_spin(effect: dict[str, Any], where: str) -> list[str]:
    return _unknown_keys(effect, set(), where)


def _score_sets(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"filters", "n"}, where) + _positive(effect, "n", where)
    filters = effect.get("filters")
    if not isinstance(filters, list) or not filters:
        return [
            *problems,
            Message(
                gettext_noop("{where}: filters must be a non-empty list of filters"), where=where
            ),
        ]
    for index, value in enumerate(filters):
        problems += filter_problems(value, f"{where}.filters[{index}]")
    return problems


def _score_song_pairs(effect: dict[str, Any], where: str) -> list[str]:
    return _unknown_keys(effect, {"n"}, where) + _positive(effect, "n", where)


def _draw(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"who", "count", "mode"}, where)
    problems += _choice(effect, "who", WHO_DRAW, where) + _choice(effect, "mode", DRAW_MODES, where)
    if effect.get("mode") == "redraw":
        if "count" in effect:
            problems.append(
                Message(
                    gettext_noop("{where}: redraw replaces the whole hand, so it takes no count"),
                    where=where,
                )
            )
    else:
        problems += _positive(effect, "count", where)
    return problems


def _clear(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"who", "target", "costs_points"}, where)
    problems += _choice(effect, "who", WHO_CLEAR, where)
    if "costs_points" in effect and not isinstance(effect["costs_points"], bool):
        problems.append(
            Message(gettext_noop("{where}: costs_points must be true or false"), where=where)
        )
    target = effect.get("target")
    if isinstance(target, dict) and set(target) == {"any"} and isinstance(target["any"], list):
        if not target["any"]:
            problems.append(
                Message(
                    gettext_noop("{where}: target.any must list at least one filter"), where=where
                )
            )
        for index, value in enumerate(target["any"]):
            problems += filter_problems(value, f"{where}.target.any[{index}]")
    elif target not in CLEAR_TARGETS:
        problems.append(
            Message(
                gettext_noop(
                    "{where}: target must be 'adjacent', 'random' or {{'any': [filters]}}"
                ),
                where=where,
            )
        )
    return problems


def _score(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"who", "delta"}, where)
    problems += _choice(effect, "who", WHO_SCORE, where)
    delta = effect.get("delta")
    if not isinstance(delta, int) or _is_bool(delta) or delta == 0:
        problems.append(
            Message(gettext_noop("{where}: delta must be a whole number other than 0"), where=where)
        )
    return problems


def _on_cover(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"covers", "then"}, where)
    covers = effect.get("covers")
    if covers != "empty" and not (
        isinstance(covers, dict) and set(covers) == {"colour"} and covers["colour"] in COLOURS
    ):
        problems.append(
            Message(
                gettext_noop("{where}: covers must be 'empty' or {{'colour': <colour>}}"),
                where=where,
            )
        )
    then = effect.get("then")
    if isinstance(then, list) and any(
        isinstance(e, dict) and e.get("form") == "block" for e in then
    ):
        problems.append(
            Message(
                gettext_noop(
                    "{where}.then: block lasts while the FX is in play, it cannot be a trigger"
                ),
                where=where,
            )
        )
    return problems + effects_problems(then, f"{where}.then")


def _block(effect: dict[str, Any], where: str) -> list[str]:
    problems = _unknown_keys(effect, {"filter"}, where)
    return problems + filter_problems(effect.get("filter"), f"{where}.filter")


_CHECKS = {
    "extra_move": _extra_move,
    "extra_spin": _extra_spin,
    "score_sets": _score_sets,
    "score_song_pairs": _score_song_pairs,
    "draw": _draw,
    "clear": _clear,
    "score": _score,
    "on_cover": _on_cover,
    "block": _block,
}


def _unknown_keys(effect: dict[str, Any], allowed: set[str], where: str) -> list[str]:
    return [
        Message(gettext_noop("{where}: unknown key {key!r}"), where=where, key=key)
        for key in effect
        if key not in {"form", *allowed}
    ]


def _positive(effect: dict[str, Any], key: str, where: str) -> list[str]:
    value = effect.get(key)
    if not isinstance(value, int) or _is_bool(value) or value < 1:
        return [
            Message(
                gettext_noop("{where}: {key} must be a whole number of at least 1"),
                where=where,
                key=key,
            )
        ]
    return []


def _choice(effect: dict[str, Any], key: str, options: tuple[str, ...], where: str) -> list[str]:
    if effect.get(key) not in options:
        return [
            Message(
                gettext_noop("{where}: {key} must be one of {options}"),
                where=where,
                key=key,
                options=", ".join(options),
            )
        ]
    return []


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)
