"""Celery tasks: thin wrappers over ``notifications.services`` (each safe to run twice)."""

from __future__ import annotations

from datetime import UTC, datetime

from celery import shared_task

from notifications import services


@shared_task(name="notifications.send_reminder")
def send_reminder(reminder_id: int) -> str:
    return services.send_reminder(reminder_id=reminder_id)


@shared_task(name="notifications.sweep")
def sweep() -> int:
    return services.sweep()


@shared_task(name="notifications.email_batch")
def email_batch(user_id: int) -> int:
    return services.email_batch(user_id=user_id)


@shared_task(name="notifications.fan_out")
def fan_out(user_ids: list[int], kind: str, about: dict, when: float | None = None) -> int:
    moment = datetime.fromtimestamp(when, tz=UTC) if when is not None else None
    return services.notify_many(user_ids, kind, services.About(**about), moment)
