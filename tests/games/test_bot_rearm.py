"""A computer player's move whose task was lost (its worker killed holding it, or Redis
emptied by a restart) is sent again by the beat sweep: the computer does not wait for its
clock to run out."""

import time

import pytest
import redis

from games import services
from games.models import GameEvent
from games.services import SeatSpec
from games.tasks import sweep_overdue
from games.timers import BOT_LOST_AFTER_SECONDS, BOT_REARMED_PREFIX
from hosting.celery import app
from hosting.core import scheduling
from tests.games.hosting_helpers import celery_worker, register_tiny, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sweep_sends_a_lost_computer_move_again_once(redis_url, celery_queue, settings):
    settings.BOT_DELAY_SECONDS = (0.05, 0.1)
    client = redis.Redis.from_url(redis_url)
    stale = list(client.scan_iter(match=f"{BOT_REARMED_PREFIX}*"))
    if stale:
        client.delete(*stale)
    register_tiny()
    game = services.game_create(
        engine_key="high_card",
        seats=[SeatSpec(kind="computer", bot="lowest"), SeatSpec()],
        time_control={"allowances": {"turn": 30}},
    )
    game.seats.filter(number=1).update(guest_id="g")
    # The computer's first move is due in the batched tasks' set, its drain in the queue...
    services.game_start(game_id=game.pk, by=None)
    assert client.zcard(scheduling.DUE_KEY) == 1
    with app.connection_for_write() as connection:
        assert connection.default_channel.queue_purge(celery_queue) >= 1
    client.delete(scheduling.DUE_KEY)  # ...both lost, as when Redis restarts empty
    assert sweep_overdue.apply().get() == 0
    assert not client.exists(f"{BOT_REARMED_PREFIX}{game.pk}:0:0")  # not overdue yet
    time.sleep(settings.BOT_DELAY_SECONDS[1] + BOT_LOST_AFTER_SECONDS + 0.1)
    with celery_worker(celery_queue):
        sweep_overdue.apply().get()
        assert wait_for(lambda: GameEvent.objects.filter(game=game, seat=0).exists(), 10)
        sweep_overdue.apply().get()
    assert GameEvent.objects.filter(game=game, seat=0).count() == 1
    assert client.exists(f"{BOT_REARMED_PREFIX}{game.pk}:0:0")
