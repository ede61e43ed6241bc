"""Hosted games tell their seated players (through ``notifications``, the app below games):

- ``tell_seated``: the moment a game starts or opens its seed window (a tournament's match, a
  season's main match, a room's table), each person seated in it is told at once, on the site
  and live (the header's bell); the home page lists it under "your turn" (``games.players``).
- ``tell_idle_turns``: in a long game (a turn allowance of ``NOTIFY_IDLE_TURN_MINUTES`` or
  more), a person whose move has waited that long is told once per move
  (``games.notify_idle_turns``, from beat).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from games.models import GameSession, Seat
from games.players import _to_act, engine_name
from notifications import services as notices
from notifications.models import Kind


def _about(game: GameSession) -> notices.About:
    return notices.About(
        key=f"game:{game.pk}",
        label=f"{engine_name(game.engine)} #{game.pk}",
        url=reverse("game-page", args=[game.pk]),
    )


def _seated(game: GameSession) -> list[Any]:
    seats = game.seats.filter(kind=Seat.Kind.HUMAN, user__isnull=False).select_related("user")
    return [seat for seat in seats]


def tell_seated(game_id: int) -> int:
    game = GameSession.objects.filter(pk=game_id).first()
    if game is None or game.status == GameSession.Status.FINISHED:
        return 0
    about = _about(game)
    told = 0
    for seat in _seated(game):
        key = f"{Kind.GAME_STARTED}:{about.key}:{seat.user_id}"
        told += notices.notify(seat.user, Kind.GAME_STARTED, about, key=key) is not None
    return told


def _long(game: GameSession) -> bool:
    allowances = (game.time_control or {}).get("allowances") or {}
    longest = max((float(v) for v in allowances.values()), default=0)
    return longest >= settings.NOTIFY_IDLE_TURN_MINUTES * 60


def tell_idle_turns(now: float) -> int:
    """Tell each person whose move in a long game has waited ``NOTIFY_IDLE_TURN_MINUTES``
    (``now``: the server clock, ``games.services.now``, which the clocks' times come from)."""
    idle_since = now - settings.NOTIFY_IDLE_TURN_MINUTES * 60
    told = 0
    running = GameSession.objects.filter(status=GameSession.Status.RUNNING)
    for game in running.prefetch_related("seats__user")[:500]:
        if not _long(game):
            continue
        for seat in game.seats.all():
            if seat.kind != Seat.Kind.HUMAN or seat.user is None:
                continue
            started = (game.clocks or {}).get(str(seat.number), {}).get("started")
            if started is None or started > idle_since or not _to_act(game, seat.number):
                continue
            about = _about(game)
            key = f"{Kind.YOUR_TURN}:{about.key}:{seat.user_id}:{game.version}"
            told += notices.notify(seat.user, Kind.YOUR_TURN, about, key=key) is not None
    return told
