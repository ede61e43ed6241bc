"""The front door in a real browser, reached from ``/`` by clicking only (no typed URL): a
guest gets a seat in a Color Clash room, a Drafting Trios practice game and a DropMix practice
game in at most three clicks each; a challenge sent by name is accepted from the other
player's home page and seats both, the tab's title marking "your turn"; the home page and the
profile at 390 and 1280 px have no sideways scroll, no serious axe-core violation and no
console error.

The Trios and DropMix ways in follow the contract of ``/play/?game=…`` (its buttons "Create a
room", "Practice against the computer", "Quick match" for Color Clash), which the rooms for
all three games provide."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games import services as game_services
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import DESKTOP, PHONE, sticking_out

# The contract's name for the button; "Start practice" is Color Clash's until /play/ serves
# the three games.
PRACTICE = re.compile(r"Practi[cs]e against the computer|Start practice", re.I)


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    return errors


def game_id_of(page) -> int:
    return int(re.search(r"/games/(\d+)/", page.url).group(1))


def test_a_guest_reaches_a_seat_in_a_color_clash_room_in_two_clicks(live_url, new_context):
    page = new_context(viewport=PHONE).new_page()
    errors = console_errors(page)
    page.goto(f"{live_url}/")
    page.get_by_role("link", name="Play Color Clash").click()  # 1
    page.get_by_role("button", name="Create a room").first.click()  # 2: the chosen game comes first
    page.wait_for_url(re.compile(r"/r/[A-Z]{6}$"))
    expect(page.locator("#room-code")).to_be_visible()
    expect(page.locator("#members li")).to_have_count(1)  # the guest holds the room's first seat
    assert errors == []


@pytest.mark.parametrize(
    ("name", "engine"),
    [
        ("Color Clash", "color_clash"),
        ("Drafting Trios", "drafting_trios"),
        ("DropMix Clash", "dropmix"),
    ],
)
def test_a_guest_reaches_a_practice_seat_in_at_most_three_clicks_and_its_seed_counts(
    live_url, new_context, name, engine
):
    page = new_context(viewport=PHONE).new_page()
    errors = console_errors(page)
    page.goto(f"{live_url}/")
    page.get_by_role("link", name=f"Play {name}").click()  # 1
    page.wait_for_url(re.compile(rf"/play/\?game={engine}$"))
    page.get_by_role("button", name=PRACTICE).first.click()  # 2 (a third may pick a format)
    if "/games/" not in page.url:
        page.get_by_role("button", name=PRACTICE).first.click()  # 3
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = GameSession.objects.get(pk=game_id_of(page))
    assert game.engine == engine
    expect(page.locator("#you")).to_contain_text("You play as")
    # The browser sent its seed: the game deals without waiting for the window's end.
    expect(page.locator("#board")).not_to_be_empty(timeout=15_000)
    game.refresh_from_db()
    seed = game.seats.get(number=0).client_seed
    assert game.status == "running" and seed
    # Once over, the fairness check lists the browser's seed and the computers' none.
    game_services.game_void(by=None, game_id=game.pk, reason="test over")
    page.locator(".commitment summary").click()  # the commitment folds away on the table
    page.locator(".commitment").get_by_role("link", name="Check that the deal was fair").click()
    expect(page.locator("#client-seeds code.client-seed")).to_have_text([seed])
    expect(page.locator("#client-seeds .no-seed").first).to_have_text(
        "Computer: no seed (counts as empty)"
    )
    expect(page.locator("#verdict")).to_have_text("Verified: the deal was fair.")
    assert errors == []


def test_a_challenge_by_name_is_accepted_from_the_other_players_home_page(
    live_url, new_context, sign_in, screenshot
):
    User = get_user_model()
    alice = User.objects.create_user("alice-e2e", password="pw-alice-e2e-1")
    bob = User.objects.create_user("bob-e2e", password="pw-bob-e2e-1")
    sender = new_context()
    sign_in(sender, live_url, alice)
    invitee = new_context(viewport=PHONE)
    sign_in(invitee, live_url, bob)

    a = sender.new_page()
    a_errors = console_errors(a)
    a.goto(f"{live_url}/")
    a.get_by_label("Player's name").fill("bob-e2e")
    a.get_by_label("Game", exact=True).select_option("drafting_trios")
    a.get_by_role("button", name="Send the challenge").click()
    expect(a.get_by_text("Challenge sent to bob-e2e")).to_be_visible()
    expect(a.locator("#challenges-sent")).to_contain_text("bob-e2e")

    b = invitee.new_page()
    b_errors = console_errors(b)
    b.goto(f"{live_url}/")
    received = b.locator("#challenges-received li")
    expect(received).to_contain_text("alice-e2e challenges you to Drafting Trios")
    assert serious_violations(b) == []
    screenshot(b, "home-challenged")
    received.get_by_role("button", name="Accept").click()
    b.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = game_id_of(b)
    expect(b.locator("#you")).to_contain_text("bob-e2e")

    # The challenger finds the game first on their own home page.
    a.goto(f"{live_url}/")
    a.locator("#open-seats").get_by_role("link", name=re.compile(f"game {game_id}")).click()
    a.wait_for_url(f"{live_url}/games/{game_id}/")
    expect(a.locator("#you")).to_contain_text("alice-e2e")
    # Both browsers sent their seeds: dealt, and both draft at once, so both tabs say so.
    for page in (a, b):
        expect(page).to_have_title(re.compile(r"^\(●\) Your turn — Drafting Trios"), timeout=15_000)
    game = GameSession.objects.get(pk=game_id)
    assert game.status == "running"
    assert all(seat.client_seed for seat in game.seats.all())
    assert a_errors == [] and b_errors == []


def played(person, *, won: bool) -> None:
    """A finished Color Clash game of ``person`` against a computer, for the profile's lists."""
    game = game_services.game_create(
        engine_key="color_clash",
        seats=[game_services.SeatSpec(user=person), game_services.SeatSpec(kind="computer")],
    )
    game_services.game_start(by=None, game_id=game.pk)
    winner = 0 if won else 1
    GameSession.objects.filter(pk=game.pk).update(
        status=GameSession.Status.FINISHED,
        finished=timezone.now(),
        outcome={
            "winners": [winner],
            "ranking": [[winner], [1 - winner]],
            "scores": {str(winner): 87, str(1 - winner): 0},
        },
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_home_and_profile_fit_and_pass_axe(live_url, new_context, sign_in, screenshot, viewport):
    player = get_user_model().objects.create_user(
        f"carol-{viewport['width']}", password="pw-c-123456"
    )
    played(player, won=True)
    played(player, won=False)
    in_progress = game_services.game_create(
        engine_key="drafting_trios",
        seats=[game_services.SeatSpec(user=player), game_services.SeatSpec(kind="computer")],
    )
    game_services.game_start(by=None, game_id=in_progress.pk)
    context = new_context(viewport=viewport)
    sign_in(context, live_url, player)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{live_url}/")
    assert sticking_out(page) == []
    assert serious_violations(page) == []
    # The header's own name link leads to the profile.
    page.get_by_role("link", name=re.compile(f"Signed in as {player.username}")).click()
    page.wait_for_url(f"{live_url}/u/{player.username}/")
    expect(page.get_by_role("heading", name=player.username, level=1)).to_be_visible()
    expect(page.locator("#per-game")).to_contain_text("2 games, 1 won")
    expect(page.locator("#open-seats li")).to_have_count(1)
    assert sticking_out(page) == []
    assert serious_violations(page) == []
    if viewport is PHONE:
        screenshot(page, "profile")
    guest = new_context(viewport=viewport).new_page()
    guest_errors = console_errors(guest)
    guest.goto(f"{live_url}/")
    assert sticking_out(guest) == [] and serious_violations(guest) == []
    if viewport is PHONE:
        screenshot(guest, "home-lobby")
    guest.get_by_role("link", name="My games").click()
    guest.wait_for_url(f"{live_url}/u/me/")
    assert sticking_out(guest) == [] and serious_violations(guest) == []
    assert errors == [] and guest_errors == []
