"""Issue 16, test 1: an organiser runs an 8-player double elimination in the browser while a
spectator watches the bracket update live, through the grand-final reset."""

from __future__ import annotations

from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll
from tests.tournaments.builders import user
from tournaments.models import Entrant, Match, Tournament


def box(page, code: str):
    return page.locator(f"[id='match-{code}']")


def test_an_organiser_runs_a_double_elimination_watched_live(
    live_url, new_context, sign_in, screenshot
):
    host = user("host", "organiser")
    players = [user(f"player{i}") for i in range(1, 9)]

    console = new_context().new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{live_url}/tournaments/new/")
    console.get_by_label("Name", exact=True).fill("Winter Double")
    console.get_by_label("Address").fill("winter-double")
    console.get_by_label("Game", exact=True).select_option("drafting_trios")
    console.get_by_label("Format", exact=True).select_option("double_elimination")
    console.get_by_label("Format options (JSON)").fill('{"grand_final": "reset"}')
    console.get_by_role("button", name="+ Buchholz", exact=True).click()
    console.get_by_role("button", name="+ Sonneborn-Berger").click()
    assert console.get_by_label("Tie-breaks in order").input_value() == (
        "buchholz, sonneborn_berger"
    )
    console.get_by_label("Play the matches here").uncheck()
    screenshot(console, "tournament-new")
    console.get_by_role("button", name="Create the draft").click()
    console.get_by_role("button", name="Open registration").click()
    assert "Registration is open." in console.locator(".messages").inner_text()
    assert Tournament.objects.get(slug="winter-double").tiebreaks == [
        "buchholz",
        "sonneborn_berger",
    ]

    # Each player registers from their own browser, then checks in once check-in opens.
    pages = []
    for player in players:
        page = new_context(viewport={"width": 390, "height": 844}).new_page()
        sign_in(page.context, live_url, player)
        page.goto(f"{live_url}/tournaments/winter-double/")
        page.get_by_role("button", name="Register").click()
        assert "Registered" in page.locator(".player-panel").inner_text()
        pages.append(page)
    console.get_by_role("button", name="Open check-in").click()
    for page in pages:
        page.reload()
        page.get_by_role("button", name="Check in").click()
        assert "Checked in" in page.locator(".player-panel").inner_text()
    screenshot(pages[0], "tournament-player-checked-in")

    # Seeding by dragging: player8 goes to the top, then the order is applied.
    console.reload()
    rows = console.locator("tbody[data-sortable] tr")
    rows.nth(7).drag_to(rows.nth(0), target_position={"x": 20, "y": 5})
    assert console.locator(".seed-input").first.input_value() == "1"
    assert "player8" in rows.nth(0).inner_text()
    assert serious_violations(console) == []
    screenshot(console, "tournament-manage")
    console.get_by_role("button", name="Apply this seeding").click()
    assert Entrant.objects.get(user=players[7]).seed == 1
    console.get_by_role("button", name="Start the tournament").click()
    assert "The tournament has started." in console.locator(".messages").inner_text()

    spectator = new_context().new_page()
    spectator.goto(f"{live_url}/tournaments/winter-double/")
    spectator.locator("#board[data-live='connected']").wait_for()

    tournament = Tournament.objects.get(slug="winter-double")
    order = list(
        Match.objects.filter(stage__tournament=tournament)
        .order_by("pk")
        .values_list("code", flat=True)
    )
    for code in order:
        match = Match.objects.get(stage__tournament=tournament, code=code)
        if match.status == Match.Status.CLOSED:
            continue  # GF2 when it is not needed (it will be, below)
        form = console.locator("form.result-form", has=console.locator(f"input[value='{code}']"))
        if code == "GF1":  # the losers-bracket champion wins: the bracket resets
            form.get_by_label("Winner").select_option(index=1)
        form.get_by_role("button", name="Enter").click()
        assert f"The result of {code} is recorded." in console.locator(".messages").inner_text()
        # The spectator's bracket shows it without a reload.
        box(spectator, code).locator(".won").wait_for()

    assert box(spectator, "GF2").locator(".won").count() == 1
    assert spectator.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert int(spectator.locator("#board").get_attribute("data-refreshes")) >= len(order) - 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    spectator.set_viewport_size({"width": 360, "height": 740})
    assert no_horizontal_scroll(spectator)
    screenshot(spectator, "tournament-double-elimination-finished")
