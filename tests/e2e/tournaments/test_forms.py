"""The console's and the players' forms in another language: htmx swaps in the answer with the
service's refusal inside the form, translated; without JavaScript the same form posts and
redirects. Both pages axe-clean and without sideways scrolling at 360 px."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll, sticking_out
from tests.tournaments.builders import open_tournament, user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import Entrant
from tournaments.seasons import services as seasons

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def check(page, name: str, screenshot) -> None:
    """No serious accessibility problem, nothing sideways at 360 px, and the screenshots."""
    assert serious_violations(page) == [], name
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page), sticking_out(page)
    screenshot(page, name)


def test_refusals_inline_in_russian_and_portuguese_and_plain_posts_without_javascript(
    live_url, new_context, sign_in, screenshot, catalogues
):
    tournament, cast = open_tournament("genius", 6, game="drafting_trios", format_options=RULES)
    seasons.season_start(tournament=tournament, by=tournament.organiser)
    url = f"{live_url}/tournaments/{tournament.slug}/"

    # The organiser, in Russian: a DMO-pick deadline in the past, refused inside the form.
    console = new_context(locale="ru-RU").new_page()
    sign_in(console.context, live_url, tournament.organiser)
    console.goto(f"{url}manage/")
    dm = console.locator("#dm-setup")
    dm.get_by_label("Резерв (секунды)").fill("200")
    dm.locator("#dm-deadline").fill("2001-01-01T00:00")
    dm.get_by_role("button", name="Сохранить настройки DM").click()
    alert = console.locator("#dm-setup [role=alert]", has_text="срок должен быть в будущем")
    alert.wait_for()
    assert console.evaluate("document.activeElement.getAttribute('role')") == "alert"
    assert tournament.episodes.get(number=1).dm_engine == ""  # nothing changed
    console.locator("#dm-deadline").fill("")
    console.get_by_role("button", name="Сохранить настройки DM").click()
    console.locator("[data-feedback]", has_text="Настройки Death Match сохранены.").wait_for()
    assert tournament.episodes.get(number=1).dm_time_control == {"reserve": 200.0}
    check(console, "tournament-manage-ru", screenshot)
    # The session ends: the next form's answer is the login page, shown as a page.
    console.context.clear_cookies()
    console.get_by_role("button", name="Сохранить настройки DM").click()
    console.wait_for_url("**/accounts/login/**")
    sign_in(console.context, live_url, tournament.organiser)
    # The settings and creation forms, in Russian too, with the tie-break chain as a list.
    console.goto(f"{url}manage/edit")
    assert console.locator("ol.chain li").count() == len(tournament.tiebreaks)
    check(console, "tournament-edit-ru", screenshot)
    console.goto(f"{live_url}/tournaments/new/")
    check(console, "tournament-new-ru", screenshot)

    # A player, in Portuguese: an empty sealed answer is refused by the service, inline.
    episode = tournament.episodes.get(number=1)
    seasons.sealed_open(
        episode=episode,
        by=tournament.organiser,
        prompt="1-10?",
        deadline=timezone.now() + timedelta(hours=1),
    )
    player = new_context(locale="pt-BR").new_page()
    sign_in(player.context, live_url, cast[0].user)
    player.goto(url)
    player.locator("#sealed-text").fill("   ")
    player.locator("#sealed-form button[type=submit]").click()
    player.locator("#sealed-form [role=alert]", has_text="não é possível enviar").wait_for()
    check(player, "tournament-player-refused-pt", screenshot)
    player.goto(f"{live_url}/tournaments/mine/")
    assert player.get_by_role("link", name=tournament.name).count() >= 1
    check(player, "tournament-mine-pt", screenshot)

    # Without JavaScript the same form posts, redirects and shows the message.
    plain = new_context(locale="pt-BR", java_script_enabled=False).new_page()
    newcomer = user("newcomer")
    other = services.tournament_create(
        organiser=tournament.organiser,
        name="Plain cup",
        slug="plain-cup",
        game="drafting_trios",
        format="single_elimination",
    )
    services.registration_open(tournament=other, by=tournament.organiser)
    sign_in(plain.context, live_url, newcomer)
    plain.goto(f"{live_url}/tournaments/{other.slug}/")
    plain.get_by_role("button", name="Inscrever-se").click()
    assert "Sua inscrição foi registrada." in plain.locator(".messages").inner_text()
    assert Entrant.objects.filter(tournament=other, user=newcomer).exists()
