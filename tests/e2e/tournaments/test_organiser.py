"""Issue 16, test 1: an organiser runs an 8-player double elimination in the browser while a
spectator watches the bracket update live, through the grand-final reset."""

from __future__ import annotations

from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll
from tests.tournaments.builders import user
from tournaments.models import Entrant, Match, Tournament


def box(page, code: str):
    return page.locator(f"[id='match-{code}']")


def told(page, words: str) -> None:
    """Wait for what an htmx-posted form was told (swapped in, no reload)."""
    page.locator("[data-feedback]", has_text=words).wait_for()


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
    console.get_by_label("Grand final").select_option("reset")
    console.get_by_role("button", name="+ Buchholz", exact=True).click()
    console.get_by_role("button", name="+ Sonneborn-Berger").click()
    chain = console.get_by_label("Tie-breaks in order")
    assert chain.input_value() == "buchholz, sonneborn_berger"
    # The chain reorders with the buttons (keyboard) and by dragging; the field follows.
    console.get_by_role("button", name="Move Buchholz down").click()
    assert chain.input_value() == "sonneborn_berger, buchholz"
    items = console.locator("ol.chain li")
    items.nth(1).drag_to(items.nth(0), target_position={"x": 20, "y": 3})
    assert chain.input_value() == "buchholz, sonneborn_berger"
    console.get_by_label("Play the matches here").uncheck()
    screenshot(console, "tournament-new")
    console.get_by_role("button", name="Create the draft").click()
    console.get_by_role("button", name="Open registration").click()
    told(console, "Registration is open.")
    # A refusal is shown inside the form that was sent, and changes nothing.
    console.get_by_role("button", name="Start the tournament").click()
    alert = console.locator("#start-form [role=alert]")
    assert "at least two seeded entrants are needed" in alert.inner_text()
    assert console.evaluate("performance.getEntriesByType('navigation').length") == 1
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
        page.locator(".player-panel", has_text="Registered").wait_for()
        pages.append(page)
    console.get_by_role("button", name="Open check-in").click()
    told(console, "Check-in is open.")
    for page in pages:
        page.reload()
        page.get_by_role("button", name="Check in").click()
        page.locator(".player-panel", has_text="Checked in").wait_for()
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
    told(console, "The seeding is applied.")
    assert Entrant.objects.get(user=players[7]).seed == 1
    console.get_by_role("button", name="Start the tournament").click()
    told(console, "The tournament has started.")

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
        # Nobody is preselected: the first side wins, but in GF1 the losers-bracket champion
        # (the second side) wins and the bracket resets.
        form.get_by_label("Winner").select_option(index=2 if code == "GF1" else 1)
        form.get_by_role("button", name="Enter").click()
        told(console, f"The result of {code} is recorded.")
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
