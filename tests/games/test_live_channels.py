"""Each web process subscribes to the channels of the games and topics its own streams watch
(issue 31): on the first stream of one, and it leaves the channel after the last, so a process
hears only what its viewers watch and more processes divide the fan-out."""

import asyncio
import time

import pytest
import redis

from hosting.core import broadcast


def subscribers(client: redis.Redis, key: broadcast.Key) -> int:
    return dict(client.pubsub_numsub(broadcast.channel(key)))[broadcast.channel(key).encode()]


async def eventually(check, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def test_a_process_listens_to_the_games_its_streams_watch_and_only_while_they_do(
    settings, redis_url
):
    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    watched, other, topic = 910_001, 910_002, "tournaments:910003"

    async def scenario():
        first = await broadcast.subscribe(watched)
        # subscribed once subscribe() returns: a publish now reaches the stream
        assert subscribers(client, watched) == 1
        second = await broadcast.subscribe(watched)
        board = await broadcast.subscribe_topic(topic)
        assert subscribers(client, watched) == 1  # one subscription per process, not per stream
        assert subscribers(client, topic) == 1
        assert subscribers(client, other) == 0  # nobody here watches it: never sent here

        broadcast.publish(watched, broadcast.Update(3, False, {"spectator": "three"}))
        broadcast.publish(other, broadcast.Update(4, False, {"spectator": "four"}))
        for queue in (first, second):
            update = await asyncio.wait_for(queue.get(), 5)
            assert (update.version, update.parts) == (3, {"spectator": "three"})
        broadcast.publish_topic(topic, broadcast.Update(7, False, {"all": "7"}))
        assert (await asyncio.wait_for(board.get(), 5)).version == 7

        broadcast.unsubscribe(watched, first)
        await asyncio.sleep(0.1)
        assert subscribers(client, watched) == 1  # a stream still watches it
        broadcast.unsubscribe(watched, second)
        assert await eventually(lambda: subscribers(client, watched) == 0)
        broadcast.unsubscribe(topic, board)
        assert await eventually(lambda: subscribers(client, topic) == 0)

        # Watched again after the last stream left: subscribed again.
        again = await broadcast.subscribe(watched)
        assert subscribers(client, watched) == 1
        broadcast.publish(watched, broadcast.Update(5, True, {"spectator": "five"}))
        assert (await asyncio.wait_for(again.get(), 5)).version == 5
        broadcast.unsubscribe(watched, again)
        assert await eventually(lambda: subscribers(client, watched) == 0)

    asyncio.run(scenario())


@pytest.mark.parametrize("streams", [40])
def test_streams_opening_and_closing_at_once_leave_no_subscription_behind(
    settings, redis_url, streams
):
    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    games = [920_000 + n % 7 for n in range(streams)]

    async def scenario():
        queues = await asyncio.gather(*(broadcast.subscribe(game) for game in games))
        assert all(subscribers(client, game) == 1 for game in set(games))
        for game, queue in zip(games, queues, strict=True):
            broadcast.unsubscribe(game, queue)
        assert await eventually(lambda: all(subscribers(client, g) == 0 for g in set(games)))

    asyncio.run(scenario())
