"""The record of a round-based event (Swiss or round robin), parsed and validated from JSON.

Input shape (see docs/formats-json.md)::

    {"players": [{"id": 1, "rating": 2400}, ...], "total_rounds": 9, "absent": [ids],
     "rounds": [{"games": [{"white": 1, "black": 5, "result": "1-0"}],
                 "byes": [{"player": 9, "points": 1, "kind": "pab"}]}]}

Pairing numbers follow rating descending, then id. A player who appears in neither the games
nor the byes of a round is recorded as absent for it (a zero-point unplayed round).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Any, Literal

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError

Colour = Literal["W", "B"]
# result string -> (white points, black points, played over the board)
RESULTS: dict[str, tuple[float, float, bool]] = {
    "1-0": (1.0, 0.0, True),
    "0-1": (0.0, 1.0, True),
    "1/2-1/2": (0.5, 0.5, True),
    "+-": (1.0, 0.0, False),
    "-+": (0.0, 1.0, False),
}
# bye kind -> points when the input gives none
BYE_KINDS: dict[str, float] = {"pab": 1.0, "half": 0.5, "zero": 0.0, "absent": 0.0}


@dataclass(frozen=True)
class Player:
    id: int
    rating: int
    number: int  # pairing number, 1 = highest rating


@dataclass(frozen=True)
class Entry:
    """What one player did in one round.

    ``kind`` is ``game`` (played over the board), ``forfeit_win``, ``forfeit_loss``, or a bye
    kind: ``pab`` (pairing-allocated bye), ``half``, ``zero`` or ``absent``.
    """

    round: int
    kind: str
    points: float
    opponent: int | None = None
    colour: Colour | None = None
    # What the game's engine reported: in-game points and named metrics (tie-break data).
    game_points: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)

    @property
    def played(self) -> bool:
        return self.kind == "game"


@dataclass(frozen=True)
class History:
    players: tuple[Player, ...]  # in pairing-number order
    entries: dict[int, tuple[Entry, ...]]  # player id -> one entry per completed round
    rounds_played: int
    total_rounds: int
    absent: frozenset[int]

    def score(self, player: int) -> float:
        return sum(entry.points for entry in self.entries[player])


def _whole_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(
            Message(
                gettext_noop("{what} must be a whole number, got {value!r}"), what=what, value=value
            )
        )
    return value


def _players(raw: Any) -> tuple[Player, ...]:
    if not isinstance(raw, list) or not raw:
        raise FormatError(
            Message(
                gettext_noop('"players" must be a non-empty list of {{"id": ..., "rating": ...}}')
            )
        )
    parsed: dict[int, int] = {}
    for item in raw:
        if not isinstance(item, dict) or "id" not in item:
            raise FormatError(
                Message(gettext_noop('each player needs an "id", got {item!r}'), item=item)
            )
        player_id = _whole_number(item["id"], Message(gettext_noop("a player id")))
        if player_id in parsed:
            raise FormatError(
                Message(gettext_noop("player {player_id} is listed twice"), player_id=player_id)
            )
        rating = item.get("rating", 0)
        if isinstance(rating, bool) or not isinstance(rating, Real) or not math.isfinite(rating):
            raise FormatError(
                Message(
                    gettext_noop("player {player_id}: rating must be a number, got {rating!r}"),
                    player_id=player_id,
                    rating=rating,
                )
            )
        parsed[player_id] = int(rating)
    ordered = sorted(parsed.items(), key=lambda item: (-item[1], item[0]))
    return tuple(Player(pid, rating, n) for n, (pid, rating) in enumerate(ordered, start=1))


def _pair_of_numbers(value: Any, what: str) -> tuple[float, float]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, Real) for v in value)
    ):
        raise FormatError(
            Message(
                gettext_noop("{what} must be [white, black] numbers, got {value!r}"),
                what=what,
                value=value,
            )
        )
    return float(value[0]), float(value[1])


def _engine_data(number: int, game: dict[str, Any], where: str) -> tuple[dict, dict]:
    """Optional ``"scores": [w, b]`` and ``"metrics": {"name": [w, b]}`` of one game."""
    white: dict[str, Any] = {"metrics": {}}
    black: dict[str, Any] = {"metrics": {}}
    if "scores" in game:
        white["game_points"], black["game_points"] = _pair_of_numbers(
            game["scores"],
            Message(gettext_noop("round {number}: scores of {where}"), number=number, where=where),
        )
    metrics = game.get("metrics", {})
    if not isinstance(metrics, dict):
        raise FormatError(
            Message(
                gettext_noop('round {number}: "metrics" of {where} must be an object'),
                number=number,
                where=where,
            )
        )
    for name, values in metrics.items():
        white["metrics"][name], black["metrics"][name] = _pair_of_numbers(
            values,
            Message(
                gettext_noop("round {number}: metric {name!r} of {where}"),
                number=number,
                name=name,
                where=where,
            ),
        )
    return white, black


def _round_entries(number: int, raw: Any, known: set[int]) -> dict[int, Entry]:
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("games", []), list)
        or not isinstance(raw.get("byes", []), list)
    ):
        raise FormatError(
            Message(
                gettext_noop('round {number} must be {{"games": [...], "byes": [...]}}'),
                number=number,
            )
        )
    entries: dict[int, Entry] = {}

    def claim(player: Any, entry: Entry, where: str) -> None:
        if isinstance(player, bool) or player not in known:
            raise FormatError(
                Message(
                    gettext_noop("round {number}: unknown player id {player!r} in {where}"),
                    number=number,
                    player=player,
                    where=where,
                )
            )
        if player in entries:
            raise FormatError(
                Message(
                    gettext_noop("round {number}: player {player} is paired twice"),
                    number=number,
                    player=player,
                )
            )
        entries[player] = entry

    for game in raw.get("games", []):
        if not isinstance(game, dict) or not {"white", "black", "result"} <= game.keys():
            raise FormatError(
                Message(
                    gettext_noop('round {number}: a game needs "white", "black" and "result"'),
                    number=number,
                )
            )
        white, black, result = game["white"], game["black"], game["result"]
        if result not in RESULTS:
            raise FormatError(
                Message(
                    gettext_noop(
                        "round {number}: result {result!r} of {white} v {black} "
                        "is not one of {results}"
                    ),
                    number=number,
                    result=result,
                    white=white,
                    black=black,
                    results=", ".join(RESULTS),
                )
            )
        if white == black:
            raise FormatError(
                Message(
                    gettext_noop("round {number}: player {white} cannot play themselves"),
                    number=number,
                    white=white,
                )
            )
        white_points, black_points, played = RESULTS[result]
        win, loss = ("game", "game") if played else ("forfeit_win", "forfeit_loss")
        where = Message(gettext_noop("the game {white} v {black}"), white=white, black=black)
        white_extra, black_extra = _engine_data(number, game, where)
        claim(
            white,
            Entry(number, win if white_points else loss, white_points, black, "W", **white_extra),
            where,
        )
        claim(
            black,
            Entry(number, win if black_points else loss, black_points, white, "B", **black_extra),
            where,
        )
    for bye in raw.get("byes", []):
        if not isinstance(bye, dict) or "player" not in bye:
            raise FormatError(
                Message(gettext_noop('round {number}: a bye needs a "player"'), number=number)
            )
        kind = bye.get("kind", "pab")
        if kind not in BYE_KINDS:
            raise FormatError(
                Message(
                    gettext_noop("round {number}: bye kind {kind!r} is not one of {bye_kinds}"),
                    number=number,
                    kind=kind,
                    bye_kinds=", ".join(BYE_KINDS),
                )
            )
        points = bye.get("points", BYE_KINDS[kind])
        if isinstance(points, bool) or not isinstance(points, Real) or not 0 <= points <= 1:
            raise FormatError(
                Message(
                    gettext_noop("round {number}: bye points must be 0, 0.5 or 1, got {points!r}"),
                    number=number,
                    points=points,
                )
            )
        claim(bye["player"], Entry(number, kind, float(points)), Message(gettext_noop("the byes")))
    return entries


def parse_history(state: dict[str, Any]) -> History:
    """Validate ``state`` and build the per-player record; raises ``FormatError``."""
    if not isinstance(state, dict):
        raise FormatError(Message(gettext_noop("the tournament state must be a JSON object")))
    players = _players(state.get("players"))
    known = {p.id for p in players}
    raw_rounds = state.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise FormatError(Message(gettext_noop('"rounds" must be a list')))
    total_rounds = _whole_number(state.get("total_rounds", len(raw_rounds)), '"total_rounds"')
    if total_rounds < len(raw_rounds):
        raise FormatError(
            Message(
                gettext_noop("{recorded} rounds recorded but total_rounds is {total_rounds}"),
                recorded=len(raw_rounds),
                total_rounds=total_rounds,
            )
        )
    absent = state.get("absent", [])
    if not isinstance(absent, list):
        raise FormatError(Message(gettext_noop('"absent" must be a list of player ids')))
    unknown_absent = [a for a in absent if isinstance(a, bool) or a not in known]
    if unknown_absent:
        raise FormatError(
            Message(
                gettext_noop('unknown player id {player!r} in "absent"'),
                player=unknown_absent[0],
            )
        )
    entries: dict[int, list[Entry]] = {pid: [] for pid in known}
    for number, raw in enumerate(raw_rounds, start=1):
        in_round = _round_entries(number, raw, known)
        for pid in known:
            entries[pid].append(in_round.get(pid, Entry(number, "absent", 0.0)))
    return History(
        players=players,
        entries={pid: tuple(e) for pid, e in entries.items()},
        rounds_played=len(raw_rounds),
        total_rounds=total_rounds,
        absent=frozenset(absent),
    )
