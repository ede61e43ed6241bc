"""Issue #28 in the browser: two players in different time zones agree a slot, each reading it
in their own zone with the zone's name; a player seated in a hosted main match is told at
once, without reloading (the header's bell, over SSE)."""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, timedelta

from django.utils import translation
from playwright.sync_api import expect

from notifications import zones
from notifications.models import Reader
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll, save_screenshots
from tests.e2e.games import PHONE_OPTIONS
from tests.tournaments.builders import open_tournament, user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import Match, MatchSlot
from tournaments.scheduling import services as slots
from tournaments.seasons import services as seasons

SEOUL = zoneinfo.ZoneInfo("Asia/Seoul")
SAO_PAULO = zoneinfo.ZoneInfo("America/Sao_Paulo")


def _in_english(moment: datetime, zone: zoneinfo.ZoneInfo) -> str:
    with translation.override("en"):
        return zones.say(moment, zone)


def test_two_players_in_seoul_and_sao_paulo_agree_a_slot(live_url, new_context, sign_in):
    tournament, players = open_tournament("single_elimination", 2)
    services.stage_start(tournament=tournament, by=tournament.organiser)
    match = Match.objects.get(stage__tournament=tournament)
    now = slots.clock.moment()
    slots.slot_open(
        match=match,
        by=tournament.organiser,
        window_opens=now,
        window_closes=now + timedelta(days=4),
        default_rule=MatchSlot.DefaultRule.ORGANISER,
    )
    slot_url = f"{live_url}/tournaments/{tournament.slug}/matches/{match.code}/slot"
    pages = {}
    for entrant, zone in ((players[0], "Asia/Seoul"), (players[1], "America/Sao_Paulo")):
        context = new_context(timezone_id=zone)
        sign_in(context, live_url, entrant.user)
        page = context.new_page()
        page.goto(f"{live_url}/")  # the browser's zone is told on the first visit
        page.goto(slot_url)
        assert Reader.objects.get(user=entrant.user).zone == zone
        assert f"your zone: {zone}" in page.locator(".zone-note").inner_text()
        pages[zone] = page
    seoul, sao_paulo = pages["Asia/Seoul"], pages["America/Sao_Paulo"]

    # Ana in Seoul proposes 20:00 the day after tomorrow, her time.
    day = (now.astimezone(SEOUL) + timedelta(days=2)).date()
    proposed = datetime(day.year, day.month, day.day, 20, 0, tzinfo=SEOUL)
    seoul.fill("#slot-at", proposed.strftime("%Y-%m-%dT%H:%M"))
    seoul.get_by_role("button", name="Propose").click()
    assert _in_english(proposed, SEOUL) in seoul.locator(".proposals").inner_text()

    # Bruno in São Paulo, without reloading, reads the same moment at 08:00 his time, and
    # accepts it.
    said = _in_english(proposed, SAO_PAULO)
    assert "8 a.m." in said and "(America/Sao_Paulo)" in said
    expect(sao_paulo.locator(".proposals")).to_contain_text(said, timeout=10_000)
    sao_paulo.get_by_role("button", name="Accept this time").click()
    assert said in sao_paulo.locator("[data-slot-at]").inner_text()
    expect(seoul.locator("[data-slot-at]")).to_contain_text(
        _in_english(proposed, SEOUL), timeout=10_000
    )
    assert MatchSlot.objects.get(match=match).at == proposed
    # The countdown ticks in the reader's language.
    expect(seoul.locator(".countdown")).to_contain_text(re.compile(r"in (2 days|1 day)"))
    for page in (seoul, sao_paulo):
        assert no_horizontal_scroll(page)
        assert serious_violations(page) == []
    save_screenshots(seoul, "slot-agreed-seoul")
    # Both were told on the site: the bell counts the agreement.
    assert seoul.locator(".bell-count").inner_text() != ""


def test_a_seated_player_of_a_hosted_main_match_is_told_without_reloading(
    live_url, new_context, sign_in
):
    host = user("host", "organiser")
    season = services.tournament_create(
        organiser=host,
        name="Season",
        slug="season",
        game="color_clash",
        format="genius",
        format_options=RULES,
        play_online=True,
        seed_window_seconds=30,
    )
    services.registration_open(tournament=season, by=host)
    cast = [
        services.entrant_register(tournament=season, user=user(f"cast{i}"), rating=100 - i)
        for i in range(1, 5)
    ]
    services.seeding_apply(tournament=season, by=host, method="rating")
    episode = seasons.season_start(tournament=season, by=host)
    context = new_context(**PHONE_OPTIONS)
    sign_in(context, live_url, cast[0].user)
    page = context.new_page()
    page.goto(f"{live_url}/tournaments/{season.slug}/")
    bell = page.locator("[data-notice-bell]")
    bell.and_(page.locator("[data-connected='1']")).wait_for()
    before = int(page.locator(".bell-count").text_content() or 0)  # the season's start

    seasons.main_match_game(episode=episode, by=host, engine="color_clash")

    page.locator(".bell-count", has_text=str(before + 1)).wait_for()
    told = page.locator("#notice-live")
    told.wait_for()
    assert "has started" in told.inner_text() and "Color Clash" in told.inner_text()
    save_screenshots(page, "main-match-notice")
    page.locator("[data-notice-bell]").click()
    link = page.locator(".notice-list a", has_text="Color Clash")
    assert link.count() == 1
    link.click()
    assert "/games/" in page.url
