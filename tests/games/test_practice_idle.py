"""A practice game runs to its end when its person never moves: the computers play through a
real Celery worker, and each time the person's turn timer runs out the server draws for them
and passes the turn. The server clock is moved by hand to each deadline, so the test waits
for the computers, not for 30-second turns."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import GameEvent, GameSession
from games.rooms import services as rooms
from hosting.core.identity import Guest
from tests.games.hosting_helpers import celery_worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _deal_at_once(settings):
    """These tests are about the rooms themselves: their games deal at the start, without
    waiting for browsers' seeds (the seed window is tests/games/test_casual_seeds.py's)."""
    settings.CASUAL_SEED_WINDOW_SECONDS = 0


def wait_for_a_move(game_id: int, version: int, seconds: float) -> GameSession:
    """The game once its version moved past ``version``, or as it is after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        game = GameSession.objects.get(pk=game_id)
        if game.version != version or game.is_over or time.monotonic() > deadline:
            return game
        time.sleep(0.02)


def test_practice_against_five_computers_ends_with_only_the_timers_moving_the_person(
    redis_url, celery_queue, settings, clock
):
    settings.BOT_DELAY_SECONDS = (0.01, 0.02)
    person = rooms.Person(guest=Guest(id="idle-guest", name="Idle Guest"))
    room = rooms.practice_start(person=person, computers=5)
    game = GameSession.objects.get(pk=room.game_id)
    assert game.config["turn_seconds"] == 30 and game.seats.get(number=0).guest_id == "idle-guest"
    expiries = 0
    with celery_worker(celery_queue):
        started = time.monotonic()
        while not game.is_over:
            # A bound for a game that never ends, not a speed test: a CI machine under load
            # took over 240 s for the 6-seat game.
            assert time.monotonic() - started < 480, "the practice game did not end"
            moved = wait_for_a_move(game.pk, game.version, seconds=1.5)
            if moved.version == game.version and not moved.is_over:
                # Nobody moved: the person's turn (or a window) waits on its deadline.
                clock.now = max(clock.now, moved.next_deadline.timestamp() + 0.01)
                expiries += services.enforce_deadline(game_id=game.pk)
                moved = GameSession.objects.get(pk=game.pk)
            game = moved
    assert game.status == GameSession.Status.FINISHED
    log = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert not [event for event in log if event.seat == 0], "the person never acted"
    timed_out = [event for event in log if event.action == {"type": "timeout", "seats": [0]}]
    assert timed_out and expiries >= len(timed_out)
    drawn = [
        e for event in timed_out for e in event.events if e["type"] == "drew" and e["seat"] == 0
    ]
    assert drawn, "the timer drew for the idle person"
    computers = {event.seat for event in log if event.seat is not None}
    assert computers <= {1, 2, 3, 4, 5} and len(computers) >= 2
    assert game.outcome["ranking"], game.outcome
