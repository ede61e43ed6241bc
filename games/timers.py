"""The beat's sweep over game timers: the safety net under the tasks a commit sends.

A commit schedules its game's deadline, computer players and graces itself
(``games.services.commit``, through the scheduling port). With Celery a deadline far off is
not sent at its commit: this sweep sends it once it comes near (``TIMER_ARM_AHEAD_SECONDS``),
applies whatever is overdue should a task be lost, and sends again the moves of computer
players whose tasks were lost. Run by ``games.tasks.sweep_overdue``, every second.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings

from games.models import GameSession, Seat
from games.services import commit, enforce_deadline
from hosting.core import scheduling

log = logging.getLogger(__name__)
BOT_REARMED_PREFIX = "games:bot-rearmed:"
# A computer player acts within BOT_DELAY_SECONDS of its turn starting; one still owing its
# move this long after the longest delay lost its task (a worker killed, Redis emptied).
BOT_LOST_AFTER_SECONDS = 2.0


def sweep_overdue() -> int:
    """Enforce every game whose deadline has passed (the safety net for lost tasks): running
    games' clocks and windows, waiting games' seed windows; then arm the tasks of the
    deadlines coming near, and send again the moves of computer players whose tasks were
    lost. Returns how many timeouts it applied."""
    moment = datetime.now(tz=UTC)
    applied = 0
    # Running games' clocks and windows; waiting games' seed windows (their deal is due).
    for status in (GameSession.Status.RUNNING, GameSession.Status.WAITING):
        timed = GameSession.objects.filter(status=status, next_deadline__isnull=False)
        overdue = timed.filter(next_deadline__lte=moment).values_list("pk", flat=True)[:500]
        applied += sum(enforce_deadline(game_id=pk) for pk in overdue)
        if scheduling.brokered():
            horizon = moment + timedelta(seconds=settings.TIMER_ARM_AHEAD_SECONDS)
            near = timed.filter(next_deadline__gt=moment, next_deadline__lte=horizon)
            for pk, version, deadline in near.values_list("pk", "version", "next_deadline"):
                commit.arm_deadline(pk, version, deadline.timestamp())
    if scheduling.brokered():
        rearm_lost_bots(GameSession.objects.filter(status=GameSession.Status.RUNNING))
        scheduling.drain()  # whatever a lost drain task or a killed worker left due
    return applied


def rearm_lost_bots(running: Any) -> int:
    """Send once more the move of each computer seat whose clock has run for longer than any
    computer player waits: its task was lost with a worker or with Redis. Once per seat and
    version (a key the port claims), and ``bot_act`` plays only if the seat still owes that
    move."""
    computers = Seat.objects.filter(
        game__in=running, kind__in=(Seat.Kind.COMPUTER, Seat.Kind.SUBSTITUTE)
    ).values_list("game_id", "number", "game__version", "game__clocks")
    lost_since = time.time() - settings.BOT_DELAY_SECONDS[1] - BOT_LOST_AFTER_SECONDS
    sent = 0
    for game_id, seat, version, game_clocks in computers[:500]:
        started = (game_clocks or {}).get(str(seat), {}).get("started")
        if started is None or started > lost_since:
            continue
        if scheduling.schedule(
            "games.bot_act",
            time.time(),
            # Lost again? Once more a minute later.
            once=f"{BOT_REARMED_PREFIX}{game_id}:{version}:{seat}",
            once_for=60,
            game_id=game_id,
            seat=seat,
            version=version,
            batch=True,
        ):
            log.warning(
                "game %s: computer seat %s had not moved; its move is sent again", game_id, seat
            )
            sent += 1
    return sent
