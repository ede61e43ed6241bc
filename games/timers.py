"""What happens after a game's write commits: publish the version, schedule what is next.

With Redis, Celery runs it: an ETA task per deadline, armed by the commit when the deadline is
near and otherwise by the beat sweep once it comes near (``TIMER_ARM_AHEAD_SECONDS``); the
sweep also applies whatever is overdue, should a task be lost. Without Redis, the in-process
scheduler calls the same service functions.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from kombu.exceptions import OperationalError

from hosting.core import broadcast, redis_clients
from hosting.core.scheduler import scheduler

log = logging.getLogger(__name__)
ARMED_PREFIX = "games:armed:"  # not under broadcast's "games:*" channels: keys, not messages
BOT_REARMED_PREFIX = "games:bot-rearmed:"
# A computer player acts within BOT_DELAY_SECONDS of its turn starting; one still owing its
# move this long after the longest delay lost its task (a worker killed, Redis emptied).
BOT_LOST_AFTER_SECONDS = 2.0


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
    if not settings.REDIS_URL:
        from games.services import enforce_deadline

        scheduler.call_at(when, enforce_deadline, game_id=game_id)
    elif when - time.time() <= settings.TIMER_ARM_AHEAD_SECONDS:
        arm_deadline(game_id, version, when)


def arm_deadline(game_id: int, version: int, when: float) -> bool:
    """Send the ETA task of one game's deadline, once: the commit and the sweep may both try."""
    from games.tasks import enforce_deadline

    key = f"{ARMED_PREFIX}{game_id}:{when:.6f}"
    expiry = int(settings.TIMER_ARM_AHEAD_SECONDS) + 60
    if not redis_clients.client(settings.REDIS_URL).set(key, 1, nx=True, ex=expiry):
        return False
    enforce_deadline.apply_async((game_id, version), eta=_utc(when))
    return True


def schedule_bot(game_id: int, seat: int, version: int, when: float) -> None:
    if settings.REDIS_URL:
        from games.tasks import bot_act

        bot_act.apply_async((game_id, seat, version), eta=_utc(when))
    else:
        from games.services import bot_act

        scheduler.call_at(when, bot_act, game_id=game_id, seat=seat, version=version)


def schedule_grace(game_id: int, seat: int, since: float, when: float) -> None:
    if settings.REDIS_URL:
        from games.tasks import substitute_if_still_away

        substitute_if_still_away.apply_async((game_id, seat, since), eta=_utc(when))
    else:
        from games.services import substitute_if_still_away

        scheduler.call_at(when, substitute_if_still_away, game_id=game_id, seat=seat, since=since)


def sweep_overdue() -> int:
    """Enforce every game whose deadline has passed (the safety net for lost tasks): running
    games' clocks and windows, waiting games' seed windows; then arm the tasks of the
    deadlines coming near, and send again the moves of computer players whose tasks were
    lost. Returns how many timeouts it applied."""
    from games.models import GameSession
    from games.services import enforce_deadline

    moment = datetime.now(tz=UTC)
    applied = 0
    # Running games' clocks and windows; waiting games' seed windows (their deal is due).
    for status in (GameSession.Status.RUNNING, GameSession.Status.WAITING):
        timed = GameSession.objects.filter(status=status, next_deadline__isnull=False)
        overdue = timed.filter(next_deadline__lte=moment).values_list("pk", flat=True)[:500]
        applied += sum(enforce_deadline(game_id=pk) for pk in overdue)
        if settings.REDIS_URL:
            horizon = moment + timedelta(seconds=settings.TIMER_ARM_AHEAD_SECONDS)
            near = timed.filter(next_deadline__gt=moment, next_deadline__lte=horizon)
            for pk, version, deadline in near.values_list("pk", "version", "next_deadline"):
                arm_deadline(pk, version, deadline.timestamp())
    if settings.REDIS_URL:
        rearm_lost_bots(GameSession.objects.filter(status=GameSession.Status.RUNNING))
    return applied


def rearm_lost_bots(running: Any) -> int:
    """Send once more the move of each computer seat whose clock has run for longer than any
    computer player waits: its task was lost with a worker or with Redis. Once per seat and
    version (a Redis key), and ``bot_act`` plays only if the seat still owes that move."""
    from games.models import Seat

    computers = Seat.objects.filter(
        game__in=running, kind__in=(Seat.Kind.COMPUTER, Seat.Kind.SUBSTITUTE)
    ).values_list("game_id", "number", "game__version", "game__clocks")
    lost_since = time.time() - settings.BOT_DELAY_SECONDS[1] - BOT_LOST_AFTER_SECONDS
    client = redis_clients.client(settings.REDIS_URL)
    sent = 0
    for game_id, seat, version, game_clocks in computers[:500]:
        started = (game_clocks or {}).get(str(seat), {}).get("started")
        if started is None or started > lost_since:
            continue
        key = f"{BOT_REARMED_PREFIX}{game_id}:{version}:{seat}"
        if client.set(key, 1, nx=True, ex=60):  # lost again? once more a minute later
            log.warning(
                "game %s: computer seat %s had not moved; its move is sent again", game_id, seat
            )
            schedule_bot(game_id, seat, version, time.time())
            sent += 1
    return sent


def _utc(when: float) -> datetime:
    return datetime.fromtimestamp(when, tz=UTC)
