"""The three games' ways in from /play/ and rooms of Drafting Trios and DropMix Clash in the
browser: the hub at phone and desktop width (no sideways scroll, axe-core clean, no console
error), a guest from /play/?game=X to a seat in one click, two people playing a Drafting
Trios room to its end and four people a DropMix 2v2 room to its end, all by clicking."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.models import GameSession, RoomRound
from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import DESKTOP, PHONE, sticking_out
from tests.e2e.games import version, wait_for_version
from tests.e2e.test_drafting_trios import act_if_asked

WAYS_IN = {
    "color_clash": ["Create a room", "Practice against the computer", "Quick match"],
    "drafting_trios": ["Create a room", "Practice against the computer"],
    "dropmix": ["Create a room", "Practice against the computer"],
}


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def console_errors(page) -> list[str]:
    """The page's console errors, each with the address it names. The browser's own request
    for /favicon.ico is left out: the site's icon is declared by the base template."""
    errors: list[str] = []

    def record(message) -> None:
        where = message.location.get("url", "")
        if message.type == "error" and not where.endswith("/favicon.ico"):
            errors.append(f"{message.text} ({where})")

    page.on("console", record)
    return errors


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_play_lists_the_three_games_with_their_ways_in(live_url, new_context, screenshot, size):
    page = new_context(viewport=size).new_page()
    errors = console_errors(page)
    for game, ways in WAYS_IN.items():
        page.goto(f"{live_url}/play/?game={game}")
        sections = page.locator(".play-game")
        expect(sections).to_have_count(3)
        expect(sections.first).to_have_attribute("id", f"play-{game}")
        expect(sections.first).to_have_class("card play-game selected")
        chosen = page.locator(f"#play-{game}")
        for name in ways:
            button = chosen.get_by_role("button", name=name, exact=True)
            expect(button).to_be_visible()
            box = button.bounding_box()
            assert box["width"] >= 24 and box["height"] >= 24
        assert chosen.get_by_role("button", name="Quick match").count() == len(ways) - 2
        assert sticking_out(page) == [], sticking_out(page)
        assert serious_violations(page) == []
    page.locator("#play-dropmix summary").first.click()  # the room options, opened
    assert sticking_out(page) == [] and serious_violations(page) == []
    screenshot(page, f"play-hub-{size['width']}")
    assert errors == []


@pytest.mark.parametrize("game", ["drafting_trios", "dropmix"])
def test_a_guest_is_seated_for_practice_in_one_click_from_the_games_link(
    catalogues, live_url, new_context, game
):
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{live_url}/play/?game={game}")
    page.locator(f"#play-{game}").get_by_role(
        "button", name="Practice against the computer"
    ).click()
    page.wait_for_url(f"{live_url}/games/*/")
    expect(page.locator("#you")).to_contain_text("You play as")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert GameSession.objects.get(pk=game_id).engine == game
    expect(page.locator("#clocks")).to_contain_text("Computer")


def create_room(page, live_url: str, game: str, **options: str) -> str:
    page.goto(f"{live_url}/play/?game={game}")
    section = page.locator(f"#play-{game}")
    if options:
        section.locator("summary").first.click()
        for field, value in options.items():
            section.locator(f"#{field}").select_option(value)
    section.get_by_role("button", name="Create a room").click()
    page.wait_for_url(f"{live_url}/r/*")
    return page.locator("#share-url").input_value()


def join_by_link(new_context, link: str, **context_options):
    page = new_context(**context_options).new_page()
    page.goto(link)
    page.get_by_role("button", name="Join the room").click()
    expect(page.locator("#lobby")).to_be_visible()
    return page


def start_and_follow(host, pages, live_url: str) -> int:
    host.locator("#start").click()
    host.wait_for_url(f"{live_url}/games/*/")
    game_id = int(host.url.rstrip("/").rsplit("/", 1)[1])
    for page in pages:
        page.wait_for_url(f"{live_url}/games/{game_id}/", timeout=20_000)
    return game_id


def test_two_people_play_a_drafting_trios_room_to_its_end_by_clicking(
    catalogues, live_url, new_context, screenshot
):
    host = new_context().new_page()
    link = create_room(host, live_url, "drafting_trios")
    expect(host.locator(".room-game")).to_contain_text("Drafting Trios")
    friend = join_by_link(new_context, link, viewport=PHONE)
    friend.get_by_role("button", name="I'm ready").click()
    expect(host.locator("#members .badge.ready")).to_have_count(2)
    assert serious_violations(host) == []
    screenshot(host, "room-drafting-trios-lobby")
    game_id = start_and_follow(host, [friend], live_url)
    players = [host, friend]
    for page in players:
        page.wait_for_function("() => document.querySelector('#game').dataset.status === 'running'")
    turns = 0
    while host.locator("#game").get_attribute("data-status") == "running" and turns < 3000:
        if not (act_if_asked(host) | act_if_asked(friend)):
            host.wait_for_timeout(50)
        turns += 1
    for page in players:
        page.locator("#end").wait_for(state="visible", timeout=20_000)
    game = GameSession.objects.get(pk=game_id)
    assert game.status == "finished" and game.outcome["reason"] != "timeout", game.outcome
    screenshot(friend, "room-drafting-trios-end")
    # Back in the room, another round is offered with the totals.
    host.locator("#back-to-room").click()
    expect(host.locator("#start")).to_have_text("Another round")
    expect(host.locator("#totals")).to_be_visible()


def dropmix_move(page, live_url: str, game_id: int) -> bool:
    """This page's person makes a move it owes by clicking: a drop (the card, then its slot),
    else a card chosen from the deck, else the Equalizer, else a pass."""
    state = page.request.get(f"{live_url}/api/games/{game_id}/").json()
    legal = [a for a in state.get("legal") or [] if a["type"] != "retract"]
    if state["status"] != "running" or not legal:
        return False
    before = version(page)
    drops = [a for a in legal if a["type"] == "drop"]
    kinds = {a["type"] for a in legal}
    if drops:
        action = drops[0]
        page.locator(f'[data-zone="hand"] button[data-card="{action["card"]}"]').click()
        key = f"drop-{action['slot']}-{action.get('colour', '')}"
        page.locator(f'.dm-slot[data-slot="{action["slot"]}"] [data-key="{key}"]').click()
    elif "choose" in kinds:
        page.locator(".dm-choose").first.click()
    elif "spin" in kinds:
        page.locator(".dm-spin").click()
    elif "pass" in kinds:
        page.locator(".dm-pass").click()
    else:
        return False
    wait_for_version(page, before, timeout=15_000)
    return True


def test_four_people_play_a_dropmix_2v2_room_to_its_end_by_clicking(
    catalogues, live_url, new_context, screenshot
):
    host = new_context().new_page()
    link = create_room(
        host, live_url, "dropmix", **{"dropmix-format": "2v2", "dropmix-target": "15"}
    )
    expect(host.locator(".room-game")).to_contain_text("2 against 2")
    second = join_by_link(new_context, link, viewport=PHONE)
    second.get_by_role("button", name="Join side B").click()  # a side chosen by clicking
    expect(second.locator("#side-1").locator("..")).to_contain_text("you")
    third = join_by_link(new_context, link)
    fourth = join_by_link(new_context, link)
    guests = [second, third, fourth]
    for page in guests:
        page.get_by_role("button", name="I'm ready").click()
    expect(host.locator("#members .badge.ready")).to_have_count(4)
    expect(host.get_by_role("button", name="Join side B")).to_have_count(0)  # both full
    assert serious_violations(host) == [] and sticking_out(second) == []
    screenshot(host, "room-dropmix-lobby")
    game_id = start_and_follow(host, guests, live_url)
    seats = RoomRound.objects.get(game_id=game_id).seats
    names = [seats[str(n)]["name"] for n in range(4)]
    pages = [host, second, third, fourth]
    by_seat = []
    for name in names:  # which page holds which seat: its person's room name
        holder = next(p for p in pages if name in p.locator("#you").inner_text())
        by_seat.append(holder)
    game = GameSession.objects.get(pk=game_id)
    assert game.state["sides"] == [[0, 2], [1, 3]]
    assert {by_seat[0], by_seat[2]} == {host, third}  # side A: the host and the third
    moves = 0
    while not GameSession.objects.get(pk=game_id).is_over and moves < 600:
        acted = False
        for page in by_seat:
            try:
                acted = dropmix_move(page, live_url, game_id) or acted
            except (PlaywrightError, AssertionError):
                page.wait_for_timeout(100)  # the board moved under the click: read it again
        if not acted:
            host.wait_for_timeout(200)  # a retract window closing
        moves += 1
    game = GameSession.objects.get(pk=game_id)
    assert game.status == "finished" and max(game.state["scores"]) >= 15, game.state["scores"]
    for page in pages:
        page.locator("#end").wait_for(state="visible", timeout=20_000)
    screenshot(fourth, "room-dropmix-end")
