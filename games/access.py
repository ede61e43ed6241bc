"""Which seat a request speaks for: a bot's seat token, else the session's user or guest."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from games import store
from games.models import GameSession, Seat, hash_token
from hosting.core.identity import GUEST_SESSION_KEY, guest_from_token

TOKEN_PREFIX = "Seat "


@dataclass(frozen=True)
class SeatKey:
    """What identifies a seat among a game's seats: one of its columns and the value it must
    hold there (a token's hash, the user's id, the guest's id, or simply the seat number).
    Writes find the seat among the seats they lock, with no query of their own."""

    column: str
    value: int | str

    @classmethod
    def number(cls, number: int) -> SeatKey:
        return cls("number", number)

    @property
    def by_token(self) -> bool:
        """Proven by a seat token (no CSRF check needed) rather than by the session."""
        return self.column == "token_sha256"

    def find(self, seats: list[Seat]) -> Seat | None:
        """The seat this credential holds: only a person's seat is held by anyone (a seat
        left to a substitute is the computer's, whoever played it before)."""
        return next(
            (
                s
                for s in seats
                if getattr(s, self.column) == self.value and s.kind == Seat.Kind.HUMAN
            ),
            None,
        )


def seat_token(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    return header[len(TOKEN_PREFIX) :].strip() if header.startswith(TOKEN_PREFIX) else None


def seat_key(request: HttpRequest) -> SeatKey | None:
    """The request's seat credential, if it carries one; whether it holds a seat in a given
    game is for that game's seats to say."""
    token = seat_token(request)
    if token is not None:
        return SeatKey("token_sha256", hash_token(token))
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return SeatKey("user_id", user.pk)
    guest_token = request.session.get(GUEST_SESSION_KEY)
    guest = guest_from_token(guest_token) if guest_token else None
    if guest is not None:
        return SeatKey("guest_id", guest.id)
    return None


def seat_for(
    request: HttpRequest, game: GameSession, seats: list[Seat] | None = None
) -> tuple[Seat | None, bool]:
    """The seat, and whether it was proven by token (no CSRF needed) rather than session;
    found among ``seats`` when the caller holds them. (Writes need not ask: they find the
    request's ``SeatKey`` among the seats they lock.)"""
    key = seat_key(request)
    if key is None:
        return None, False
    seat = key.find(seats) if seats is not None else store.seat_by(game.pk, key.column, key.value)
    return seat, key.by_token
