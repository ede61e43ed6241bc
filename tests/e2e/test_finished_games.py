"""A finished game in the browser: the list of games, the replay stepping through it, and the
fairness check that says it verified."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import engines, services
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import sticking_out
from tests.e2e.games import create_game, organiser


def play_out(game_id: int) -> GameSession:
    """Play a game to its end through the services, each seat taking its first legal move."""
    engine = None
    for _ in range(5000):
        game = GameSession.objects.get(pk=game_id)
        if game.is_over:
            return game
        engine = engine or engines.get(game.engine)
        for seat in engine.to_act(game.state):
            services.act(
                game_id=game_id, seat=seat, action=engine.legal_actions(game.state, seat)[0]
            )
            break
    raise AssertionError("the game did not end")


@pytest.fixture
def finished_death_match(django_user_model) -> GameSession:
    host = organiser(django_user_model)
    game = create_game(host, "drafting_trios", [{"role": "EC"}, {"role": "DMO"}])
    game.seats.filter(number=0).update(guest_id="guest-a", display_name="Ann")
    game.seats.filter(number=1).update(guest_id="guest-b", display_name="Bo")
    services.game_start(game_id=game.pk, by=None)
    return play_out(game.pk)


def test_a_finished_game_is_listed_replayed_and_verified(
    live_url, new_context, screenshot, finished_death_match
):
    game = finished_death_match
    page = new_context().new_page()
    page.goto(f"{live_url}/games/")
    row = page.locator(f'[data-game="{game.pk}"]')
    expect(row).to_contain_text("Drafting Trios")
    expect(row).to_contain_text("Ann")
    assert serious_violations(page) == []
    screenshot(page, "games-list")

    page.goto(f"{live_url}/games/{game.pk}/")
    expect(page.locator("#end")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 740})
    assert sticking_out(page) == []
    page.set_viewport_size({"width": 1280, "height": 900})

    # The replay: buttons, the slider and the arrow keys step through the log.
    page.goto(f"{live_url}/games/{game.pk}/replay")
    position = page.locator("#replay-position")
    expect(position).to_contain_text(f"Step 0 of {game.version}")
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()
    # The deal fills both piles, hidden until the end; hands are drafted from them.
    for seat in (0, 1):
        hand, pile = page.locator(f'.replay-hand[data-seat="{seat}"] .dt-hidden-zone').all()
        assert hand.locator("[data-card]").count() == 0
        assert pile.locator("[data-card]").count() == 10
    page.get_by_role("button", name="Next").click()
    expect(position).to_contain_text(f"Step 1 of {game.version}")
    page.keyboard.press("ArrowRight")
    expect(position).to_contain_text(f"Step 2 of {game.version}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_contain_text(f"Step 1 of {game.version}")
    page.keyboard.press("End")
    expect(position).to_contain_text(f"Step {game.version} of {game.version}")
    expect(position).to_contain_text("wins the Death Match")
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    middle = game.version // 2
    page.locator("#replay-step").fill(str(middle))
    expect(position).to_contain_text(f"Step {middle} of {game.version}")
    reserve = page.locator("#replay-clocks .reserve .time").first
    expect(reserve).to_have_text(re.compile(r"\d+:\d\d"))
    page.get_by_role("button", name="First").click()
    expect(position).to_contain_text("The deal")
    assert serious_violations(page) == []
    screenshot(page, "game-replay")

    # The fairness check.
    page.get_by_role("link", name="Check that the deal was fair").click()
    expect(page.locator("#verdict")).to_have_text("Verified: the deal was fair.")
    expect(page.locator("#seed")).to_have_text(game.seed)
    expect(page.locator("#commitment")).to_have_text(game.seed_sha256)
    expect(page.locator("pre").first).to_have_text(f"python manage.py verify_game {game.pk}")
    assert serious_violations(page) == []
    screenshot(page, "game-verify")
    for path in ("/games/", f"/games/{game.pk}/replay", f"/games/{game.pk}/verify"):
        page.goto(f"{live_url}{path}")
        page.set_viewport_size({"width": 360, "height": 740})
        assert sticking_out(page) == [], path
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_running_game_keeps_its_seed_and_replay_closed(live_url, new_context, django_user_model):
    host = organiser(django_user_model)
    game = create_game(host, "drafting_trios", [{"role": "EC"}, {"role": "DMO"}])
    game.seats.update(guest_id="someone")
    services.game_start(game_id=game.pk, by=None)
    page = new_context().new_page()
    answer = page.goto(f"{live_url}/games/{game.pk}/replay")
    assert answer.status == 409
    expect(page.locator("main")).to_contain_text("The replay opens once the game has ended")
    page.goto(f"{live_url}/games/{game.pk}/verify")
    expect(page.locator("#commitment")).to_have_text(game.seed_sha256)
    expect(page.locator("#verdict")).to_contain_text("The seed stays secret while the game runs")
    page.goto(f"{live_url}/games/")
    expect(page.locator(f'[data-game="{game.pk}"]')).to_contain_text("Watch")
    assert page.goto(f"{live_url}/games/999999/").status == 404
