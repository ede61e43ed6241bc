"""Hosted games in the Django admin: to look at, never to change, and never a window on what
is hidden while a game runs (its seeds, its state, its log, its seats' tokens)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import GameEvent, GameSession, Seat
from hosting.core.safe_admin import ReadOnly, ReadOnlyInline

SEAT_FIELDS = ("number", "kind", "bot", "user", "display_name", "role", "client_seed", "connected")


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = SEAT_FIELDS  # no token hash, no guest identity


@admin.register(GameSession)
class GameSessionAdmin(ReadOnly):
    list_display = ("id", "engine", "status", "version", "created", "finished")
    list_filter = ("engine", "status")
    # The state and the seed are secret while the game runs, from staff too; the seed is
    # shown once revealed (the game is over), the state never: the log replays it.
    fields = (
        "engine",
        "status",
        "version",
        "seed_sha256",
        "revealed_seed",
        "config",
        "time_control",
        "outcome",
        "grace_seconds",
        "created_by",
        "created",
        "started",
        "finished",
    )
    readonly_fields = fields
    inlines = [SeatInline]

    @admin.display(description=_("seed (revealed when the game ends)"))
    def revealed_seed(self, game: GameSession) -> str:
        return game.revealed_seed or "—"


@admin.register(Seat)
class SeatAdmin(ReadOnly):
    list_display = ("game", "number", "kind", "display_name", "user", "connected")
    list_filter = ("kind", "connected")
    fields = ("game", *SEAT_FIELDS)
    readonly_fields = fields


@admin.register(GameEvent)
class GameEventAdmin(ReadOnly):
    list_display = ("game", "seq", "seat", "at")
    fields = ("game", "seq", "seat", "action", "events", "client_action_id", "at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        # Events name drawn and dealt cards: nobody, staff included, reads them mid-game.
        ended = (GameSession.Status.FINISHED, GameSession.Status.ABORTED)
        return super().get_queryset(request).filter(game__status__in=ended)


# The challenges' and the casual rooms' admins live in their own modules; importing them
# registers them.
from games.challenges import admin as challenge_admin  # noqa: E402, F401
from games.rooms import admin as room_admin  # noqa: E402, F401
