"""A browser's part of the deal: the claim sends a random client seed of its own, the page
showed the commitment before it, and the fairness check lists the seed among the parts it
recomputes."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games import fairness, services
from games.invites import invite_for
from games.models import GameSession, Seat
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll
from tests.e2e.games import create_game, organiser


def test_the_browser_sends_a_client_seed_and_the_check_lists_it(
    live_url, new_context, django_user_model, screenshot
):
    host = organiser(django_user_model)
    game = create_game(host, "color_clash", [{}, {"kind": "computer"}])
    page = new_context().new_page()
    page.goto(f"{live_url}/games/{game.pk}/?invite={invite_for(game)}")
    expect(page.locator("#seed-commitment")).to_have_text(game.seed_sha256)
    screenshot(page, "game-lobby-commitment")
    with page.expect_request(re.compile(r"/seats/0/claim$")) as claimed:
        page.get_by_role("button", name="Take seat 1").click()
    sent = claimed.value.post_data_json["client_seed"]
    assert re.fullmatch(r"[0-9a-f]{32}", sent)
    page.wait_for_url(f"{live_url}/games/{game.pk}/")
    assert Seat.objects.get(game=game, number=0).client_seed == sent

    services.game_start(game_id=game.pk, by=None)
    services.game_void(game_id=game.pk, reason="the check opens once the game ends", by=None)
    ended = GameSession.objects.get(pk=game.pk)
    effective = fairness.effective_seed(bytes.fromhex(ended.seed), [sent, ""]).hex()
    assert ended.effective_seed == effective

    page.goto(f"{live_url}/games/{game.pk}/verify")
    expect(page.locator('#client-seeds tr[data-seat="0"] .client-seed')).to_have_text(sent)
    expect(page.locator('#client-seeds tr[data-seat="1"]')).to_contain_text("Computer: no seed")
    expect(page.locator("#hmac-message")).to_have_text(f'["{sent}",""]')
    expect(page.locator("#effective-seed")).to_have_text(effective)
    expect(page.locator("#verdict")).to_have_text("Verified: the deal was fair.")
    assert serious_violations(page) == []
    screenshot(page, "game-verify-client-seeds")
    page.set_viewport_size({"width": 390, "height": 844})
    assert no_horizontal_scroll(page)
