"""Casual games take their people's client seeds: a room's game, a Quick match and a practice
game wait in a short seed window (``CASUAL_SEED_WINDOW_SECONDS``) for each person's browser to
send its part of the shuffle, as the game page does, and deal once all have come (or when the
window ends). Computers send none, and the verify page says so; the deal recomputed from the
server seed and the people's seeds matches the game."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games import fairness, services
from games.models import GameSession, Room
from games.verification import verify_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _window(settings):
    settings.CASUAL_SEED_WINDOW_SECONDS = 5
    cache.clear()
    yield
    cache.clear()


def send_seed(client: Client, game: GameSession, seed: str) -> None:
    """What the game page's script does in a seed window (games/static/games/seed_window.js)."""
    answer = client.post(
        f"/api/games/{game.pk}/client-seed", {"client_seed": seed}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content


def check_verified(game: GameSession, people: dict[int, str]) -> str:
    """End the game, then its verify page lists each person's seed and says the computers sent
    none, and the effective seed recomputed from the seeds is the one the game dealt from."""
    assert services.game_void(by=None, game_id=game.pk, reason="test over")
    game.refresh_from_db()
    report = verify_game(game)
    assert report["verified"] and report["effective_seed_matches"], report
    seats = list(game.seats.order_by("number"))
    expected = [people.get(seat.number, "") for seat in seats]
    assert [row["client_seed"] for row in report["client_seeds"]] == expected
    assert fairness.effective_seed(bytes.fromhex(game.seed), expected) == game.rng_seed
    page = Client().get(f"/games/{game.pk}/verify").content.decode()
    for seed in people.values():
        assert f'<code class="client-seed">{seed}</code>' in page
    computers = sum(1 for seat in seats if seat.kind == "computer")
    assert page.count("Computer: no seed") == computers
    assert page.count("none (counts as empty)") == len(seats) - computers - len(people)
    assert 'id="verdict" class="verdict ok"' in page
    return page


def test_a_practice_game_deals_once_the_persons_browser_sent_its_seed():
    person = Client()
    response = person.post("/play/practice", {"computers": "2"})
    game = GameSession.objects.get(pk=int(response["Location"].split("/")[2]))
    assert game.status == GameSession.Status.WAITING and game.next_deadline is not None
    page = person.get(response["Location"]).content.decode()
    assert '"seed_window_ends":' in page and 'id="seed-window"' in page
    send_seed(person, game, "a1b2c3d4e5f60718293a4b5c6d7e8f90")
    game.refresh_from_db()
    assert game.status == GameSession.Status.RUNNING  # nobody else to wait for
    check_verified(game, {0: "a1b2c3d4e5f60718293a4b5c6d7e8f90"})


def test_a_room_game_waits_for_every_persons_seed():
    host, friend = Client(), Client()
    code = host.post("/play/", {"match": "one_round"})["Location"].rsplit("/", 1)[1]
    friend.post(f"/r/{code}/join")
    friend.post(f"/r/{code}/ready")
    host.post(f"/r/{code}/start")
    game = GameSession.objects.get(pk=Room.objects.get(code=code).game_id)
    assert game.status == GameSession.Status.WAITING
    send_seed(host, game, "host-seed-0001")
    game.refresh_from_db()
    assert game.status == GameSession.Status.WAITING  # the friend's browser has not sent yet
    send_seed(friend, game, "friend-seed-0002")
    game.refresh_from_db()
    assert game.status == GameSession.Status.RUNNING
    check_verified(game, {0: "host-seed-0001", 1: "friend-seed-0002"})


def test_a_quick_match_takes_both_peoples_seeds(settings):
    settings.QUICK_MATCH_WAIT_SECONDS = 0
    first, second = Client(), Client()
    first.post("/play/quick")
    second.post("/play/quick")
    room = Room.objects.get(kind=Room.Kind.QUICK)
    first.get(f"/r/{room.code}")  # a poll after the wait starts the table
    room.refresh_from_db()
    game = GameSession.objects.get(pk=room.game_id)
    assert game.status == GameSession.Status.WAITING
    send_seed(first, game, "first+seed/1=")
    send_seed(second, game, "second:seed.2")
    game.refresh_from_db()
    assert game.status == GameSession.Status.RUNNING
    check_verified(game, {0: "first+seed/1=", 1: "second:seed.2"})


def test_a_seat_that_sent_nothing_counts_as_empty_when_the_window_ends(clock):
    person = Client()
    response = person.post("/play/practice", {"computers": "1"})
    game = GameSession.objects.get(pk=int(response["Location"].split("/")[2]))
    clock.now = game.next_deadline.timestamp() + 0.1
    assert services.enforce_deadline(game_id=game.pk) == 1
    game.refresh_from_db()
    assert game.status == GameSession.Status.RUNNING
    check_verified(game, {})  # the person's seat says "none (counts as empty)"
