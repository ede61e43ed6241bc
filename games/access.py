"""Which seat a request speaks for: a bot's seat token, else the session's user or guest."""

from __future__ import annotations

from django.http import HttpRequest

from games import store
from games.models import GameSession, Seat, hash_token
from hosting.identity import GUEST_SESSION_KEY, guest_from_token

TOKEN_PREFIX = "Seat "


def seat_token(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    return header[len(TOKEN_PREFIX) :].strip() if header.startswith(TOKEN_PREFIX) else None


def seat_for(request: HttpRequest, game: GameSession | int) -> tuple[Seat | None, bool]:
    """The seat, and whether it was proven by token (no CSRF needed) rather than session.
    Takes the game or its id: acting needs only the seat, not the game read twice."""
    game_id = game if isinstance(game, int) else game.pk
    token = seat_token(request)
    if token is not None:
        return store.seat_by_token(game_id, hash_token(token)), True
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Seat.objects.filter(game_id=game_id, user=user).first(), False
    guest_token = request.session.get(GUEST_SESSION_KEY)
    guest = guest_from_token(guest_token) if guest_token else None
    if guest is not None:
        return Seat.objects.filter(game_id=game_id, guest_id=guest.id).first(), False
    return None, False
