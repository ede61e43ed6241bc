"""Celery tasks: thin wrappers that call services. Each takes ids and does nothing when the
game has moved on, since Redis may deliver an ETA task twice. No service imports them:
the scheduling port (``hosting.core.scheduling``) finds each task by its name, and runs it on
a Celery worker or, without Redis, on its in-process thread."""

from __future__ import annotations

from celery import shared_task

from games import notices, services, timers


@shared_task(name="games.enforce_deadline", ignore_result=True)
def enforce_deadline(game_id: int, version: int) -> int:
    return services.enforce_deadline(game_id=game_id)


@shared_task(name="games.bot_act", ignore_result=True)
def bot_act(game_id: int, seat: int, version: int) -> bool:
    return services.bot_act(game_id=game_id, seat=seat, version=version)


@shared_task(name="games.substitute_if_still_away", ignore_result=True)
def substitute_if_still_away(game_id: int, seat: int, since: float) -> bool:
    return services.substitute_if_still_away(game_id=game_id, seat=seat, since=since)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    return timers.sweep_overdue()


@shared_task(name="games.notify_idle_turns", ignore_result=True)
def notify_idle_turns() -> int:
    return notices.tell_idle_turns(services.now())
