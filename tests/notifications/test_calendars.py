"""The calendar feeds parse back, with ``icalendar``, to the same events in their zones; a
revoked private address is a 404."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from icalendar import Calendar

from notifications import services
from notifications.models import Reader
from tests.tournaments.builders import open_tournament
from tournaments import services as tournament_services
from tournaments.models import Episode, Match, MatchSlot, Tournament

pytestmark = pytest.mark.django_db
CHECK_IN = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)


def _scheduled():
    tournament, players = open_tournament("single_elimination", 2)
    Tournament.objects.filter(pk=tournament.pk).update(
        check_in_opens=CHECK_IN, check_in_closes=CHECK_IN + timedelta(hours=1)
    )
    tournament_services.stage_start(tournament=tournament, by=tournament.organiser)
    match = Match.objects.get(stage__tournament=tournament)
    slot_at = datetime(2026, 12, 12, 11, 30, tzinfo=UTC)
    MatchSlot.objects.create(
        match=match, window_opens=CHECK_IN, window_closes=slot_at, at=slot_at, how="players"
    )
    Episode.objects.create(tournament=tournament, number=1, mm_deadline=slot_at)
    return tournament, players, slot_at


def _events(body: bytes) -> dict[str, tuple]:
    cal = Calendar.from_ical(body)
    return {
        str(e["uid"]): (str(e["summary"]), e.decoded("dtstart"), e.decoded("dtend"))
        for e in cal.walk("VEVENT")
    }


def test_a_private_feed_parses_back_in_the_readers_zone_and_revoked_is_404():
    tournament, players, slot_at = _scheduled()
    ana = players[0].user
    Reader.objects.create(user=ana, zone="Asia/Seoul")
    token = services.calendar_token_new(user=ana)
    client = Client()
    answer = client.get(f"/calendar/{token}.ics")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    events = _events(answer.content)
    seoul = zoneinfo.ZoneInfo("Asia/Seoul")
    summary, start, end = events[f"check-in-{tournament.pk}@genius-arena"]
    assert (start, end) == (CHECK_IN, CHECK_IN + timedelta(hours=1))
    assert start.tzinfo.key == "Asia/Seoul"  # said in the reader's zone, not in UTC
    summary, start, end = events[f"match-{Match.objects.get().pk}@genius-arena"]
    assert start == slot_at and start.tzinfo == seoul
    assert "W1.1" in summary and "p1" in summary and "p2" in summary
    assert Calendar.from_ical(answer.content).walk("VTIMEZONE")  # the zone travels with it
    # A new address: the old one is gone; revoked: gone too.
    newer = services.calendar_token_new(user=ana)
    assert client.get(f"/calendar/{token}.ics").status_code == 404
    services.calendar_token_revoke(user=ana)
    assert client.get(f"/calendar/{newer}.ics").status_code == 404


def test_a_tournaments_public_feed_holds_its_public_times():
    tournament, _players, slot_at = _scheduled()
    answer = Client().get(f"/tournaments/{tournament.slug}/calendar.ics")
    assert answer.status_code == 200
    events = _events(answer.content)
    assert len(events) == 3  # check-in, the agreed match, the main match deadline
    assert {start for _s, start, _e in events.values()} == {CHECK_IN, slot_at}
