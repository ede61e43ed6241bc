"""Color Clash in the browser: three players, a Wild's colour chosen from the picker, and a
player caught without calling "Last card!" inside the 3-second window."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games import services
from games.engines.color_clash.cards import COLOR_INDEX, NOTATION
from games.invites import invite_for
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import save_snapshot, sse_messages, sticking_out
from tests.e2e.games import (
    DESKTOP_OPTIONS,
    PHONE_OPTIONS,
    claim_others,
    create_game,
    organiser,
    outside_first_screen,
    page_weight,
    running_animations,
    seated_page,
    small_targets,
)

COLOURS = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}


def arrange(game_id: int, hands: dict[int, list[str]], top: str) -> None:
    """Deal these hands and this top card from the game's own 108 cards (the rest stays the
    draw pile), so that the test knows what each seat holds."""
    game = GameSession.objects.get(pk=game_id)
    state = game.state
    pool = [*state["draw_pile"], *state["discard_pile"], *(c for h in state["hands"] for c in h)]

    def take(name: str) -> int:
        card = next(c for c in pool if NOTATION[c] == name)
        pool.remove(card)
        return card

    state["hands"] = [[take(name) for name in hands[seat]] for seat in range(len(hands))]
    state["discard_pile"] = [take(top)]
    state["draw_pile"] = pool
    state["color"] = COLOR_INDEX[COLOURS[top[0]]]
    state.update(drawn=None, choosing_color=False, window=None, direction=1)
    state["called"] = [False] * len(hands)
    game.save(update_fields=["state"])


def hand_of(page) -> list[str]:
    return page.locator('[data-zone="hand"] [data-card]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )


def test_three_players_a_wild_colour_and_a_last_card_catch(
    live_url, new_context, screenshot, django_user_model
):
    host = organiser(django_user_model)
    game = create_game(host, "color_clash", [{}, {}, {}])
    pages = []
    for number in range(3):
        page = new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"{live_url}/games/{game.pk}/?invite={invite_for(game)}")
        page.get_by_role("button", name=f"Take seat {number + 1}").click()
        page.wait_for_url(f"{live_url}/games/{game.pk}/")
        pages.append(page)
    started = services.game_start(game_id=game.pk, by=None)
    first = started.state["turn"]
    a, b, c = first, (first + 1) % 3, (first + 2) % 3
    arrange(game.pk, {a: ["W", "Y5", "G9"], b: ["Y1", "Y2"], c: ["R7", "B8", "G2"]}, top="R3")
    for page in pages:
        page.reload()
    player_a, player_b, player_c = pages[a], pages[b], pages[c]
    assert sorted(hand_of(player_a)) == ["G9", "W", "Y5"]
    assert sorted(hand_of(player_b)) == ["Y1", "Y2"]
    expect(player_a.locator(".cc-in-force")).to_contain_text("red")
    expect(player_c.locator('[data-zone="hand"] .cc-play[aria-disabled="true"]')).to_have_count(3)
    assert serious_violations(player_a) == []
    screenshot(player_a, "color-clash")

    # The Wild: a colour picker, then everyone sees the colour in force.
    player_a.locator('[data-zone="hand"] [data-card="W"]').click()
    picker = player_a.locator(".cc-picker")
    expect(picker).to_contain_text("Choose the colour for your Wild")
    picker.get_by_role("button", name="yellow").click()
    for page in pages:
        expect(page.locator(".cc-in-force")).to_contain_text("yellow")
        expect(page.locator(".cc-table [data-card]")).to_have_attribute("data-card", "W")

    # B plays its next-to-last card without calling: its 3-second window opens, C catches.
    expect(player_b.locator('[data-key="call-early"]')).to_be_enabled()
    player_b.locator('[data-zone="hand"] [data-card="Y1"]').click()
    catch = player_c.locator(".cc-catch")
    expect(catch).to_be_visible(timeout=3_000)
    expect(player_b.locator(".cc-window .cc-call")).to_be_visible()
    expect(player_a.locator(".cc-catch")).to_be_visible()
    save_snapshot(player_c, "color-clash-window")
    catch.click()
    for page in pages:
        expect(page.locator(".cc-window")).to_have_count(0)
        expect(page.locator("#log")).to_contain_text("was caught without calling")
    assert len(hand_of(player_b)) == 3
    assert hand_of(player_b) == [
        NOTATION[card] for card in sorted(GameSession.objects.get(pk=game.pk).state["hands"][b])
    ]

    # Each page received its own hand only.
    for seat, page in enumerate(pages):
        for text in [page.locator("#game-state").text_content(), *sse_messages(page)]:
            payload = json.loads(text)
            assert payload["seat"] == seat
    player_a.set_viewport_size({"width": 360, "height": 740})
    assert sticking_out(player_a) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_table_on_a_phone_and_a_desktop(live_url, new_context, django_user_model, size):
    """The seated player's hand and enabled controls in the first screen on a phone; cards
    drawn as cards, playable ones lit; a tap on a dimmed card says why; nothing sticks out;
    every target at least 24 px; axe-core clean; no console error; a light page."""
    host = organiser(django_user_model)
    # Family night turns a number card first: seat 0, after the dealer, plays first.
    game = create_game(host, "color_clash", [{}, {}, {}], config={"mode": "family"})
    options = PHONE_OPTIONS if size == "phone" else DESKTOP_OPTIONS
    page = seated_page(new_context, live_url, game, 0, **options)
    claim_others(game, [1, 2])
    assert services.game_start(by=None, game_id=game.pk).state["turn"] == 0
    others = ["G9", "Y5", "B4", "B2", "B1", "Y9", "G3"]
    arrange(game.pk, {0: ["R7", "B8", "W4", "Y1", "R2", "G5", "W"], 1: others, 2: others}, top="R3")
    page.reload()
    expect(page.locator('[data-zone="hand"] .cc-play')).to_have_count(7)
    # R7, R2, W: playable and lit; the others dimmed (W4: a red card is held)
    expect(page.locator('[data-zone="hand"] .cc-play.playable')).to_have_count(3)
    assert page.locator(".cc-table svg").count() >= 2  # the pile and the top card, drawn
    controls = '[data-zone="hand"] .cc-play, #board button:not([disabled])'
    if size == "phone":
        assert outside_first_screen(page, controls) == []
    assert sticking_out(page) == []
    assert small_targets(page) == []
    assert serious_violations(page) == []
    save_snapshot(page, f"color-clash-table-{size}")
    page.locator('[data-zone="hand"] [data-card="W4"]').click(
        force=True
    )  # aria-disabled, yet tappable
    expect(page.locator("#toasts")).to_contain_text(
        "Wild Draw Four is allowed only when you hold no"
    )
    page.locator('[data-zone="hand"] [data-card="R7"]').click()
    expect(page.locator(".cc-table [data-card]")).to_have_attribute("data-card", "R7")
    assert page_weight(page, live_url) < 250_000
    assert page.console_errors == []


def test_no_motion_under_reduced_motion(live_url, new_context, django_user_model):
    host = organiser(django_user_model)
    game = create_game(host, "color_clash", [{}, {}], config={"mode": "family"})
    page = seated_page(new_context, live_url, game, 0, reduced_motion="reduce", **PHONE_OPTIONS)
    claim_others(game, [1])
    assert services.game_start(by=None, game_id=game.pk).state["turn"] == 0
    arrange(game.pk, {0: ["R7", "R8", "B1"], 1: ["G9", "Y5", "B4"]}, top="R3")
    page.reload()
    page.locator('[data-zone="hand"] [data-card="R7"]').click()
    expect(page.locator(".cc-table [data-card]")).to_have_attribute("data-card", "R7")
    assert running_animations(page) == []
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_ending_and_the_replay(live_url, new_context, django_user_model, size):
    """A finished match: the ending panel places the players with their points and links to
    the replay and the check; the replay draws every hidden hand as cards (never as JSON) and
    shows no reserve for a game without one."""
    from tests.e2e.test_finished_games import play_out

    host = organiser(django_user_model)
    game = create_game(host, "color_clash", [{}, {}], config={"mode": "family"})
    options = PHONE_OPTIONS if size == "phone" else DESKTOP_OPTIONS
    page = seated_page(new_context, live_url, game, 0, **options)
    claim_others(game, [1])
    services.game_start(by=None, game_id=game.pk)
    finished = play_out(game.pk)
    page.reload()
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-placings .placing")).to_have_count(2)
    expect(page.locator("#end-reason")).to_contain_text("went out first")
    winner = finished.outcome["winners"][0]
    expect(page.locator("#end-placings .placing").first).to_contain_text(
        "(you)" if winner == 0 else "P1"
    )
    expect(page.locator("#end .end-links a")).to_have_count(2)
    assert serious_violations(page) == []
    assert sticking_out(page) == []
    save_snapshot(page, f"color-clash-ending-{size}")
    page.locator("#end .end-links a").first.click()
    page.wait_for_url(f"{live_url}/games/{game.pk}/replay")
    expect(page.locator("#replay-hands .cc-card").first).to_be_visible()
    assert page.locator("#replay-hands pre").count() == 0
    expect(page.locator("#replay-clocks")).not_to_contain_text("Reserve")
    page.locator('[data-go="last"]').click()
    assert serious_violations(page) == []
    assert sticking_out(page) == []
    assert small_targets(page) == []
    save_snapshot(page, f"color-clash-replay-{size}")
    page.goto(f"{live_url}/games/{game.pk}/verify")
    expect(page.locator("main h1")).to_be_visible()
    assert serious_violations(page) == []
    assert sticking_out(page) == []
    assert small_targets(page) == []
    save_snapshot(page, f"color-clash-verify-{size}")
    assert page.console_errors == []
