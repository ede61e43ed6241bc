"""Organisers' webhooks: a tournament's events, signed and sent to the URLs its organiser set.

An endpoint subscribes to some of ``tournaments.events.EVENTS``. When the services emit one
(after their commit), ``on_tournament_event`` records a ``WebhookDelivery`` per subscribed
endpoint and queues ``tournaments.webhooks.tasks.deliver_webhook``; each attempt is one call of
``tournaments.webhooks.delivery.attempt`` (which signs it and checks its address), and a failed
one is retried by Celery with exponential backoff.
"""

from __future__ import annotations

import base64
import logging
import secrets
import time
from typing import Any
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from hosting.core.errors import NotFound, UserError
from hosting.core.scheduling import scheduler
from tournaments.core import audit
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs
from tournaments.events import EVENTS, tournament_event
from tournaments.models import Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks.delivery import (
    TEST_EVENT,
    RetryLater,
    attempt,
    backoff,
    check_url,
)
from tournaments.webhooks.tasks import deliver_webhook

log = logging.getLogger(__name__)

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
MAX_ENDPOINTS = 10  # per tournament
DELIVERIES_SHOWN = 50


# -- endpoints ----------------------------------------------------------------------------------


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _host(url: str) -> str | None:
    """What the audit trail records of a URL: its host. The rest may be a credential (a
    Discord webhook URL's path holds its token)."""
    return urlsplit(url).hostname


def _checked_events(events: list[str]) -> list[str]:
    unknown = sorted(set(events) - set(EVENTS))
    if unknown:
        raise UserError(
            _("unknown events: %(unknown)s; known: %(known)s")
            % {"unknown": ", ".join(unknown), "known": ", ".join(EVENTS)}
        )
    if not events:
        raise UserError(_("choose at least one event to send"))
    return [event for event in EVENTS if event in events]  # one order everywhere


def endpoint_create(
    *, tournament: Tournament, by: Any, url: str, events: list[str], active: bool = True
) -> WebhookEndpoint:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        url, events = check_url(url), _checked_events(events)
        if tournament.webhooks.count() >= MAX_ENDPOINTS:
            raise UserError(
                _("a tournament has at most %(count)s webhooks; delete one first")
                % {"count": MAX_ENDPOINTS}
            )
        endpoint = WebhookEndpoint.objects.create(
            tournament=tournament,
            url=url,
            events=events,
            active=active,
            secret=new_secret(),
            language=translation.get_language() or settings.LANGUAGE_CODE,
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        audit.log(tournament, by, "webhook.created", webhook=endpoint.pk, host=_host(url))
        return endpoint


def endpoint_update(
    *,
    endpoint: WebhookEndpoint,
    by: Any,
    url: str | None = None,
    events: list[str] | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    with transaction.atomic():
        check_runs(lock_tournament(endpoint.tournament), by)
        endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
        changed = {}
        if url is not None:
            endpoint.url = check_url(url)
            changed["host"] = _host(endpoint.url)
        if events is not None:
            endpoint.events = changed["events"] = _checked_events(events)
        if active is not None:
            endpoint.active = changed["active"] = active
        endpoint.save()
        audit.log(endpoint.tournament, by, "webhook.edited", webhook=endpoint.pk, **changed)
        return endpoint


def endpoint_delete(*, endpoint: WebhookEndpoint, by: Any) -> None:
    with transaction.atomic():
        check_runs(lock_tournament(endpoint.tournament), by)
        audit.log(
            endpoint.tournament,
            by,
            "webhook.deleted",
            webhook=endpoint.pk,
            host=_host(endpoint.url),
        )
        endpoint.delete()


def endpoint_for(tournament: Tournament, endpoint_id: int, user: Any) -> WebhookEndpoint:
    """One of the tournament's endpoints, for those who run it (anyone else: a 403)."""
    check_runs(tournament, user)
    endpoint = tournament.webhooks.filter(pk=endpoint_id).first()
    if endpoint is None:
        raise NotFound(_("no webhook %(id)s in this tournament") % {"id": endpoint_id})
    return endpoint


def send_test(*, endpoint: WebhookEndpoint, by: Any) -> WebhookDelivery:
    """Queue a ``webhook.test`` delivery to the endpoint, active or not."""
    check_runs(endpoint.tournament, by)
    with transaction.atomic():
        return _queue(endpoint, TEST_EVENT, _payload(endpoint.tournament, TEST_EVENT, {}))


# -- deliveries ---------------------------------------------------------------------------------


def _payload(tournament: Tournament, event: str, data: dict[str, Any]) -> dict[str, Any]:
    """The body as the Standard Webhooks spec shapes it: ``type``, ``timestamp``, ``data``."""
    stamp = timezone.now().isoformat(timespec="milliseconds").replace("+00:00", "Z")
    about = {"slug": tournament.slug, "name": tournament.name}
    return {"type": event, "timestamp": stamp, "data": {"tournament": about, **data}}


def _queue(endpoint: WebhookEndpoint, event: str, payload: dict[str, Any]) -> WebhookDelivery:
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, message_id=f"msg_{secrets.token_hex(12)}", event=event, payload=payload
    )
    transaction.on_commit(lambda: _send(delivery.pk))
    return delivery


def _send(delivery_id: int) -> None:
    """Queue the first attempt: a Celery task with Redis, else the in-process scheduler
    (``make run``). The change that caused it is committed whatever happens here: with the
    broker down the delivery stays ``pending`` in the log."""
    if not settings.REDIS_URL:
        scheduler.call_at(time.time(), _in_process, delivery_id=delivery_id, retries=0)
        return
    try:
        deliver_webhook.delay(delivery_id)
    except (redis.RedisError, OperationalError, OSError):
        log.warning("webhook delivery %s not queued: the broker is unreachable", delivery_id)


def _in_process(delivery_id: int, retries: int) -> None:
    """The Celery task's twin for the embedded service: the same attempt, the same backoff."""
    try:
        attempt(delivery_id)
    except RetryLater:
        wait = backoff(retries)
        scheduler.call_at(
            time.time() + wait, _in_process, delivery_id=delivery_id, retries=retries + 1
        )


def on_tournament_event(
    sender: Any, tournament_id: int, event: str, data: dict[str, Any], **kwargs: Any
) -> None:
    """``tournament_event`` receiver: one delivery per active endpoint subscribed to it."""
    with transaction.atomic():
        endpoints = [
            endpoint
            for endpoint in WebhookEndpoint.objects.filter(tournament_id=tournament_id, active=True)
            if event in endpoint.events
        ]
        if not endpoints:
            return
        tournament = Tournament.objects.get(pk=tournament_id)
        payload = _payload(tournament, event, data)
        for endpoint in endpoints:
            _queue(endpoint, event, payload)


def connect() -> None:
    tournament_event.connect(on_tournament_event, dispatch_uid="tournaments.webhooks.services")


def deliveries(endpoint: WebhookEndpoint) -> Any:
    return endpoint.deliveries.order_by("-created", "-pk")
