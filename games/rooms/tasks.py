"""The rooms' periodic task (beat's "sweep-rooms"): a thin wrapper over the rooms service, found
by the Celery app's discovery like every ``tasks`` module."""

from __future__ import annotations

from celery import shared_task

from games.rooms import services


@shared_task(name="games.rooms_sweep", ignore_result=True)
def rooms_sweep() -> int:
    return services.rooms_sweep()
