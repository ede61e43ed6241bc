"""One webhook delivery attempt: the address checked, the body signed, sent, its status kept.

Signing is the Standard Webhooks spec's (the ``standardwebhooks`` package): headers
``webhook-id`` (the delivery's, the same on every retry), ``webhook-timestamp`` (the
attempt's, in seconds) and ``webhook-signature: v1,<base64 HMAC-SHA256>`` of
``id.timestamp.body``, keyed by the base64-decoded part of the ``whsec_`` secret.

A Discord channel's webhook URL gets a readable message (``{"content": ...}``) instead.

Addresses: only http(s) URLs whose host is, or resolves to, a public address (see
``tournaments.webhooks.targets``), checked when the URL is saved and before every attempt,
which then connects to the address it checked. Redirects are never followed: a 3xx is a failed
attempt, so a public URL cannot bounce a delivery into the private network.

Each attempt is one call of ``attempt``, by the Celery task (``tournaments.webhooks.tasks``)
or by the in-process scheduler (``tournaments.webhooks.services``); this module imports
neither.
"""

from __future__ import annotations

import json
import logging
import random
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from standardwebhooks.webhooks import Webhook

from hosting.core.errors import UserError
from notifications import kinds as notice_kinds
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import targets

log = logging.getLogger(__name__)

NOTICE_EVENT = "notice.public"  # a public notice for a Discord channel (tournaments.notices)
TEST_EVENT = "webhook.test"  # what "send test" sends; no endpoint subscribes to it
Status = WebhookDelivery.Status


class RetryLater(Exception):
    """An attempt failed in a way another attempt may not (no answer, a 5xx, a 429...)."""


def check_url(url: str) -> str:
    """The URL if a webhook may be sent there; otherwise a ``UserError`` saying why."""
    url = url.strip()
    targets.resolve(url)
    return url


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
        target = targets.resolve(endpoint.url)
    except UserError as refusal:
        return _finish(delivery, Status.FAILED, error=refusal.message)
    body = body_for(delivery)
    timestamp = int(timezone.now().timestamp())
    headers = {
        "host": target.host_header,
        "content-type": "application/json",
        "user-agent": "GeniusArena-Webhooks/1",
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(endpoint.secret, delivery.message_id, timestamp, body),
    }
    code, error = None, ""
    try:
        # To the address just checked, not the name (which DNS could answer differently now);
        # TLS still sends the name and checks the certificate against it.
        extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
        with httpx.Client(
            timeout=settings.WEBHOOK_TIMEOUT_SECONDS, follow_redirects=False
        ) as client:
            response = client.post(
                target.pinned_url, content=body.encode(), headers=headers, extensions=extensions
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


# -- readable messages (Discord) ----------------------------------------------------------------


def _name(side: dict[str, Any] | None) -> str:
    return side["name"] if side else _("a bye")


def _score(value: float) -> str:
    return f"{value:g}"


def discord_message(event: str, data: dict[str, Any]) -> str:
    """One line a channel reads: what happened, in the endpoint's language."""
    if event == NOTICE_EVENT:  # a public notice (tournaments.notices): kind, label and time
        notice = data["notice"]
        when = notice.get("when")
        moment = datetime.fromtimestamp(when, tz=UTC) if when is not None else None
        return notice_kinds.discord_text(notice["kind"], notice["label"], moment)
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
