"""What a write leaves behind: the game saved and, once committed, its new version published
and what comes next scheduled (its deadline, a seed window's end, computer players, a seat's
grace), through the scheduling port by task name.

With Celery an ETA task per deadline is sent by the commit when the deadline is near, and
otherwise by the beat sweep once it comes near (``TIMER_ARM_AHEAD_SECONDS``); the sweep also
applies whatever is overdue, should a task be lost. The in-process backend holds every timer
from the commit on, and runs the same tasks.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

from games import store
from games.models import GameSession, Seat
from games.payloads import render_all
from games.services import core
from hosting.core import broadcast, scheduling

log = logging.getLogger(__name__)
ARMED_PREFIX = "games:armed:"  # not under broadcast's "games:*" channels: keys, not messages


def save(game: GameSession, seats: list[Seat]) -> dict[str, str]:
    """Persist the game's progress and, once committed, publish each audience's payload and
    schedule what comes next; returns those payloads. Every caller holds the game's lock."""
    saved = game.unsaved_log
    store.save_progress(game, saved)
    game.unsaved_log = []
    payloads = render_all(game, seats, core.now(), saved)
    update = broadcast.Update(version=game.version, final=game.is_over, parts=payloads)
    # A task already waits for an unchanged deadline: one per deadline, not one per commit.
    moved = game.next_deadline != getattr(game, "loaded_deadline", None)
    deadline = game.next_deadline.timestamp() if game.next_deadline and moved else None
    bots = _bots_to_move(game, seats)
    game_id = game.pk
    transaction.on_commit(lambda: after_commit(game_id, update, deadline, bots))
    return payloads


def _bots_to_move(game: GameSession, seats: list[Seat]) -> list[int]:
    if not game.is_running:
        return []
    computers = [s.number for s in seats if s.is_computer]
    return core.bots_due(core.engine_for(game.engine), game.state, computers) if computers else []


def after_commit(
    game_id: int, update: broadcast.Update, deadline: float | None, bots: list[int]
) -> None:
    """Each step on its own: the move is saved whatever happens here. Should Redis be down,
    streams catch up at the next version or reconnect, and the beat sweep and every read apply
    what falls due."""
    _attempt("live update", broadcast.publish, game_id, update)
    if deadline is not None:
        _attempt("deadline timer", schedule_deadline, game_id, update.version, deadline)
    for seat in bots:
        low, high = settings.BOT_DELAY_SECONDS
        when = time.time() + random.uniform(low, high)
        _attempt("computer player", schedule_bot, game_id, seat, update.version, when)


def after_seed_window_opens(game_id: int, when: float) -> None:
    """A game waits for its players' client seeds until ``when``: its deal is due then."""
    _attempt("seed window timer", schedule_deadline, game_id, 0, when)


def _attempt(what: str, step: Callable[..., Any], game_id: int, *args: Any) -> None:
    try:
        step(game_id, *args)
    except (redis.RedisError, OperationalError, OSError):
        log.warning("game %s: %s not sent, Redis is unreachable", game_id, what, exc_info=True)


def schedule_deadline(game_id: int, version: int, when: float) -> None:
    if not scheduling.brokered():
        scheduling.schedule("games.enforce_deadline", when, game_id=game_id, version=version)
    elif when - time.time() <= settings.TIMER_ARM_AHEAD_SECONDS:
        arm_deadline(game_id, version, when)


def arm_deadline(game_id: int, version: int, when: float) -> bool:
    """Send the ETA task of one game's deadline, once: the commit and the sweep may both try."""
    return scheduling.schedule(
        "games.enforce_deadline",
        when,
        once=f"{ARMED_PREFIX}{game_id}:{when:.6f}",
        once_for=int(settings.TIMER_ARM_AHEAD_SECONDS) + 60,
        game_id=game_id,
        version=version,
    )


def schedule_bot(game_id: int, seat: int, version: int, when: float) -> None:
    scheduling.schedule(
        "games.bot_act", when, batch=True, game_id=game_id, seat=seat, version=version
    )


def schedule_grace(game_id: int, seat: int, since: float, when: float) -> None:
    scheduling.schedule(
        "games.substitute_if_still_away", when, game_id=game_id, seat=seat, since=since
    )
