"""Calendar feeds (iCalendar, with the ``icalendar`` library): a private one per person
(``/calendar/<token>.ics``: their matches' agreed slots, deadlines and check-in windows, in
their own zone) and a public one per tournament (``/tournaments/<slug>/calendar.ics``: what
any spectator sees, in UTC). The private token is made and revoked on the notification
settings page (``notifications.services``); a revoked one is a 404.

Every event has a stable UID, so a calendar app updates it in place when the schedule changes.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from hosting.core.errors import NotFound
from notifications import services as notices
from notifications import zones
from tournaments import selectors
from tournaments.models import Entrant, Episode, MatchSlot, Tournament

MATCH_LENGTH = timedelta(hours=1)  # an agreed slot is shown as an hour


@dataclass(frozen=True)
class Item:
    uid: str
    summary: str
    start: datetime
    end: datetime
    url: str = ""


def _tournament_items(tournament: Tournament, slots: Any) -> list[Item]:
    url = f"/tournaments/{tournament.slug}/"
    items = []
    if tournament.check_in_opens and tournament.check_in_closes:
        items.append(
            Item(
                f"check-in-{tournament.pk}",
                _("%(name)s: check-in") % {"name": tournament.name},
                tournament.check_in_opens,
                tournament.check_in_closes,
                url,
            )
        )
    if tournament.registration_closes:
        items.append(
            Item(
                f"registration-{tournament.pk}",
                _("%(name)s: registration closes") % {"name": tournament.name},
                tournament.registration_closes,
                tournament.registration_closes,
                url,
            )
        )
    for episode in Episode.objects.filter(tournament=tournament):
        for field, text in (
            ("mm_deadline", _("%(name)s, episode %(number)s: main match deadline")),
            ("dmo_deadline", _("%(name)s, episode %(number)s: Death Match opponent deadline")),
        ):
            moment = getattr(episode, field)
            if moment:
                items.append(
                    Item(
                        f"{field}-{episode.pk}",
                        text % {"name": tournament.name, "number": episode.number},
                        moment,
                        moment,
                        url,
                    )
                )
    for slot in slots:
        match = slot.match
        items.append(
            Item(
                f"match-{match.pk}",
                _("%(name)s: match %(code)s, %(home)s v %(away)s")
                % {
                    "name": tournament.name,
                    "code": match.code,
                    "home": match.home.display_name if match.home else "?",
                    "away": match.away.display_name if match.away else "?",
                },
                slot.at,
                slot.at + MATCH_LENGTH,
                url,
            )
        )
    return items


def _slots(**filters: Any) -> Any:
    return MatchSlot.objects.filter(at__isnull=False, **filters).select_related(
        "match__home", "match__away", "match__stage"
    )


def user_items(user: Any) -> list[Item]:
    entries = Entrant.objects.filter(
        Q(user=user) | Q(partner=user),
        status__in=(Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN),
    ).select_related("tournament")
    items = []
    for entry in entries:
        mine = _slots(match__stage__tournament=entry.tournament).filter(
            Q(match__home=entry) | Q(match__away=entry)
        )
        items += _tournament_items(entry.tournament, mine)
    return items


def render(items: list[Item], name: str, zone: zoneinfo.ZoneInfo, base: str) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//Genius Arena//calendar//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", zone.key)
    for item in items:
        event = Event()
        event.add("uid", f"{item.uid}@genius-arena")
        event.add("summary", item.summary)
        event.add("dtstart", item.start.astimezone(zone))
        event.add("dtend", max(item.end, item.start).astimezone(zone))
        event.add("dtstamp", item.start)
        if item.url:
            event.add("url", base + item.url)
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()


def _answer(body: bytes) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    return response


def private_feed(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user = notices.user_for_calendar(token)
    except NotFound:
        raise Http404 from None
    zone = zones.of_user(user)
    name = _("Genius Arena: %(name)s") % {"name": user.get_username()}
    base = request.build_absolute_uri("/").rstrip("/")
    return _answer(render(user_items(user), name, zone, base))


def tournament_feed(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        tournament = selectors.visible_tournament(slug, request.user)
    except NotFound:
        raise Http404 from None
    items = _tournament_items(tournament, _slots(match__stage__tournament=tournament))
    base = request.build_absolute_uri("/").rstrip("/")
    return _answer(render(items, tournament.name, zoneinfo.ZoneInfo("UTC"), base))
