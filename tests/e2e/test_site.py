"""The site's layout in a real browser: header, language switcher, phone width, accessibility."""

from __future__ import annotations

import pytest

from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def test_the_layout_works_on_a_phone_and_switches_language(
    live_url, new_context, screenshot, catalogues
):
    page = new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto(f"{live_url}/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("link", name="Log in").is_visible()
    assert no_horizontal_scroll(page)
    assert serious_violations(page) == []
    screenshot(page, "home")

    page.get_by_label("Language").select_option("pt-br")
    page.get_by_role("button", name="Change language").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "pt-br"
    assert page.get_by_role("heading", name="Torneios", exact=True).is_visible()
    assert no_horizontal_scroll(page)


def test_the_browsers_language_is_used(live_url, new_context, catalogues):
    page = new_context(locale="ru-RU").new_page()
    page.goto(f"{live_url}/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.get_by_role("link", name="Войти").is_visible()
    assert serious_violations(page) == []
