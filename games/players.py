"""A person's games, read for the home page and the profile: the seats they hold in games
still to play (and whether it is their turn), their finished games with results, and counts
per game. A person is an account or, for a guest, the browser's guest id. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from games import engines
from games.models import GameSession, Seat

OPEN_LIMIT = 20


@dataclass(frozen=True)
class OpenSeat:
    game: GameSession
    seat: Seat
    game_name: str
    your_turn: bool
    opponents: list[str]


@dataclass(frozen=True)
class Result:
    game: GameSession
    game_name: str
    won: bool
    score: Any
    opponents: list[str]


def engine_name(key: str) -> str:
    """The game's name for people (never its engine key)."""
    try:
        return engines.get(key).name
    except KeyError:
        return key


def _seats_of(user: Any = None, guest_id: str = "") -> QuerySet[Seat]:
    if user is not None and getattr(user, "is_authenticated", False):
        return Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN)
    if guest_id:
        return Seat.objects.filter(guest_id=guest_id, kind=Seat.Kind.HUMAN)
    return Seat.objects.none()


def _others(game: GameSession, seat: Seat) -> list[str]:
    return [s.label() for s in game.seats.all() if s.number != seat.number]


def open_seats(*, user: Any = None, guest_id: str = "") -> list[OpenSeat]:
    """The games still to play where the person holds a seat, the ones waiting on their move
    first, then the newest."""
    seats = (
        _seats_of(user, guest_id)
        .filter(game__status__in=(GameSession.Status.WAITING, GameSession.Status.RUNNING))
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("-game__created")[:OPEN_LIMIT]
    )
    rows = []
    for seat in seats:
        game = seat.game
        rows.append(
            OpenSeat(
                game=game,
                seat=seat,
                game_name=engine_name(game.engine),
                your_turn=_to_act(game, seat.number),
                opponents=_others(game, seat),
            )
        )
    return sorted(rows, key=lambda row: not row.your_turn)


def _to_act(game: GameSession, number: int) -> bool:
    if not game.is_running or game.is_paused or game.state is None:
        return False
    try:
        return number in engines.get(game.engine).to_act(game.state)
    except KeyError:
        return False


def results(*, user: Any = None, guest_id: str = "", limit: int = 10) -> list[Result]:
    """The person's latest finished games, newest first, with whether they won."""
    seats = (
        _seats_of(user, guest_id)
        .filter(game__status=GameSession.Status.FINISHED)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("-game__finished", "-game_id")[:limit]
    )
    rows = []
    for seat in seats:
        outcome = seat.game.outcome or {}
        scores = outcome.get("scores") or {}
        rows.append(
            Result(
                game=seat.game,
                game_name=engine_name(seat.game.engine),
                won=seat.number in (outcome.get("winners") or []),
                score=scores.get(str(seat.number), scores.get(seat.number)),
                opponents=_others(seat.game, seat),
            )
        )
    return rows


def per_game(*, user: Any = None, guest_id: str = "") -> list[dict[str, Any]]:
    """Finished games played and won, per game, in the registry's order (games never played
    left out)."""
    finished = _seats_of(user, guest_id).filter(game__status=GameSession.Status.FINISHED)
    counts = {
        row["game__engine"]: row["played"]
        for row in finished.values("game__engine").annotate(played=Count("pk"))
    }
    won: dict[str, int] = {}
    for number, engine, outcome in finished.values_list("number", "game__engine", "game__outcome"):
        if number in ((outcome or {}).get("winners") or []):
            won[engine] = won.get(engine, 0) + 1
    return [
        {"key": key, "name": engine_name(key), "played": counts[key], "won": won.get(key, 0)}
        for key in engines.ENGINE_MODULES
        if counts.get(key)
    ]


def live_games(limit: int = 8) -> list[dict[str, Any]]:
    """Games being played now, for anyone to watch: the newest first."""
    games = (
        GameSession.objects.filter(status=GameSession.Status.RUNNING)
        .defer("state", "config")
        .prefetch_related("seats")
        .order_by("-started")[:limit]
    )
    return [
        {
            "game": game,
            "game_name": engine_name(game.engine),
            "players": [s.label() for s in game.seats.all()],
        }
        for game in games
    ]
