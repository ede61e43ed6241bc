"""Tournaments tell their players through ``notifications`` (the app below games): this module
turns a tournament's committed events into notices, and gives notifications the one way to a
tournament's Discord channel (its Discord webhooks), for public notices only.

Connected in ``tournaments.receivers``:
- ``tournament_event`` ``match.ready`` -> each player of the match: "your match is ready";
  ``match.result`` -> "the result is recorded"; ``dispute.ruled`` -> "the dispute is decided";
  ``tournament.started`` -> every entrant: "the pairings are out" (one insert for all).
- ``notifications.services.connect_discord`` -> ``post_to_discord``.
A tournament's check-in window arms reminders for its entrants (``arm_check_in_reminders``).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from notifications import clock
from notifications import services as notices
from notifications.models import Kind, Reminder
from tournaments.models import (
    Entrant,
    Episode,
    Match,
    Tournament,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.webhooks.delivery import NOTICE_EVENT, is_discord
from tournaments.webhooks.services import _send

ACTIVE = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN)
log = logging.getLogger(__name__)


def tournament_about(tournament: Tournament, key: str | None = None) -> notices.About:
    return notices.About(
        key=key or f"tournament:{tournament.pk}",
        label=tournament.name,
        url=reverse("tournament-detail", args=[tournament.slug]),
        tournament_id=tournament.pk,
    )


def match_about(match: Match) -> notices.About:
    tournament = match.stage.tournament
    return notices.About(
        key=f"match:{match.pk}",
        label=f"{tournament.name} · {match.code}",
        url=reverse("tournament-detail", args=[tournament.slug]),
        tournament_id=tournament.pk,
    )


def _users(*entrants: Entrant | None) -> list[Any]:
    users = []
    for entrant in entrants:
        if entrant is None:
            continue
        users.append(entrant.user)
        if entrant.partner_id:
            users.append(entrant.partner)
    return users


def on_tournament_event(
    sender: Any, tournament_id: int, event: str, data: dict[str, Any], **kwargs: Any
) -> None:
    """``tournament_event`` receiver. It never raises: a failure here is logged, and the
    receivers after it (the webhooks) still hear the event."""
    try:
        tell(tournament_id, event, data)
    except Exception:
        log.exception("tournament %s: notices of %s not sent", tournament_id, event)


def tell(tournament_id: int, event: str, data: dict[str, Any]) -> None:
    match_data = data.get("match")
    code = match_data.get("code") if isinstance(match_data, dict) else None
    if event in ("match.ready", "match.result") and code:
        match = (
            Match.objects.select_related("stage__tournament", "home__user", "away__user")
            .filter(stage__tournament_id=tournament_id, code=code)
            .order_by("-stage__number")
            .first()
        )
        if match is None:
            return
        kind = Kind.MATCH_READY if event == "match.ready" else Kind.RESULT_RECORDED
        about = match_about(match)
        for user in _users(match.home, match.away):
            notices.notify(user, kind, about, key=f"{kind}:{about.key}:{user.pk}:{match.status}")
    elif event == "dispute.ruled" and isinstance(data.get("match"), str):
        match = (
            Match.objects.select_related("stage__tournament", "home__user", "away__user")
            .filter(stage__tournament_id=tournament_id, code=data["match"])
            .order_by("-stage__number")
            .first()
        )
        if match is None:
            return
        about = match_about(match)
        about = notices.About(
            key=f"dispute:{data.get('dispute')}",
            label=about.label,
            url=reverse("dispute-page", args=[data["dispute"]]) if data.get("dispute") else "",
            tournament_id=tournament_id,
        )
        for user in _users(match.home, match.away):
            notices.notify(user, Kind.DISPUTE_DECIDED, about)
    elif event == "tournament.started":
        tournament = Tournament.objects.get(pk=tournament_id)
        users = list(
            tournament.entrants.filter(status__in=ACTIVE).values_list("user_id", flat=True)
        )
        notices.notify_many(users, Kind.PAIRINGS, tournament_about(tournament))


def on_rules_changed(
    sender: object, tournament: Tournament, version: Any, players: list[int], **kwargs: object
) -> None:
    """A season's rules have a new version: the players still in are told once per version
    (the notice names the season and links its rules page; what changed is read there)."""
    about = notices.About(
        key=f"rules:{tournament.pk}:{version.pk}",
        label=tournament.name,
        url=reverse("season-rules", args=[tournament.slug]),
        tournament_id=tournament.pk,
    )
    notices.notify_many(players, Kind.RULES_CHANGED, about)


def arm_check_in_reminders(tournament: Tournament) -> int:
    """Remind every entrant when check-in opens and ten minutes before it closes; reminders
    armed for times since changed are cancelled (a reminder is keyed by its time)."""
    armed = 0
    about = tournament_about(tournament, f"check-in:{tournament.pk}")
    times = {
        Kind.CHECK_IN_OPENS: (tournament.check_in_opens, timedelta(0)),
        Kind.CHECK_IN_CLOSES: (tournament.check_in_closes, timedelta(minutes=10)),
    }
    for kind, (when, _before) in times.items():
        stale = Reminder.objects.filter(about=about.key, kind=kind, state=Reminder.State.PENDING)
        (stale.exclude(event=when) if when else stale).update(state=Reminder.State.CANCELLED)
    entrants = tournament.entrants.filter(status__in=ACTIVE).select_related("user")
    for entrant in entrants:
        for kind, (when, before) in times.items():
            if when and when - before > clock.moment():
                notices.remind(entrant.user, kind, about, when, before=before)
                armed += 1
    return armed


def arm_episode_reminders(episode: Episode) -> int:
    """A season's deadlines: each player still in is reminded an hour before the sealed
    answers are due (unless they have answered), and the EC before their pick is due."""
    tournament = episode.tournament
    armed = 0
    url = reverse("tournament-detail", args=[tournament.slug])
    label = f"{tournament.name} · {episode.number}"
    if episode.mm_deadline and episode.mm_deadline - timedelta(hours=1) > clock.moment():
        about = notices.About(f"episode-mm:{episode.pk}", label, url, tournament.pk)
        answered = set(episode.submissions.values_list("entrant_id", flat=True))
        still_in = tournament.entrants.filter(status__in=ACTIVE, eliminated_in__isnull=True)
        for entrant in still_in.exclude(pk__in=answered).select_related("user"):
            notices.remind(
                entrant.user, Kind.SEALED_DUE, about, episode.mm_deadline, before=timedelta(hours=1)
            )
            armed += 1
    if episode.dmo_deadline and episode.dmo_deadline - timedelta(hours=1) > clock.moment():
        about = notices.About(f"episode-dmo:{episode.pk}", label, url, tournament.pk)
        for entrant in Entrant.objects.filter(pk__in=episode.ecs).select_related("user"):
            notices.remind(
                entrant.user,
                Kind.DEADLINE_1H,
                about,
                episode.dmo_deadline,
                before=timedelta(hours=1),
            )
            armed += 1
    return armed


def arm_reminders() -> int:
    """Beat's sweep (``tournaments.slots_settle``): the reminders of every open tournament's
    check-in and every running season's deadlines, armed once each (reminders are keyed)."""
    armed = 0
    moment = clock.moment()
    open_ = Tournament.objects.filter(
        status__in=(Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN),
        check_in_closes__gt=moment,
    )
    for tournament in open_:
        armed += arm_check_in_reminders(tournament)
    episodes = (
        Episode.objects.exclude(status=Episode.Status.FINISHED)
        .filter(Q(mm_deadline__gt=moment) | Q(dmo_deadline__gt=moment))
        .select_related("tournament")
    )
    for episode in episodes:
        armed += arm_episode_reminders(episode)
    return armed


def post_to_discord(*, tournament_id: int, kind: str, label: str, when: datetime | None) -> int:
    """A public notice, to each active Discord webhook of the tournament (in its language:
    ``tournaments.webhooks.delivery.body_for``). The payload holds the kind, the public
    label and the time: nothing else of the notice, and nothing of any player's hand."""
    endpoints = [
        e
        for e in WebhookEndpoint.objects.filter(tournament_id=tournament_id, active=True)
        if is_discord(e.url) and NOTICE_EVENT in e.events
    ]
    for endpoint in endpoints:
        payload = {
            "type": NOTICE_EVENT,
            "data": {
                "tournament": {"id": tournament_id},
                "notice": {
                    "kind": kind,
                    "label": label,
                    "when": when.timestamp() if when else None,
                },
            },
        }
        delivery = WebhookDelivery.objects.create(
            endpoint=endpoint,
            message_id=f"msg_{secrets.token_hex(12)}",
            event=NOTICE_EVENT,
            payload=payload,
        )
        transaction.on_commit(lambda pk=delivery.pk: _send(pk))
    return len(endpoints)
