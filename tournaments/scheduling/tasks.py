"""Celery tasks of slot agreement: thin wrappers over ``tournaments.scheduling.services``."""

from __future__ import annotations

from celery import shared_task

from tournaments import notices
from tournaments.scheduling import services


@shared_task(name="tournaments.slots_settle")
def slots_settle() -> int:
    """Beat, every 30 s: arm the tournaments' reminders, then settle the slots due."""
    notices.arm_reminders()
    return services.slots_settle()
