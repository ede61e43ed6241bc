"""A practice game of each of the three games runs to its end with only the person's moves:
the person plays through the JSON API as a browser's guest, the computers through a real
Celery worker after their pause, and the rules' short windows close on their deadlines (the
server clock is moved to each, so the test does not wait out retract windows)."""

from __future__ import annotations

import random
import time

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import GameEvent, GameSession
from tests.games.hosting_helpers import celery_worker

pytestmark = pytest.mark.django_db(transaction=True)
SKIPPED = {"retract", "catch"}  # the person never takes back a move nor catches


@pytest.fixture(autouse=True)
def _deal_at_once(settings):
    """These tests are about the rooms themselves: their games deal at the start, without
    waiting for browsers' seeds (the seed window is tests/games/test_casual_seeds.py's)."""
    settings.CASUAL_SEED_WINDOW_SECONDS = 0


def play_to_the_end(client: APIClient, game_id: int, clock, rng: random.Random) -> GameSession:
    started = time.monotonic()
    quiet_since = time.monotonic()
    version = -1
    while True:
        assert time.monotonic() - started < 300, "the practice game did not end"
        body = client.get(f"/api/games/{game_id}/").json()
        if body["status"] != "running" and body["status"] != "waiting":
            return GameSession.objects.get(pk=game_id)
        if body["version"] != version:
            version, quiet_since = body["version"], time.monotonic()
        moves = [a for a in body.get("legal") or [] if a["type"] not in SKIPPED]
        game = GameSession.objects.get(pk=game_id)
        owes = game.status == "running" and services.core.engine_for(game.engine).decision(
            game.state, 0
        )
        if moves and owes:
            answer = client.post(
                f"/api/games/{game_id}/actions",
                {"action": rng.choice(moves), "expected_version": body["version"]},
                format="json",
            )
            # 409: a computer (a 2v2 partner too) moved first; the person reads the table again
            assert answer.status_code in (200, 409), answer.content
            continue
        if time.monotonic() - quiet_since > 1.0 and game.next_deadline is not None:
            # Nobody moves: a window (or the seed window) waits on its deadline.
            clock.now = max(clock.now, game.next_deadline.timestamp() + 0.01)
            services.enforce_deadline(game_id=game_id)
            quiet_since = time.monotonic()
        time.sleep(0.02)


@pytest.mark.parametrize(
    "body",
    [
        {"engine": "color_clash", "computers": 1},
        {"engine": "drafting_trios"},
        {"engine": "dropmix", "format": "1v2", "target": 15},
        {"engine": "dropmix", "format": "2v2", "target": 15},
    ],
    ids=["color_clash", "drafting_trios", "dropmix-1v2", "dropmix-2v2"],
)
def test_a_practice_game_ends_with_only_the_persons_moves(
    body, redis_url, celery_queue, settings, clock
):
    settings.BOT_DELAY_SECONDS = (0.01, 0.02)
    client = APIClient()
    with celery_worker(celery_queue):
        room = client.post("/api/rooms/practice", body, format="json")
        assert room.status_code == 201, room.content
        game = play_to_the_end(client, room.json()["game"], clock, random.Random(7))
    assert game.status == GameSession.Status.FINISHED, game.status
    assert game.outcome["ranking"], game.outcome
    log = list(GameEvent.objects.filter(game=game).order_by("seq"))
    people = {event.seat for event in log if event.seat == 0}
    computers = {event.seat for event in log if event.seat not in (None, 0)}
    assert people == {0}, "the person played"
    assert computers == set(range(1, game.seats.count())), "every computer played"
    bots = {seat.bot for seat in game.seats.exclude(number=0)}
    assert bots == {"heuristic" if body["engine"] == "color_clash" else "computer"}
