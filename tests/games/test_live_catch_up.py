"""A stream that missed a publish (Redis was down when the move committed) still reaches the
game's state: the periodic version check reads it from the database. tests/faults kills a
real Redis under running games for the same guarantee end to end."""

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games import services
from games.models import GameSession
from tests.games.test_live import next_message, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stream_that_missed_a_publish_catches_up_from_the_database(
    settings, redis_url, monkeypatch
):
    settings.REDIS_URL = redis_url
    monkeypatch.setattr("games.live.VERSION_CHECK_SECONDS", 0.2)
    game_id, tokens = started_game()

    def redis_is_down(*args, **kwargs):
        raise redis.ConnectionError("Redis went away while the move committed")

    async def scenario():
        response = await AsyncClient().get(
            f"/live/games/{game_id}/", headers={"Authorization": f"Seat {tokens[1]}"}
        )
        stream = response.streaming_content.__aiter__()
        assert (await next_message(stream))["version"] == 0
        monkeypatch.setattr("hosting.core.broadcast.publish", redis_is_down)
        game = await sync_to_async(GameSession.objects.get)(pk=game_id)
        card = game.state["hands"][0][0]
        await sync_to_async(services.act)(
            game_id=game_id, seat=0, action={"type": "play", "card": card}
        )
        caught_up = await next_message(stream)
        assert caught_up["version"] == 1 and caught_up["seat"] == 1
        assert caught_up["view"]["table"][0] == [card]
        await stream.aclose()

    asyncio.run(scenario())
