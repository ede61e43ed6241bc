"""What happens after a game's write commits: publish the version, schedule what is next.

With Redis, Celery runs it (ETA tasks, plus the beat sweep as a safety net); without, the
in-process scheduler calls the same service functions.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

from django.conf import settings

from hosting import broadcast
from hosting.scheduler import scheduler


def after_commit(game_id: int, version: int, deadline: float | None, bots: list[int]) -> None:
    broadcast.publish(game_id, version)
    if deadline is not None:
        schedule_deadline(game_id, version, deadline)
    for seat in bots:
        low, high = settings.BOT_DELAY_SECONDS
        schedule_bot(game_id, seat, version, time.time() + random.uniform(low, high))


def schedule_deadline(game_id: int, version: int, when: float) -> None:
    if settings.REDIS_URL:
        from games.tasks import enforce_deadline

        enforce_deadline.apply_async((game_id, version), eta=_utc(when))
    else:
        from games.services import enforce_deadline

        scheduler.call_at(when, enforce_deadline, game_id=game_id)


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
    """Enforce every running game whose deadline has passed (the safety net for lost tasks)."""
    from games.models import GameSession
    from games.services import enforce_deadline

    overdue = GameSession.objects.filter(
        status=GameSession.Status.RUNNING, next_deadline__lte=datetime.now(tz=UTC)
    ).values_list("pk", flat=True)[:500]
    return sum(enforce_deadline(game_id=pk) for pk in overdue)


def _utc(when: float) -> datetime:
    return datetime.fromtimestamp(when, tz=UTC)
