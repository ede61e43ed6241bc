"""Issue 27, finding 9: an organiser on a phone creates a single elimination, a Swiss and a
Genius season with fields, selects and toggles only; no JSON is typed."""

from __future__ import annotations

from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import PHONE, no_horizontal_scroll
from tests.e2e.tournaments.test_console import audit_says
from tests.tournaments.builders import user
from tournaments.models import Tournament


def start(page, live_url: str, name: str, slug: str, game: str, format_: str) -> None:
    page.goto(f"{live_url}/tournaments/new/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Address").fill(slug)
    page.get_by_label("Game", exact=True).select_option(game)
    page.get_by_label("Format", exact=True).select_option(format_)


def created(page, slug: str) -> Tournament:
    page.get_by_role("button", name="Create the draft").click()
    page.wait_for_url(f"**/tournaments/{slug}/manage/")
    return Tournament.objects.get(slug=slug)


def test_an_organiser_creates_three_formats_without_typing_json(
    live_url, new_context, sign_in, screenshot
):
    page = new_context(viewport=PHONE).new_page()
    host = user("host", "organiser")
    sign_in(page.context, live_url, host)

    start(page, live_url, "Spring Knockout", "spring-ko", "color_clash", "single_elimination")
    # Only the chosen game's and format's rules show; the JSON waits behind "Advanced".
    assert page.get_by_label("Mode").is_visible()
    assert not page.get_by_label("Swiss rounds").is_visible()
    assert not page.get_by_label("Game rules (JSON)").is_visible()
    page.get_by_label("Mode").select_option("family")
    page.get_by_label("Turn timer").select_option("60")
    page.get_by_label("Match for third place").check()
    page.get_by_label("Match length (best of)").fill("3")
    assert no_horizontal_scroll(page)
    assert serious_violations(page) == []
    screenshot(page, "tournament-new-wizard")
    knockout = created(page, "spring-ko")
    assert knockout.ruleset == {"mode": "family", "turn_seconds": 60}
    assert (knockout.format_options, knockout.best_of) == ({"third_place": True}, 3)

    start(page, live_url, "Autumn Swiss", "autumn-swiss", "dropmix", "swiss")
    assert page.get_by_label("Swiss rounds").is_visible()
    assert not page.get_by_label("Mode").is_visible()
    page.get_by_label("Swiss rounds").fill("4")
    page.get_by_label("Target score").select_option("15")
    page.get_by_label("Turn: seconds per move").select_option("60")
    page.get_by_role("button", name="+ Buchholz", exact=True).click()
    page.get_by_role("button", name="+ Number of wins").click()
    page.get_by_role("button", name="Move Number of wins up").click()
    swiss = created(page, "autumn-swiss")
    assert (swiss.format_options, swiss.ruleset) == ({"rounds": 4}, {"target": 15})
    assert swiss.time_control == {"allowances": {"turn": 60}}
    assert swiss.tiebreaks == ["wins", "buchholz"]

    start(page, live_url, "Genius Season", "genius-season", "drafting_trios", "genius")
    page.get_by_label("Elimination candidate").select_option("mm_loser")
    page.get_by_label("Final: best of").fill("4")
    page.get_by_label("Sealed answers may change").uncheck()
    page.get_by_role("button", name="Create the draft").click()
    # A bad value is named by its label, and the form keeps what was chosen.
    assert "Final: best of: enter an odd number" in page.get_by_role("alert").inner_text()
    assert page.get_by_label("Elimination candidate").input_value() == "mm_loser"
    assert no_horizontal_scroll(page)
    assert serious_violations(page) == []
    screenshot(page, "tournament-new-wizard-refused")
    page.get_by_label("Final: best of").fill("5")
    page.get_by_label("Address").fill("genius-season")
    season = created(page, "genius-season")
    assert season.format_options == {
        "ec_rule": "mm_loser",
        "final_best_of": 5,
        "sealed_edits": False,
    }
    # The audit says what was done, in each language (the catalogues' own sentences).
    audit_says(
        new_context,
        sign_in,
        live_url,
        host,
        "genius-season",
        {
            "en": ["host created the tournament"],
            "pt-br": ["host criou o torneio"],
            "ru": ["host создаёт турнир"],
        },
    )
