"""The API tokens page in a real browser: make a token (shown once), use it, revoke it."""

from __future__ import annotations

import httpx

from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import PHONE, no_horizontal_scroll
from tests.tournaments.builders import user


def test_a_token_is_made_shown_once_used_and_revoked(asgi_server, new_context, sign_in, screenshot):
    context = new_context()
    sign_in(context, asgi_server, user("ann"))
    page = context.new_page()
    page.goto(f"{asgi_server}/")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("Discord bot")
    page.get_by_role("button", name="Create token").click()
    secret = page.locator("[data-token]").inner_text()
    assert secret.startswith("ga_")
    assert serious_violations(page) == []
    screenshot(page, "api-tokens")
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)

    api = f"{asgi_server}/api/tokens/"
    bearer = {"Authorization": f"Bearer {secret}"}
    assert httpx.get(api, headers=bearer).json()["tokens"][0]["name"] == "Discord bot"
    page.goto(f"{asgi_server}/accounts/tokens/")
    assert secret not in page.content()  # shown once
    page.get_by_role("button", name="Revoke “Discord bot”").click()
    assert page.get_by_role("status").filter(has_text="revoked").first.is_visible()
    assert httpx.get(api, headers=bearer).status_code == 401
