"""Celery tasks of slot agreement: thin wrappers over ``tournaments.scheduling.services``."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="tournaments.slots_settle")
def slots_settle() -> int:
    from tournaments import notices
    from tournaments.scheduling import services

    notices.arm_reminders()
    return services.slots_settle()
