"""The Celery task that sends a webhook delivery, retried with exponential backoff."""

from __future__ import annotations

from celery import Task, shared_task

from tournaments.webhooks import delivery


@shared_task(name="tournaments.deliver_webhook", bind=True, ignore_result=True, max_retries=None)
def deliver_webhook(self: Task, delivery_id: int) -> str:
    # The delivery row counts the attempts (``WEBHOOK_MAX_ATTEMPTS``), so Celery's own
    # retry limit is off; the wait comes from the settings at each retry (``backoff``).
    try:
        return delivery.attempt(delivery_id)
    except delivery.RetryLater as failure:
        raise self.retry(countdown=delivery.backoff(self.request.retries)) from failure
