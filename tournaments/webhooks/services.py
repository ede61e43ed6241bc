"""Organisers' webhooks: a tournament's events, signed and sent to the URLs its organiser set.

An endpoint subscribes to some of ``tournaments.events.EVENTS``. When the services emit one
(after their commit), ``on_tournament_event`` records a ``WebhookDelivery`` per subscribed
endpoint and queues ``tournaments.webhooks.tasks.deliver_webhook``; each attempt is one call of
``attempt`` here, and a failed one is retried by Celery with exponential backoff.

Signing is the Standard Webhooks spec's (the ``standardwebhooks`` package): headers
``webhook-id`` (the delivery's, the same on every retry), ``webhook-timestamp`` (the
attempt's, in seconds) and ``webhook-signature: v1,<base64 HMAC-SHA256>`` of
``id.timestamp.body``, keyed by the base64-decoded part of the ``whsec_`` secret.

A Discord channel's webhook URL gets a readable message (``{"content": ...}``) instead.

Addresses: only http(s) URLs; in production (``WEBHOOK_PRIVATE_TARGETS`` off) a host that
resolves to a loopback, private, link-local or otherwise non-public address is refused, both
when the URL is saved and before every attempt (a name may resolve elsewhere later).
Redirects are never followed: a 3xx is a failed attempt, so a public URL cannot bounce a
delivery into the private network. (The check and the connection resolve the name
separately: a name whose DNS answers change between the two within a second could still slip
through; a proxy that enforces the same rule closes that gap where it matters.)
"""

from __future__ import annotations

import base64
import ipaddress
import json
import logging
import random
import secrets
import socket
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import redis
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError
from standardwebhooks.webhooks import Webhook

from hosting.core.errors import NotFound, UserError
from hosting.core.scheduling import scheduler
from tournaments import services
from tournaments.events import EVENTS, tournament_event
from tournaments.models import Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks.tasks import deliver_webhook

log = logging.getLogger(__name__)

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
TEST_EVENT = "webhook.test"  # what "send test" sends; no endpoint subscribes to it
MAX_ENDPOINTS = 10  # per tournament
DELIVERIES_SHOWN = 50
Status = WebhookDelivery.Status


class RetryLater(Exception):
    """An attempt failed in a way another attempt may not (no answer, a 5xx, a 429...)."""


# -- endpoints ----------------------------------------------------------------------------------


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _addresses(host: str, port: int) -> list[str]:
    try:
        return [info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
    except (OSError, UnicodeError):
        raise UserError(
            _("the webhook's host %(host)r does not resolve") % {"host": host}
        ) from None


def check_url(url: str) -> str:
    """The URL if a webhook may be sent there; otherwise a ``UserError`` saying why."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UserError(_("the webhook URL is not a valid URL")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(_("a webhook URL starts with http:// or https:// and names a host"))
    if parts.username or parts.password:
        raise UserError(_("a webhook URL carries no user name or password"))
    if not settings.WEBHOOK_PRIVATE_TARGETS:
        for address in _addresses(parts.hostname, port):
            if not _public(address):
                raise UserError(
                    f"the webhook's host resolves to {address}, which is not a public address"
                )
    return url


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
        tournament = services._lock(tournament)
        services.check_runs(tournament, by)
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
        services.audit(tournament, by, "webhook.created", webhook=endpoint.pk, host=_host(url))
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
        services.check_runs(services._lock(endpoint.tournament), by)
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
        services.audit(endpoint.tournament, by, "webhook.edited", webhook=endpoint.pk, **changed)
        return endpoint


def endpoint_delete(*, endpoint: WebhookEndpoint, by: Any) -> None:
    with transaction.atomic():
        services.check_runs(services._lock(endpoint.tournament), by)
        services.audit(
            endpoint.tournament,
            by,
            "webhook.deleted",
            webhook=endpoint.pk,
            host=_host(endpoint.url),
        )
        endpoint.delete()


def endpoint_for(tournament: Tournament, endpoint_id: int, user: Any) -> WebhookEndpoint:
    """One of the tournament's endpoints, for those who run it (anyone else: a 403)."""
    services.check_runs(tournament, user)
    endpoint = tournament.webhooks.filter(pk=endpoint_id).first()
    if endpoint is None:
        raise NotFound(_("no webhook %(id)s in this tournament") % {"id": endpoint_id})
    return endpoint


def send_test(*, endpoint: WebhookEndpoint, by: Any) -> WebhookDelivery:
    """Queue a ``webhook.test`` delivery to the endpoint, active or not."""
    services.check_runs(endpoint.tournament, by)
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


def backoff(retries: int) -> float:
    """Seconds before the next attempt after ``retries`` retries: Celery's ``retry_backoff``
    (the factor doubled each time, up to a maximum, full jitter), with a factor in seconds
    that may be a fraction (Celery's own rounds it up to whole seconds)."""
    wait = min(
        settings.WEBHOOK_RETRY_BACKOFF_MAX_SECONDS,
        settings.WEBHOOK_RETRY_BACKOFF_SECONDS * 2**retries,
    )
    return random.uniform(0, wait) if settings.WEBHOOK_RETRY_JITTER else wait


def is_discord(url: str) -> bool:
    parts = urlsplit(url)
    return (parts.hostname or "") in settings.WEBHOOK_DISCORD_HOSTS and parts.path.startswith(
        "/api/webhooks/"
    )


def sign(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """``v1,<signature>`` for one attempt, as the spec's reference library computes it."""
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return Webhook(secret).sign(msg_id=message_id, timestamp=moment, data=body)


def body_for(delivery: WebhookDelivery) -> str:
    if is_discord(delivery.endpoint.url):
        with translation.override(delivery.endpoint.language):
            content = discord_message(delivery.event, delivery.payload["data"])
        # No @everyone or role pings from a player's display name.
        return json.dumps({"content": content, "allowed_mentions": {"parse": []}})
    # Sorted keys: every attempt sends (and signs) the same bytes.
    return json.dumps(delivery.payload, sort_keys=True, separators=(",", ":"))


def attempt(delivery_id: int) -> str:
    """Send one delivery once; its status afterwards. Raises ``RetryLater`` when the attempt
    failed and another may succeed (unless the attempts are used up).

    Delivery is at least once, as the spec has it: a task Redis hands out twice may send a
    delivery twice, with the same ``webhook-id`` for the receiver to recognise."""
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status in (Status.DELIVERED, Status.FAILED):
        return delivery.status if delivery else "gone"  # a repeat of the task: nothing to do
    endpoint = delivery.endpoint
    if not endpoint.active and delivery.event != TEST_EVENT:
        return _finish(delivery, Status.FAILED, error="the webhook was switched off")
    try:
        check_url(endpoint.url)
    except UserError as refusal:
        return _finish(delivery, Status.FAILED, error=refusal.message)
    body = body_for(delivery)
    timestamp = int(timezone.now().timestamp())
    headers = {
        "content-type": "application/json",
        "user-agent": "GeniusArena-Webhooks/1",
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(endpoint.secret, delivery.message_id, timestamp, body),
    }
    code, error = None, ""
    try:
        response = httpx.post(
            endpoint.url,
            content=body.encode(),
            headers=headers,
            timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
            follow_redirects=False,
        )
        code = response.status_code
    except httpx.HTTPError as failure:
        error = f"no answer: {type(failure).__name__} {failure}".strip()[:300]
    attempts = delivery.attempts + 1
    if code is not None and 200 <= code < 300:
        return _finish(delivery, Status.DELIVERED, code=code, attempts=attempts)
    if code == 410:  # Gone: the receiver asks never to be sent anything again
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False)
        return _finish(delivery, Status.FAILED, code=code, attempts=attempts, error="410 Gone")
    error = error or f"answered HTTP {code}"
    if attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        return _finish(delivery, Status.FAILED, code=code, attempts=attempts, error=error)
    _finish(delivery, Status.RETRYING, code=code, attempts=attempts, error=error)
    raise RetryLater(error)


def _finish(
    delivery: WebhookDelivery,
    status: str,
    *,
    code: int | None = None,
    attempts: int | None = None,
    error: str = "",
) -> str:
    now = timezone.now()
    fields: dict[str, Any] = {"status": status, "response_code": code, "error": error}
    if attempts is not None:
        fields |= {"attempts": attempts, "last_attempt_at": now}
    if status == Status.DELIVERED:
        fields["delivered_at"] = now
    WebhookDelivery.objects.filter(pk=delivery.pk).update(**fields)
    if status == Status.FAILED:
        log.info("webhook delivery %s failed: %s", delivery.message_id, error)
    return status


def deliveries(endpoint: WebhookEndpoint) -> Any:
    return endpoint.deliveries.order_by("-created", "-pk")


# -- readable messages (Discord) ----------------------------------------------------------------


def _name(side: dict[str, Any] | None) -> str:
    return side["name"] if side else _("a bye")


def _score(value: float) -> str:
    return f"{value:g}"


def discord_message(event: str, data: dict[str, Any]) -> str:
    """One line a channel reads: what happened, in the endpoint's language."""
    tournament = data["tournament"]["name"]
    match = data.get("match") or {}
    names = {
        "tournament": f"**{tournament}**",
        "code": match.get("code", ""),
        "home": _name(match.get("home")),
        "away": _name(match.get("away")),
    }
    if event == "tournament.started":
        return _("%(tournament)s has started.") % names
    if event == "tournament.finished":
        return _("%(tournament)s has finished.") % names
    if event == "match.ready":
        return _("%(tournament)s: match %(code)s is ready, %(home)s v %(away)s.") % names
    if event == "match.reset":
        return _("%(tournament)s: match %(code)s was reset by a correction.") % names
    if event == "match.result":
        if match.get("winner") is None:
            return _("%(tournament)s: %(home)s and %(away)s drew match %(code)s.") % names
        home_won = match["winner"] == (match.get("home") or {}).get("id")
        winner, loser = ("home", "away") if home_won else ("away", "home")
        # The winner's score first.
        score = "-".join(_score(match.get(f"{side}_score", 0)) for side in (winner, loser))
        return _("%(tournament)s: %(winner)s beat %(loser)s in match %(code)s (%(score)s).") % (
            names | {"winner": names[winner], "loser": names[loser], "score": score}
        )
    if event == "dispute.filed":
        return _("%(tournament)s: a dispute was filed.") % names
    if event == "dispute.ruled":
        return _("%(tournament)s: a dispute was ruled on.") % names
    if event == TEST_EVENT:
        return _("%(tournament)s: this is a test message from the tournament's webhook.") % names
    return f"{names['tournament']}: {event}"
