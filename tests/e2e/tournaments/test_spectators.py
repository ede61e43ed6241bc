"""Tournament pages in Chromium as spectators see them: every format drawn as the API answers
it, languages, axe-core, phone width, and the embed inside another origin's page."""

from __future__ import annotations

import http.server
import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll
from tests.tournaments.builders import open_tournament, report_top_seed_wins, started, user
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments import services
from tournaments.seasons import services as seasons

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def check(page, name: str, screenshot) -> None:
    """No serious accessibility problem, nothing sideways at 360 px, and the screenshots."""
    assert serious_violations(page) == [], name
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page), name
    screenshot(page, name)


def begun(host, fmt: str, entrants: int, **fields):
    """A started tournament of ``entrants`` players (p<fmt>1 the top seed) run by ``host``."""
    tournament = services.tournament_create(
        organiser=host,
        name=f"{fmt} open",
        slug=fmt.replace("_", "-"),
        format=fmt,
        game="drafting_trios",
        play_online=False,
        **fields,
    )
    services.registration_open(tournament=tournament, by=host)
    for i in range(1, entrants + 1):
        person = user(f"{fmt[:2]}{i}")
        services.entrant_register(tournament=tournament, user=person, rating=3000 - i)
    services.seeding_apply(tournament=tournament, by=host, method="rating")
    return tournament, services.stage_start(tournament=tournament, by=host)


def test_every_format_is_drawn_as_the_api_answers(live_url, new_context, screenshot, catalogues):
    host = user("host", "organiser")
    cup, stage = begun(host, "double_elimination", 8, format_options={"grand_final": "reset"})
    for code in ("W1.1", "W1.2", "W1.3", "W1.4", "L1.1", "W2.1"):
        report_top_seed_wins(stage, code)
    page = new_context().new_page()
    page.goto(f"{live_url}/tournaments/")
    assert page.get_by_role("link", name=cup.name).is_visible()
    check(page, "tournament-list", screenshot)

    page.goto(f"{live_url}/tournaments/{cup.slug}/")
    api = page.request.get(f"{live_url}/api/tournaments/{cup.slug}/").json()
    codes = [m["code"] for r in api["stages"][0]["rounds"] for m in r["matches"]]
    assert page.locator("article.match").count() == len(codes)
    w11 = page.locator("#match-W1\\.1")
    assert "✓" in w11.inner_text() and "do1" in w11.inner_text()
    check(page, "tournament-double-elimination", screenshot)

    swiss, swiss_stage = begun(host, "swiss", 12, tiebreaks=["buchholz", "sonneborn_berger"])
    for match in swiss_stage.matches.filter(round__number=1):
        report_top_seed_wins(swiss_stage, match.code)
    page.goto(f"{live_url}/tournaments/{swiss.slug}/")
    api = page.request.get(f"{live_url}/api/tournaments/{swiss.slug}/").json()
    for round_ in api["stages"][0]["rounds"]:
        for match in round_["matches"]:
            row = page.locator(f"[id='match-{match['code']}']")
            assert match["home"]["name"] in row.inner_text()
            assert match["away"]["name"] in row.inner_text()
    standings = page.request.get(f"{live_url}/api/tournaments/{swiss.slug}/standings").json()
    names = page.locator(".standings-table tbody tr td:nth-child(2)").all_inner_texts()
    assert names == [row["name"] for row in standings["standings"]]
    check(page, "tournament-swiss", screenshot)

    robin, robin_stage = begun(host, "round_robin", 6, tiebreaks=["sonneborn_berger"])
    for match in robin_stage.matches.filter(round__number=1):
        report_top_seed_wins(robin_stage, match.code)
    page.goto(f"{live_url}/tournaments/{robin.slug}/")
    assert page.locator("table.crosstable tbody tr").count() == 6
    check(page, "tournament-round-robin", screenshot)


def test_the_season_board_in_portuguese_and_russian(live_url, new_context, screenshot, catalogues):
    tournament, cast = open_tournament("genius", 6, game="drafting_trios", format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    seasons.ledger_record(
        tournament=tournament,
        by=tournament.organiser,
        kind="award",
        entrant=cast[5].pk,
        amount=7,
        reason="MM",
    )
    play_episode(tournament, episode, dm_draw=True)
    second = tournament.episodes.get(number=2)
    seasons.sealed_open(
        episode=second,
        by=tournament.organiser,
        prompt="1-10?",
        deadline=timezone.now() + timedelta(hours=1),
    )
    for locale, words in (("pt-BR", "O elenco"), ("ru-RU", "Состав участников")):
        page = new_context(locale=locale).new_page()
        page.goto(f"{live_url}/tournaments/{tournament.slug}/")
        assert page.get_by_role("heading", name=words).is_visible()
        check(page, f"tournament-season-{locale[:2]}", screenshot)
    page = new_context().new_page()
    page.goto(f"{live_url}/tournaments/{tournament.slug}/")
    assert "Eliminated in episode 1" in page.locator(".season-cast").inner_text()
    check(page, "tournament-season", screenshot)


class _OtherSite(http.server.BaseHTTPRequestHandler):
    page = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args: object) -> None:
        pass


def test_the_embed_renders_inside_another_sites_iframe(live_url, new_context, screenshot):
    cup, stage, _ = started("single_elimination", 4, game="drafting_trios")
    report_top_seed_wins(stage, "W1.1")
    src = f"{live_url}/tournaments/{cup.slug}/embed"
    snippet = f'<iframe src="{src}" title="Cup" width="100%" height="500"></iframe>'
    _OtherSite.page = f"<!doctype html><title>Fan site</title><h1>Our cup</h1>{snippet}".encode()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _OtherSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = new_context().new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        frame = page.frame_locator("iframe")
        assert frame.locator("#match-W1\\.1").inner_text().count("✓") == 1
        # The tournament page itself refuses to be framed.
        detail = page.request.get(f"{live_url}/tournaments/{cup.slug}/")
        assert detail.headers["x-frame-options"] == "DENY"
        screenshot(page, "tournament-embed")
        # Live inside the frame: the next result appears without a reload.
        report_top_seed_wins(stage, "W1.2")
        final = frame.locator("#match-W2\\.1")
        final.get_by_text("p2").wait_for()
        assert services.standings(tournament=cup)
    finally:
        server.shutdown()
