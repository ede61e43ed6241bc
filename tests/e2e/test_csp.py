"""Issue 30, finding 4: every kind of page runs in Chromium under the site's strict
Content-Security-Policy with no violation (``csp_violations`` collects them from the page's
``securitypolicyviolation`` events, the console and the service's own ``/csp-report`` log),
and still works: a move is made on the board, the embed page draws its bracket inside another
site's iframe, the API docs draw the operations."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import services as game_services
from games.invites import invite_for
from tests.e2e.games import create_game, version, wait_for_version
from tests.e2e.test_disputes import death_match_under_way
from tests.e2e.test_drafting_trios import act_if_asked
from tests.e2e.test_finished_games import play_out
from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import report_top_seed_wins, user
from tournaments import services
from tournaments.disputes import services as disputes


@contextlib.contextmanager
def other_site(frame_src: str) -> Iterator[str]:
    """Another loopback origin whose page frames ``frame_src``: a site embedding ours."""
    page = (
        '<!doctype html><html lang="en"><title>Another site</title>'
        f'<iframe src="{frame_src}" title="Embedded" width="900" height="600"></iframe></html>'
    ).encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def tournament(host, players, fmt: str, **fields):
    """A started tournament of ``fmt`` with the players seeded by rating."""
    made = services.tournament_create(
        organiser=host, name=f"{fmt} open", slug=fmt.replace("_", "-"), format=fmt,
        game="high_card", seed_window_seconds=0, **fields,
    )  # fmt: skip
    services.registration_open(tournament=made, by=host)
    for rank, person in enumerate(players):
        services.entrant_register(tournament=made, user=person, rating=3000 - rank)
    services.seeding_apply(tournament=made, by=host, method="rating")
    stage = services.stage_start(tournament=made, by=host)
    return made, stage


def visit(page, url: str, ready: str, seen: list[str]) -> None:
    """Open a page and wait until its scripts have drawn ``ready``."""
    page.goto(url)
    try:
        page.locator(ready).first.wait_for()
    except PlaywrightError as error:
        raise AssertionError(f"{url} did not show {ready}") from error
    page.wait_for_timeout(150)  # modules and live streams start
    seen.append(url)


def test_the_witnesses_see_an_inline_style_an_inline_script_and_a_refused_frame(
    live_url, new_context, csp_violations
):
    """The policy is enforced and every witness reports: without this, 0 violations below
    could mean that nothing was watching."""
    page = new_context().new_page()
    page.goto(f"{live_url}/")
    page.evaluate(
        """() => {
          document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: red">x</p>');
          const script = document.createElement("script");
          script.textContent = "window.__ran = true";
          document.body.append(script);
        }"""
    )
    assert page.evaluate("window.__ran === undefined")
    assert page.locator("#styled").evaluate("e => getComputedStyle(e).color") != "rgb(255, 0, 0)"
    with other_site(f"{live_url}/games/") as site:
        framed = new_context().new_page()
        framed.goto(site)
        framed.wait_for_timeout(300)
        assert framed.frame_locator("iframe").locator("main").count() == 0  # refused
    # Playwright hands its events over only while it is called: wait through it.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(
        v.startswith("/csp-report") for v in csp_violations
    ):
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)
    seen = "\n".join(csp_violations)
    assert "style-src-attr" in seen and "script-src-elem" in seen and "frame-ancestors" in seen
    assert "console:" in seen and "/csp-report:" in seen
    csp_violations.clear()  # seen on purpose: the test passes


def test_every_page_kind_runs_under_the_policy(
    live_url, new_context, sign_in, csp_violations, django_user_model
):
    seen: list[str] = []
    season, dm_match, death_match, ec, dmo = death_match_under_way()
    referee = user("referee", "staff admin")
    register_tiny()
    host = user("organiser", "organiser")
    players = [user(f"p{i}") for i in range(1, 9)]
    knockout, knockout_stage = tournament(host, players, "single_elimination")
    report_top_seed_wins(knockout_stage, "W1.1")
    swiss, _ = tournament(host, players[:6], "swiss")
    round_robin, _ = tournament(host, players[:4], "round_robin")
    disputed = disputes.dispute_file(match=dm_match, by=ec.user, reason="A pick counted twice")

    clash = create_game(host, "color_clash", [{}, {}])
    mix = create_game(host, "dropmix", [{}, {}])
    finished = create_game(host, "drafting_trios", [{}, {}])
    finished.seats.filter(number=0).update(guest_id="guest-a", display_name="Ann")
    finished.seats.filter(number=1).update(guest_id="guest-b", display_name="Bo")
    game_services.game_start(by=None, game_id=finished.pk)
    finished = play_out(finished.pk)

    anonymous = new_context(viewport={"width": 390, "height": 844}).new_page()
    for path, ready in [
        ("/", "main h1"),
        ("/games/", "main h1"),
        ("/tournaments/", "main h1"),
        (f"/tournaments/{knockout.slug}/", ".bracket-section"),
        (f"/tournaments/{swiss.slug}/", "main h1"),
        (f"/tournaments/{round_robin.slug}/", "table.crosstable"),
        (f"/tournaments/{season.slug}/", ".season-cast"),
        (f"/games/{finished.pk}/", "#end"),
        (f"/games/{finished.pk}/replay", "main h1"),
        (f"/games/{finished.pk}/verify", "main h1"),
        (f"/games/{death_match.pk}/", "#game"),  # a spectator of a live Death Match
        ("/accounts/login/", "form"),
        ("/accounts/signup/", "form"),
        ("/no/such/page", "h1"),  # 404
        (f"/tournaments/{knockout.slug}/manage/", "h1"),  # 403 or the log-in: not theirs
    ]:
        visit(anonymous, f"{live_url}{path}", ready, seen)
    anonymous.goto(f"{live_url}/api/docs/")
    anonymous.locator(".opblock-tag", has_text="games").first.wait_for()
    seen.append("/api/docs/")

    # The embed page inside another site's iframe draws the bracket and follows it live.
    with other_site(f"{live_url}/tournaments/{knockout.slug}/embed") as site:
        page = new_context().new_page()
        page.goto(site)
        frame = page.frame_locator("iframe")
        expect(frame.locator(".bracket-section").first).to_be_visible()
        report_top_seed_wins(knockout_stage, "W1.2")
        expect(frame.locator(".match.status-finished")).to_have_count(2, timeout=15_000)
        seen.append("embed in an iframe")

    # Rooms: the lobby of a new private room, then a practice table against computers.
    guest = new_context().new_page()
    visit(guest, f"{live_url}/play/", "#create-room", seen)
    guest.locator("#create-room").click()
    guest.wait_for_url(f"{live_url}/r/*")
    guest.locator("#room-code").wait_for()
    seen.append("room lobby")
    guest.goto(f"{live_url}/play/")
    guest.locator("#start-practice").click()
    guest.wait_for_url(f"{live_url}/games/*/")
    guest.locator('[data-zone="hand"]').first.wait_for()
    seen.append("practice table")

    # Color Clash and DropMix: each seat's board and a spectator's.
    for game in (clash, mix):
        seats = []
        for number in range(2):
            page = new_context().new_page()
            page.goto(f"{live_url}/games/{game.pk}/?invite={invite_for(game)}")
            page.get_by_role("button", name=f"Take seat {number + 1}").click()
            page.wait_for_url(f"{live_url}/games/{game.pk}/")
            seats.append(page)
        game_services.game_start(by=None, game_id=game.pk)
        watcher = new_context().new_page()
        visit(watcher, f"{live_url}/games/{game.pk}/", "#game", seen)
        for page in seats:
            page.reload()
            page.locator('[data-zone="hand"]').first.wait_for()
        seen.append(f"{game.engine} seats")

    # The Death Match as its players: a move made by clicking the board.
    boards = []
    for entrant in (ec, dmo):
        page = new_context().new_page()
        sign_in(page.context, live_url, entrant.user)
        visit(page, f"{live_url}/games/{death_match.pk}/", "#game", seen)
        boards.append(page)
    before = version(boards[0])
    assert any(act_if_asked(page) for page in boards), "neither seat could move"
    wait_for_version(boards[0], before)
    visit(boards[0], f"{live_url}/disputes/{disputed.pk}/", "main h1", seen)
    visit(boards[0], f"{live_url}/disputes/new/{season.slug}/{dm_match.code}", "main form", seen)
    visit(boards[0], f"{live_url}/accounts/tokens/", "main h1", seen)
    visit(boards[0], f"{live_url}/tournaments/{knockout.slug}/manage/", "h1", seen)  # 403

    # The organiser's console, its forms and webhooks; the staff admin's queue, audit, admin.
    organiser = new_context().new_page()
    sign_in(organiser.context, live_url, host)
    for path, ready in [
        (f"/tournaments/{knockout.slug}/manage/", "main h1"),
        (f"/tournaments/{knockout.slug}/manage/edit", "main form"),
        (f"/tournaments/{knockout.slug}/manage/webhooks", "main form"),
        ("/tournaments/new/", "main form"),
        ("/tournaments/mine/", "main h1"),
    ]:
        visit(organiser, f"{live_url}{path}", ready, seen)
    admin = new_context().new_page()
    sign_in(admin.context, live_url, referee)
    for path, ready in [
        ("/admin/disputes/", "main h1"),
        (f"/admin/disputes/{disputed.pk}/", ".step-count"),
        ("/audit/", "main h1"),
        (f"/tournaments/{season.slug}/manage/", "h1"),  # 403 or the console: a staff admin
    ]:
        visit(admin, f"{live_url}{path}", ready, seen)

    root = new_context().new_page()
    sign_in(root.context, live_url, django_user_model.objects.create_superuser("root"))
    for path in ("/admin/", "/admin/tournaments/tournament/", "/admin/games/gamesession/"):
        visit(root, f"{live_url}{path}", "#content h1", seen)
    visit(root, f"{live_url}/admin/tournaments/tournament/{knockout.pk}/change/", "form", seen)

    root.wait_for_timeout(1000)  # events and reports still under way arrive
    assert list(csp_violations) == []
