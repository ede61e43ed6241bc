"""Connections and substitutes: a seat whose person is gone (left, or away past the game's
grace) is finished by a computer substitute."""

from __future__ import annotations

import contextlib

from django.db import transaction
from django.utils import timezone

from games import store
from games.engines.base import IllegalAction
from games.models import GameSession, Seat
from games.services import commit, core


def mark_connected(*, game_id: int, seat: int) -> None:
    store.seat_connected(game_id, seat)


def mark_disconnected(*, game_id: int, seat: int) -> None:
    """The seat's last connection closed: after the game's grace a substitute takes over, if the
    game is running by then (a finished game's streams close for good: nothing to schedule)."""
    moment = timezone.now()
    if store.seat_disconnected(game_id, seat, moment) != 0:
        return
    status = GameSession.Status
    ongoing = GameSession.objects.filter(pk=game_id, status__in=(status.WAITING, status.RUNNING))
    grace = ongoing.values_list("grace_seconds", flat=True).first()
    if grace is not None:
        since = moment.timestamp()
        commit.schedule_grace(game_id, seat, since, since + grace)


def seat_leave(*, game_id: int, seat: int) -> bool:
    """A person leaves a running game: a substitute takes the seat at once."""
    return substitute_seat(game_id=game_id, seat=seat)


def substitute_if_still_away(*, game_id: int, seat: int, since: float) -> bool:
    """Called when a seat's grace has passed: substitute it unless its person came back."""
    player = Seat.objects.filter(game_id=game_id, number=seat).first()
    if player is None or player.connected or player.disconnected_at is None:
        return False
    if abs(player.disconnected_at.timestamp() - since) > 1e-3:
        return False  # it reconnected and dropped again since; that drop has its own grace
    return substitute_seat(game_id=game_id, seat=seat)


def substitute_seat(*, game_id: int, seat: int) -> bool:
    """A computer substitute, labelled as such, finishes the seat of someone who left. The
    seat's credentials end with it: its token and its guest no longer hold it (the account
    stays recorded, for the results, but no longer holds the seat either: ``access``)."""
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        player = core.find_seat(seats, seat)
        if not game.is_running or player.kind != Seat.Kind.HUMAN:
            return False
        engine = core.engine_for(game.engine)
        player.kind = Seat.Kind.SUBSTITUTE
        player.bot = core.default_bot(engine)
        player.token_sha256 = ""
        player.guest_id = ""
        player.save(update_fields=["kind", "bot", "token_sha256", "guest_id"])
        control = game.control(engine)
        notice = {"type": "substitute", "seat": seat, "on": True}
        # Engines whose rules treat substitutes specially (Color Clash scoring) are told.
        with contextlib.suppress(IllegalAction):
            core.apply(game, engine, control, None, notice, None, core.now())
        commit.save(game, seats)
        return True
