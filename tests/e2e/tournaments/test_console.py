"""Issue #27 in Chromium: the organiser's console as a non-engineer runs it. A withdrawal is
confirmed (its forfeits named) with a reason and reaches a spectator's bracket live."""

from __future__ import annotations

import pytest

from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll, sticking_out
from tests.e2e.tournaments.test_spectators import begun
from tests.tournaments.builders import user
from tournaments import services
from tournaments.models import AuditEntry

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def box(page, code: str):
    return page.locator(f"[id='match-{code}']")


def audit_says(new_context, sign_in, live_url, host, slug, said, screenshot=None, name=""):
    """The audit page, read in English, Brazilian Portuguese and Russian, says each of the
    ``said[language]`` sentences (the catalogues' own words: these need the translations)."""
    for language, sentences in said.items():
        reader = new_context(viewport=PHONE, locale=language).new_page()
        sign_in(reader.context, live_url, host)
        reader.goto(f"{live_url}/audit/?tournament={slug}")
        assert reader.locator("html").get_attribute("lang") == language
        shown = reader.locator(".audit-sentence").all_inner_texts()
        for sentence in sentences:
            assert any(sentence in line for line in shown), (language, sentence, shown)
        assert not any("winner=" in line or "entrant=" in line for line in shown)
        assert serious_violations(reader) == []
        assert no_horizontal_scroll(reader), (language, sticking_out(reader))
        if screenshot is not None:
            screenshot(reader, f"{name}-{language}")
        reader.close()


def test_a_withdrawal_is_confirmed_with_a_reason_and_the_public_bracket_shows_the_forfeit(
    live_url, new_context, sign_in, screenshot, catalogues
):
    host = user("host", "organiser")
    cup, stage = begun(host, "single_elimination", 4)
    brook = stage.matches.get(code="W1.1").away  # seed 4

    spectator = new_context().new_page()
    spectator.goto(f"{live_url}/tournaments/{cup.slug}/")
    spectator.locator("#board[data-live=connected]").wait_for()
    assert brook.display_name in box(spectator, "W1.1").inner_text()

    console = new_context(viewport=PHONE).new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{live_url}/tournaments/{cup.slug}/manage/")
    console.get_by_label("Entrant", exact=True).select_option(str(brook.pk))
    console.get_by_label("Action", exact=True).select_option("withdraw")
    console.get_by_role("button", name="Apply").click()
    dialog = console.get_by_role("alertdialog", name=f"Withdraw {brook.display_name}?")
    dialog.wait_for()
    assert "W1.1" in dialog.inner_text() and "wins by forfeit" in dialog.inner_text()
    assert console.evaluate("document.activeElement.id") == "removal-form"
    assert serious_violations(console) == []
    assert no_horizontal_scroll(console)
    screenshot(console, "console-withdraw-confirmation")
    # Nothing changed before the confirmation.
    assert stage.matches.get(code="W1.1").status == "ready"

    console.get_by_label("Reason (kept in the audit trail)").fill("fell ill before the match")
    dialog.get_by_role("button", name=f"Withdraw {brook.display_name}").click()
    console.locator("[data-feedback]", has_text="is withdrawn").wait_for()
    # From the moment the withdrawal is recorded, the spectator's bracket shows it within 2 s.
    box(spectator, "W1.1").get_by_text("Forfeit").wait_for(timeout=2000)
    spectator.locator(".standings", has_text="Withdrawn").wait_for(timeout=2000)
    screenshot(spectator, "bracket-after-withdrawal")
    entry = AuditEntry.objects.get(action="tournaments.entrant.withdrawn")
    assert entry.reason == "fell ill before the match" and entry.data["forfeited"] == ["W1.1"]
    name = brook.display_name
    audit_says(
        new_context,
        sign_in,
        live_url,
        host,
        cup.slug,
        {
            "en": [f"host withdrew {name} — forfeited: W1.1 — reason: fell ill before the match"],
            "pt-br": [f"host retirou {name} — perdidos por W.O.: W1.1 — motivo: fell ill"],
            "ru": [f"host снимает {name} с турнира — неявка: W1.1 — причина: fell ill"],  # noqa: RUF001
        },
    )

    # The undo, while W2.1 has not started.
    console.get_by_text(f"Undo the withdrawal of {brook.display_name}").click()
    console.get_by_label("Why put them back").fill("wrong player")
    console.get_by_role("button", name="Put back in").click()
    console.locator("[data-feedback]", has_text="is back in the tournament").wait_for()
    box(spectator, "W1.1").get_by_text("Ready", exact=False).wait_for(timeout=2000)


def test_check_ins_show_live_on_the_console_and_the_public_page(
    live_url, new_context, sign_in, screenshot
):
    host = user("host", "organiser")
    cup = services.tournament_create(
        organiser=host,
        name="Desk cup",
        slug="desk-cup",
        format="single_elimination",
        game="drafting_trios",
        play_online=False,
    )
    services.registration_open(tournament=cup, by=host)
    players = [user(f"desk{i}") for i in (1, 2)]
    for person in players:
        services.entrant_register(tournament=cup, user=person)
    services.check_in_open(tournament=cup, by=host)

    console = new_context().new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{live_url}/tournaments/{cup.slug}/manage/")
    console.locator("#console[data-live=connected]").wait_for()
    spectator = new_context(viewport=PHONE).new_page()
    spectator.goto(f"{live_url}/tournaments/{cup.slug}/")
    spectator.locator("#board[data-live=connected]").wait_for()

    player = new_context(viewport=PHONE).new_page()
    sign_in(player.context, live_url, players[0])
    player.goto(f"{live_url}/tournaments/{cup.slug}/")
    player.get_by_role("button", name="Check in").click()
    player.locator(".player-panel", has_text="Checked in").wait_for()
    entrant = cup.entrants.get(user=players[0])
    console.locator(f"#entrant-status-{entrant.pk}", has_text="Checked in").wait_for(timeout=2000)
    spectator.locator("#t-entrants li", has_text="desk1").get_by_text("Checked in").wait_for(
        timeout=2000
    )
    assert console.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert no_horizontal_scroll(spectator)
    screenshot(console, "console-live-check-in")


def test_an_organiser_corrects_a_finished_first_round_result_after_the_preview(
    live_url, new_context, sign_in, screenshot, catalogues
):
    host = user("host", "organiser")
    cup, stage = begun(host, "single_elimination", 4)
    console = new_context(viewport=PHONE).new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{live_url}/tournaments/{cup.slug}/manage/")
    for code in ("W1.1", "W1.2", "W2.1"):  # reported from the match cards
        match = stage.matches.get(code=code)
        card = console.get_by_role("form", name=f"Report the result of {code}")
        card.get_by_role("button", name=f"{match.home.display_name} won").click()
        box(console, code).locator("[data-feedback]").wait_for()
    first = stage.matches.get(code="W1.1")
    assert first.winner_id == first.home_id
    form = console.locator("form.result-form", has=console.locator("input[value='W1.1']"))
    form.get_by_label("Winner").select_option(str(first.away_id))
    form.get_by_role("button", name="Preview the correction").click()
    preview = console.get_by_role("alertdialog", name="Confirm the correction of W1.1")
    preview.wait_for()
    assert "W2.1" in preview.inner_text()
    assert console.evaluate("document.activeElement.id") == "preview-form"
    assert serious_violations(console) == []
    assert no_horizontal_scroll(console)
    screenshot(console, "console-correction-preview")
    preview.get_by_label("Reason (kept in the audit trail)").fill("score sheet misread")
    preview.get_by_role("button", name="Apply exactly this correction").click()
    console.locator("[data-feedback]", has_text="The result of W1.1 is recorded.").wait_for()
    first.refresh_from_db()
    assert first.winner_id == first.away_id

    won, lost = first.away.display_name, first.home.display_name
    audit_says(
        new_context,
        sign_in,
        live_url,
        host,
        cup.slug,
        {
            "en": [
                f"host entered W1.1: {lost} wins",
                f"host corrected W1.1: {won} wins (was {lost}) — reason: score sheet misread",
            ],
            "pt-br": [
                f"host registrou W1.1: {lost} vence",
                f"host corrigiu W1.1: {won} vence (era {lost}) — motivo: score sheet misread",
            ],
            "ru": [
                f"host вносит W1.1: Побеждает {lost}",
                f"host исправляет W1.1: Побеждает {won} (было: {lost}) — причина: score sheet",
            ],
        },
        screenshot,
        "audit-log",
    )
    reader = new_context(viewport=PHONE).new_page()
    sign_in(reader.context, live_url, host)
    reader.goto(f"{live_url}/audit/?tournament={cup.slug}")
    row = reader.locator(".audit-row", has_text="corrected W1.1")
    row.locator(".audit-raw summary").click()
    assert "tournaments.match.result_corrected" in row.locator(".audit-raw").inner_text()


def test_the_organiser_reports_results_from_the_match_cards(
    live_url, new_context, sign_in, screenshot
):
    host = user("host", "organiser")
    cup, stage = begun(host, "single_elimination", 4)
    spectator = new_context().new_page()
    spectator.goto(f"{live_url}/tournaments/{cup.slug}/")
    spectator.locator("#board[data-live=connected]").wait_for()

    console = new_context(viewport=PHONE).new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{live_url}/tournaments/{cup.slug}/manage/")
    for code in ("W1.1", "W1.2", "W2.1"):
        match = stage.matches.get(code=code)
        card = console.get_by_role("form", name=f"Report the result of {code}")
        card.get_by_role("button", name=f"{match.home.display_name} won").click()
        answer = box(console, code).locator("[data-feedback]")
        answer.wait_for()
        assert f"The result of {code} is recorded." in answer.inner_text()
        box(spectator, code).locator(".won").wait_for(timeout=2000)
        if code == "W1.1":
            assert serious_violations(console) == []
            assert no_horizontal_scroll(console)
            screenshot(console, "console-report-on-card")
    assert stage.matches.get(code="W2.1").winner_id == stage.matches.get(code="W1.1").winner_id


def test_players_report_on_their_match_card_and_the_opponent_confirms(
    live_url, new_context, sign_in, screenshot
):
    host = user("host", "organiser")
    cup, stage = begun(host, "single_elimination", 4, players_report=True)
    first = stage.matches.get(code="W1.1")
    home, away = first.home, first.away
    spectator = new_context().new_page()
    spectator.goto(f"{live_url}/tournaments/{cup.slug}/")
    spectator.locator("#board[data-live=connected]").wait_for()

    reporter = new_context(viewport=PHONE).new_page()
    sign_in(reporter.context, live_url, home.user)
    reporter.goto(f"{live_url}/tournaments/{cup.slug}/")
    card = reporter.get_by_role("form", name="Report the result of W1.1")
    card.get_by_role("button", name=f"{home.display_name} won").click()
    reporter.locator("[data-feedback]", has_text="waits for your opponent").wait_for()
    assert serious_violations(reporter) == []
    assert no_horizontal_scroll(reporter)
    screenshot(reporter, "player-report-waiting")

    opponent = new_context(viewport=PHONE).new_page()
    sign_in(opponent.context, live_url, away.user)
    opponent.goto(f"{live_url}/tournaments/{cup.slug}/")
    asked = opponent.get_by_role("form", name="Report the result of W1.1")
    assert f"Your opponent reports: {home.display_name} won." in asked.inner_text()
    screenshot(opponent, "player-report-confirm")
    asked.get_by_role("button", name="Confirm").click()
    opponent.locator("[data-feedback]", has_text="The result of W1.1 is recorded.").wait_for()
    box(spectator, "W1.1").locator(".won").wait_for(timeout=2000)
    first.refresh_from_db()
    assert first.winner_id == home.pk
    # The reporter's card follows without a reload: the match is decided, nothing to report.
    reporter.locator("#report-form").wait_for(state="detached", timeout=6000)
    assert reporter.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_on_a_phone_the_final_is_one_tap_away(live_url, new_context, screenshot):
    host = user("host", "organiser")
    cup, _stage = begun(host, "single_elimination", 8)
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{live_url}/tournaments/{cup.slug}/")
    final = box(page, "W3.1")
    hint = page.locator(".scroll-hint")
    assert hint.is_visible() and "Swipe sideways" in hint.inner_text()

    def on_screen() -> bool:
        found = final.bounding_box()
        return found is not None and found["x"] >= 0 and found["x"] + found["width"] <= 390

    assert not on_screen()  # the rounds are wider than the phone
    page.get_by_role("link", name="Go to: Final").click()
    page.wait_for_function(
        "() => { const b = document.getElementById('match-W3.1').getBoundingClientRect();"
        " return b.left >= 0 && b.right <= window.innerWidth; }"
    )
    assert on_screen() and no_horizontal_scroll(page)
    screenshot(page, "bracket-phone-final")
