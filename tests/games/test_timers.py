"""Clocks run out with nobody calling the server: a real Celery worker on Redis applies the
expiry; with no worker, the beat sweep or the next request does; never twice."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.db import connection

from games import services
from games.models import GameEvent, GameSession
from games.services import SeatSpec
from games.services.commit import ARMED_PREFIX
from games.tasks import sweep_overdue
from tests.games.hosting_helpers import celery_worker, register_tiny, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def start_tiny_game(turn_seconds: float) -> GameSession:
    register_tiny()
    game = services.game_create(
        engine_key="high_card",
        seats=[SeatSpec(), SeatSpec()],
        time_control={"allowances": {"turn": turn_seconds}},
    )
    game.seats.update(guest_id="g")  # both seats taken; nobody will act
    return services.game_start(game_id=game.pk, by=None)


def test_the_worker_applies_an_expiry_within_a_second_of_the_deadline(redis_url, celery_queue):
    with celery_worker(celery_queue):
        game = start_tiny_game(turn_seconds=1.0)
        deadline = game.next_deadline
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seq=1).exists(), 5)
        first = GameEvent.objects.get(game=game, seq=1)
        assert first.action == {"type": "timeout", "seats": [0]}
        assert 0 <= (first.at - deadline).total_seconds() < 1.0
        # The whole game now plays itself out through timeouts and closing windows.
        assert wait_for(lambda: GameSession.objects.get(pk=game.pk).status == "finished", 30)
    finished = GameSession.objects.get(pk=game.pk)
    seqs = list(finished.log.values_list("seq", flat=True))
    assert seqs == list(range(1, finished.version + 1))
    timeouts = finished.log.filter(action__type="timeout").count()
    assert timeouts == 6  # three cards each, every one played by the clock, none twice


def test_the_worker_as_deployed_applies_an_expiry_within_a_second(redis_url, celery_queue):
    """``celery -A hosting worker`` with the settings' own pool (threads), not the in-process
    test worker: every thread keeps its connection, and the expiry still lands on time."""
    if connection.vendor != "postgresql":
        pytest.skip("a worker process needs a database server")
    db = connection.settings_dict
    login = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{login}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": redis_url,
        "EXTRA_ENGINES": "high_card=tests.games.engines.tiny",
    }
    command = [sys.executable, "-m", "celery", "-A", "hosting", "worker", "-Q", celery_queue]
    root = Path(__file__).resolve().parents[2]
    output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    worker = subprocess.Popen([*command, "--loglevel=INFO"], cwd=root, env=env, **output)
    try:
        banner = []
        for line in worker.stdout:
            banner.append(line)
            if " ready." in line:
                break
        assert any("(thread)" in line for line in banner), "".join(banner)
        # Keep reading its log, or a full pipe would stall the worker.
        threading.Thread(target=banner.extend, args=(worker.stdout,), daemon=True).start()
        game = start_tiny_game(turn_seconds=1.0)
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seq=1).exists(), 5)
        first = GameEvent.objects.get(game=game, seq=1)
        assert first.action == {"type": "timeout", "seats": [0]}
        assert 0 <= (first.at - game.next_deadline).total_seconds() < 1.0
    finally:
        worker.terminate()
        worker.wait(15)


def test_a_far_deadline_is_armed_by_the_sweep_once_it_comes_near(redis_url, celery_queue, settings):
    settings.TIMER_ARM_AHEAD_SECONDS = 0.5
    armed = redis.Redis.from_url(redis_url)
    with celery_worker(celery_queue):
        game = start_tiny_game(turn_seconds=1.5)
        deadline = game.next_deadline
        pattern = f"{ARMED_PREFIX}{game.pk}:{deadline.timestamp():.6f}"
        assert not armed.exists(pattern)  # 1.5 s away: the commit left it to the sweep
        assert sweep_overdue.apply().get() == 0
        assert not armed.exists(pattern)  # still too far
        time.sleep(1.1)
        assert sweep_overdue.apply().get() == 0
        assert armed.exists(pattern)  # now within 0.5 s: its ETA task is on the way
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seq=1).exists(), 5)
        first = GameEvent.objects.get(game=game, seq=1)
        assert 0 <= (first.at - deadline).total_seconds() < 1.0
    assert GameEvent.objects.filter(game=game, action__type="timeout").count() == 1


def test_without_a_worker_the_beat_sweep_applies_it_once(redis_url):
    game = start_tiny_game(turn_seconds=0.3)
    time.sleep(0.4)
    assert sweep_overdue.apply().get() == 1
    assert sweep_overdue.apply().get() == 0
    assert services.enforce_deadline(game_id=game.pk) == 0
    assert list(GameEvent.objects.filter(game=game).values_list("action", flat=True)) == [
        {"type": "timeout", "seats": [0]}
    ]


def test_without_any_timer_the_next_request_applies_it(client):
    game = start_tiny_game(turn_seconds=0.3)
    time.sleep(0.4)
    state = client.get(f"/api/games/{game.pk}/").json()
    assert state["version"] == 1
    assert GameEvent.objects.get(game=game).seat is None


def test_a_computer_player_answers_through_the_worker(redis_url, celery_queue, settings):
    from games import engines

    settings.BOT_DELAY_SECONDS = (0.2, 0.4)
    engine = engines.get("drafting_trios")
    with celery_worker(celery_queue):
        game = services.game_create(
            engine_key="drafting_trios",
            seats=[SeatSpec(), SeatSpec(kind="computer", bot="greedy")],
        )
        game.seats.filter(number=0).update(guest_id="g")
        game = services.game_start(game_id=game.pk, by=None)
        # The computer drafts its first pick by itself, while the person still thinks.
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seat=1).exists(), 10)
        state = GameSession.objects.get(pk=game.pk).state
        assert engine.decision(state, 1) is None and engine.decision(state, 0) is not None
        services.act(game_id=game.pk, seat=0, action=engine.legal_actions(state, 0)[0])
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seat=1).count() == 2, 10)


def test_a_death_match_reserve_running_out_loses_it_by_the_worker(redis_url, celery_queue):
    """Drafting Trios: the EC drafts, the DMO never does; the DMO's pick allowance and then its
    reserve run out with nobody calling the server, and the worker makes the DMO lose."""
    from games import engines

    engine = engines.get("drafting_trios")
    with celery_worker(celery_queue):
        game = services.game_create(
            engine_key="drafting_trios",
            seats=[SeatSpec(role="EC"), SeatSpec(role="DMO")],
            time_control={"allowances": {"draft": 1.0}, "reserve": 0.5},
        )
        game.seats.update(guest_id="g")
        game = services.game_start(game_id=game.pk, by=None)
        services.act(game_id=game.pk, seat=0, action=engine.legal_actions(game.state, 0)[0])
        dmo_deadline = GameSession.objects.get(pk=game.pk).next_deadline
        assert wait_for(lambda: GameSession.objects.get(pk=game.pk).status == "finished", 6)
    finished = GameSession.objects.get(pk=game.pk)
    assert finished.outcome["winners"] == [0] and finished.outcome["reason"] == "timeout"
    timeout = finished.log.get(seat=None)
    assert timeout.action == {"type": "timeout", "seats": [1]}
    assert 0 <= (timeout.at - dmo_deadline).total_seconds() < 1.0


def test_a_move_is_saved_and_answered_while_redis_is_down(settings, client):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    game = start_tiny_game(turn_seconds=1.0)  # the start's update and timer fail quietly too
    token = services.seat_token_issue(seat=game.seats.get(number=0))
    card = game.state["hands"][0][0]
    response = client.post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "play", "card": card}, "client_action_id": "a"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Seat {token}",
    )
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 1
    assert GameEvent.objects.get(game=game).action == {"type": "play", "card": card}
