"""Celery tasks of a Genius season: thin wrappers over ``seasons.activity``. Each does nothing
when the check has moved on (Redis may deliver an ETA task twice)."""

from __future__ import annotations

from celery import shared_task

from tournaments.seasons import activity, death_match_picks


@shared_task(name="tournaments.apply_activity_check", ignore_result=True)
def apply_activity_check(check_id: int) -> bool:
    return activity.apply(check_id=check_id)


@shared_task(name="tournaments.sweep_activity_checks", ignore_result=True)
def sweep_activity_checks() -> int:
    return activity.apply_due()


@shared_task(name="tournaments.dm_ban_timeout", ignore_result=True)
def dm_ban_timeout(pick_id: int, step: int) -> bool:
    return death_match_picks.ban_timeout(pick_id=pick_id, step=step)
