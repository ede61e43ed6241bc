"""The card catalogue: a JSON document of playlists, songs and cards, checked and compiled.

Schema (every problem is reported with the card id and the field)::

    {"name": str,
     "playlists": [{"id": str, "name": str, "starter": bool}],
     "songs": [{"id": str, "title": str, "artist": str}],
     "cards": [
       {"id", "kind": "part", "playlist", "song", "colour", "level": 1-3, "instrument": str},
       {"id", "kind": "wild", "playlist", "song", "level": 2,
        "instruments": {"yellow": str, "red": str, "blue": str, "green": str}},
       {"id", "kind": "fx", "playlist", "name", "level": 1-3,
        "effects": [effect, ...], "conditions": [filter, ...]?}]}

A starter playlist is a pre-built deck and must follow the 15-card template of the rules.
The shipped catalogue (``data/default_catalogue.json``) is fictional; organisers import their
own in the same schema through the game config.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games.engines.dropmix.grammar import COLOURS, effects_problems, filter_problems
from games.engines.messages import Message, gettext_noop

DEFAULT_PATH = Path(__file__).parent / "data" / "default_catalogue.json"
KINDS = ("part", "wild", "fx")
PLAYLIST_TEMPLATE = Counter(
    {
        ("wild", 2): 1,
        ("yellow", 2): 1,
        ("yellow", 3): 1,
        ("red", 1): 2,
        ("red", 2): 1,
        ("red", 3): 1,
        ("blue", 1): 2,
        ("blue", 2): 1,
        ("blue", 3): 1,
        ("green", 2): 1,
        ("green", 3): 1,
        ("fx", None): 2,
    }
)


class CatalogueError(ValueError):
    """A catalogue that cannot be used; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            Message(
                gettext_noop("invalid catalogue:\n- {problems}"),
                problems=Message.join("\n- ", problems),
            )
        )
        self.problems = problems


@dataclass(frozen=True)
class Card:
    id: str
    kind: str
    playlist: str
    level: int
    song: str | None = None
    colour: str | None = None
    instruments: dict[str, str] = field(default_factory=dict)
    effects: list[dict[str, Any]] = field(default_factory=list)
    conditions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def cost(self) -> int:
        """Deck-building points: the level, except that Wild and FX cards always cost 4."""
        return self.level if self.kind == "part" else 4

    def instrument(self, colour: str | None) -> str | None:
        """The instrument of the part this card plays as ``colour`` (a Wild's slot colour)."""
        return self.instruments.get(colour) if colour else None


@dataclass(frozen=True)
class Catalogue:
    name: str
    cards: dict[str, Card]
    playlists: dict[str, list[str]]
    starters: list[str]
    fingerprint: str
    data: dict[str, Any]


def validate_catalogue(data: Any) -> list[str]:
    """Every problem with a catalogue document; empty when it can be used."""
    if not isinstance(data, dict):
        return [
            Message(
                gettext_noop("the catalogue must be a JSON object with playlists, songs and cards")
            )
        ]
    problems = [
        Message(gettext_noop("unknown top-level key {key!r}"), key=key)
        for key in data
        if key not in _TOP_KEYS
    ]
    if not isinstance(data.get("name"), str):
        problems.append(Message(gettext_noop("name must be a string")))
    playlists = _records(data, "playlists", ("id", "name"), problems)
    songs = _records(data, "songs", ("id", "title", "artist"), problems)
    for playlist in playlists:
        if not isinstance(playlist.get("starter", False), bool):
            problems.append(
                Message(
                    gettext_noop("playlist {id}: starter must be true or false"),
                    id=playlist.get("id"),
                )
            )
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        return [*problems, Message(gettext_noop("cards must be a non-empty list"))]
    playlist_ids = {p.get("id") for p in playlists}
    song_ids = {s.get("id") for s in songs}
    seen: set[str] = set()
    for index, card in enumerate(cards):
        problems += _card_problems(card, index, playlist_ids, song_ids, seen)
    if not problems:
        problems += _template_problems(data)
    return problems


def load_catalogue(data: dict[str, Any]) -> Catalogue:
    """A compiled catalogue, or ``CatalogueError`` listing everything wrong with ``data``."""
    problems = validate_catalogue(data)
    if problems:
        raise CatalogueError(problems)
    return _compile(data, fingerprint(data))


def fingerprint(data: dict[str, Any]) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@cache
def default_catalogue() -> Catalogue:
    with DEFAULT_PATH.open(encoding="utf-8") as source:
        return load_catalogue(json.load(source))


_compiled: dict[str, Catalogue] = {}


def catalogue_of(state: dict[str, Any]) -> Catalogue:
    """The catalogue a game plays with: the shipped one, or the import stored in its state.

    Compiled catalogues are cached by fingerprint, so a replayed or reloaded state pays the
    compilation once per process.
    """
    imported = state.get("catalogue")
    if imported is None:
        return default_catalogue()
    key = state["catalogue_id"]
    if key not in _compiled:
        _compiled[key] = _compile(imported, key)
    return _compiled[key]


_TOP_KEYS = ("name", "version", "playlists", "songs", "cards")


def _records(
    data: dict[str, Any], key: str, fields: tuple[str, ...], problems: list[str]
) -> list[dict[str, Any]]:
    records = data.get(key)
    if not isinstance(records, list):
        problems.append(Message(gettext_noop("{key} must be a list"), key=key))
        return []
    good: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, record in enumerate(records):
        if not isinstance(record, dict):
            problems.append(
                Message(gettext_noop("{key}[{index}] must be an object"), key=key, index=index)
            )
            continue
        for name in fields:
            if not isinstance(record.get(name), str) or not record[name].strip():
                problems.append(
                    Message(
                        gettext_noop("{key}[{index}] ({id}): {name} must be a string"),
                        key=key,
                        index=index,
                        id=record.get("id"),
                        name=name,
                    )
                )
        if record.get("id") in seen:
            problems.append(
                Message(
                    gettext_noop("{key}[{index}]: duplicate id {id!r}"),
                    key=key,
                    index=index,
                    id=record["id"],
                )
            )
        seen.add(record.get("id"))
        good.append(record)
    return good


def _card_problems(
    card: Any, index: int, playlists: set[Any], songs: set[Any], seen: set[str]
) -> list[str]:
    if not isinstance(card, dict):
        return [Message(gettext_noop("cards[{index}] must be an object"), index=index)]
    card_id = card.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        return [Message(gettext_noop("cards[{index}]: id must be a non-empty string"), index=index)]
    where = Message(gettext_noop("card {card}"), card=card_id)
    if card_id in seen:
        return [Message(gettext_noop("{where}: duplicate id"), where=where)]
    seen.add(card_id)
    kind = card.get("kind")
    if kind not in KINDS:
        return [
            Message(
                gettext_noop("{where}: kind must be one of {kinds}"),
                where=where,
                kinds=", ".join(KINDS),
            )
        ]
    allowed = {"id", "kind", "playlist", "level", *_KIND_FIELDS[kind]}
    problems = [
        Message(
            gettext_noop("{where}: unknown field {key!r} for a {kind} card"),
            where=where,
            key=key,
            kind=kind,
        )
        for key in card
        if key not in allowed
    ]
    if card.get("playlist") not in playlists:
        problems.append(
            Message(
                gettext_noop("{where}: playlist {playlist!r} is not in playlists"),
                where=where,
                playlist=card.get("playlist"),
            )
        )
    level = card.get("level")
    if kind == "wild":
        if level != 2 or isinstance(level, bool):
            problems.append(
                Message(gettext_noop("{where}: level of a Wild must be 2"), where=where)
            )
    elif isinstance(level, bool) or level not in (1, 2, 3):
        problems.append(
            Message(
                gettext_noop("{where}: level must be 1, 2 or 3, not {level!r}"),
                where=where,
                level=level,
            )
        )
    if kind != "fx" and card.get("song") not in songs:
        problems.append(
            Message(
                gettext_noop("{where}: song {song!r} is not in songs"),
                where=where,
                song=card.get("song"),
            )
        )
    if kind == "part":
        if card.get("colour") not in COLOURS:
            problems.append(
                Message(
                    gettext_noop("{where}: colour must be one of {colours}"),
                    where=where,
                    colours=", ".join(COLOURS),
                )
            )
        if not isinstance(card.get("instrument"), str) or not card["instrument"].strip():
            problems.append(
                Message(gettext_noop("{where}: instrument must be a non-empty string"), where=where)
            )
    elif kind == "wild":
        instruments = card.get("instruments")
        if not isinstance(instruments, dict) or set(instruments) != set(COLOURS):
            problems.append(
                Message(
                    gettext_noop("{where}: instruments must name an instrument for every colour"),
                    where=where,
                )
            )
        elif not all(isinstance(v, str) and v.strip() for v in instruments.values()):
            problems.append(
                Message(
                    gettext_noop("{where}: every instrument must be a non-empty string"),
                    where=where,
                )
            )
    else:
        if not isinstance(card.get("name"), str) or not card["name"].strip():
            problems.append(
                Message(gettext_noop("{where}: name must be a non-empty string"), where=where)
            )
        problems += effects_problems(card.get("effects"), f"{where}: effects")
        conditions = card.get("conditions", [])
        if not isinstance(conditions, list):
            problems.append(
                Message(gettext_noop("{where}: conditions must be a list of filters"), where=where)
            )
        else:
            for number, condition in enumerate(conditions):
                problems += filter_problems(condition, f"{where}: conditions[{number}]")
    return problems


_KIND_FIELDS = {
    "part": ("song", "colour", "instrument"),
    "wild": ("song", "instruments"),
    "fx": ("name", "effects", "conditions"),
}


def _template_problems(data: dict[str, Any]) -> list[str]:
    problems = []
    for playlist in data["playlists"]:
        if not playlist.get("starter"):
            continue
        shape = Counter(
            ("fx", None) if c["kind"] == "fx" else (c.get("colour", "wild"), c["level"])
            for c in data["cards"]
            if c["playlist"] == playlist["id"]
        )
        if shape != PLAYLIST_TEMPLATE:
            missing = PLAYLIST_TEMPLATE - shape
            extra = shape - PLAYLIST_TEMPLATE
            problems.append(
                Message(
                    gettext_noop(
                        "starter playlist {playlist} does not follow the 15-card template "
                        "(missing: {missing}; extra: {extra})"
                    ),
                    playlist=playlist["id"],
                    missing=_describe(missing),
                    extra=_describe(extra),
                )
            )
    return problems


def _describe(shape: Counter) -> str:
    if not shape:
        return "nothing"
    names = [f"{n}x {kind}" + (f" L{level}" if level else "") for (kind, level), n in shape.items()]
    return ", ".join(sorted(names))


def _compile(data: dict[str, Any], key: str) -> Catalogue:
    cards: dict[str, Card] = {}
    playlists: dict[str, list[str]] = {p["id"]: [] for p in data["playlists"]}
    for raw in data["cards"]:
        if raw["kind"] == "part":
            instruments = {raw["colour"]: raw["instrument"]}
        else:
            instruments = dict(raw.get("instruments", {}))
        cards[raw["id"]] = Card(
            id=raw["id"],
            kind=raw["kind"],
            playlist=raw["playlist"],
            level=raw["level"],
            song=raw.get("song"),
            colour=raw.get("colour"),
            instruments=instruments,
            effects=raw.get("effects", []),
            conditions=raw.get("conditions", []),
        )
        playlists[raw["playlist"]].append(raw["id"])
    starters = [p["id"] for p in data["playlists"] if p.get("starter")]
    return Catalogue(data["name"], cards, playlists, starters, key, data)
