"""Fan-out of "game G is now at version V, and here is what each audience sees" to every live
connection, in any process.

Publishers are synchronous (they run after a commit) and send each audience's text, rendered
once. Subscribers are SSE streams in the ASGI event loop, which pick their audience's text and
send it as it is. Without Redis the hub delivers in process; with Redis each process listens on
one pattern subscription and feeds its own hub, so any web process sees every commit.

Redis pub/sub delivers only to whoever listens at that moment: a publish made while Redis was
down, or while this process was reconnecting, is gone. So nothing relies on it alone. After a
resubscribe the hub says so (``resubscribed``): game streams then compare the database's
version with what they sent (``games.live`` does that every few seconds anyway, through
``Nudge``), and every topic's subscribers are told it may have changed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import urlsplit

import redis
import redis.asyncio as aioredis
from django.conf import settings

from hosting.core import redis_clients

log = logging.getLogger(__name__)
CHANNEL_PREFIX = "games:"
# Other audiences share the mechanism on their own channels, keyed in the hub by channel name
# (a tournament's board: "tournaments:<id>", a person's notices: "notifications:<user id>");
# games keep their id as the key.
TOPIC_PREFIXES = ("tournaments:", "notifications:")
Key = int | str


@dataclass(frozen=True)
class Update:
    """A committed version: ``parts`` maps an audience to its text (which has no newline);
    ``final`` says no version will follow."""

    version: int
    final: bool
    parts: dict[str, str]

    def encode(self) -> str:
        lines = [f"{self.version} {int(self.final)}"]
        lines.extend(f"{audience}\t{text}" for audience, text in self.parts.items())
        return "\n".join(lines)

    @classmethod
    def decode(cls, data: str) -> Update:
        header, *lines = data.split("\n")
        version, final = header.split(" ")
        parts = dict(line.split("\t", 1) for line in lines)
        return cls(version=int(version), final=final == "1", parts=parts)


@dataclass(frozen=True)
class Nudge:
    """The database's version of a game, which a stream that missed a publish is behind."""

    version: int


class Hub:
    def __init__(self) -> None:
        self._subscribers: dict[Key, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = (
            defaultdict(set)
        )
        self._lock = threading.Lock()

    def deliver(self, game_id: Key, update: Update) -> None:
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for loop, queue in targets:
            if _running_loop() is loop:
                queue.put_nowait(update)
            else:
                loop.call_soon_threadsafe(queue.put_nowait, update)

    def watched(self, game_id: Key) -> bool:
        return game_id in self._subscribers

    def watched_keys(self) -> list[Key]:
        with self._lock:
            return list(self._subscribers)

    def add(self, game_id: Key) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        with self._lock:
            self._subscribers[game_id].add((asyncio.get_running_loop(), queue))
        return queue

    def remove(self, game_id: Key, queue: asyncio.Queue) -> None:
        with self._lock:
            entries = self._subscribers.get(game_id, set())
            entries.difference_update({entry for entry in entries if entry[1] is queue})
            if not entries:
                self._subscribers.pop(game_id, None)


hub = Hub()
_listeners: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
_resubscribed: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}


def namespace() -> str:
    """The channels' prefix for this installation's Redis database. Redis pub/sub ignores the
    database number, so two installations (staging and production, or two test runs) on one
    Redis server would otherwise hear each other's game 1."""
    database = urlsplit(settings.REDIS_URL).path.strip("/") or "0"
    return f"db{database}:"


def publish(game_id: int, update: Update) -> None:
    if not settings.REDIS_URL:
        hub.deliver(game_id, update)
        return
    channel = f"{namespace()}{CHANNEL_PREFIX}{game_id}"
    redis_clients.client(settings.REDIS_URL).publish(channel, update.encode())


def publish_topic(topic: str, update: Update) -> None:
    """``publish`` for a channel under ``TOPIC_PREFIXES``."""
    if not settings.REDIS_URL:
        hub.deliver(topic, update)
        return
    redis_clients.client(settings.REDIS_URL).publish(f"{namespace()}{topic}", update.encode())


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


async def subscribe(game_id: int) -> asyncio.Queue:
    """A queue that receives every ``Update`` committed for the game from now on; hand it back
    with ``unsubscribe``. (A plain pair, not a context manager: SSE generators are closed by
    ``aclose()``, and nested async context managers there turn the close into an error.)"""
    if settings.REDIS_URL:
        await _ensure_listener()
    return hub.add(game_id)


def unsubscribe(game_id: Key, queue: asyncio.Queue) -> None:
    hub.remove(game_id, queue)


async def subscribe_topic(topic: str) -> asyncio.Queue:
    """``subscribe`` for a channel under ``TOPIC_PREFIXES``; hand it back with ``unsubscribe``."""
    if settings.REDIS_URL:
        await _ensure_listener()
    return hub.add(topic)


async def _ensure_listener() -> None:
    loop = asyncio.get_running_loop()
    task = _listeners.get(loop)
    if task is None or task.done():
        ready = asyncio.Event()
        _listeners[loop] = loop.create_task(_listen(ready))
        await ready.wait()


def resubscribed() -> asyncio.Event:
    """Set (in this event loop) each time the listener subscribed again after losing Redis:
    whatever was published meanwhile never reached this process."""
    return _resubscribed.setdefault(asyncio.get_running_loop(), asyncio.Event())


def _caught_up_topics() -> None:
    """Tell every topic's subscribers that it may have changed while nothing reached us (a
    tournament board then refetches itself); games catch up through ``resubscribed``."""
    version = time.time_ns() // 1000
    for key in hub.watched_keys():
        if isinstance(key, str):
            hub.deliver(key, Update(version=version, final=False, parts={"all": str(version)}))


async def _listen(ready: asyncio.Event) -> None:
    lost = False
    while True:
        client = aioredis.Redis.from_url(settings.REDIS_URL)
        try:
            async with client.pubsub() as pubsub:
                own = namespace()
                await pubsub.psubscribe(
                    f"{own}{CHANNEL_PREFIX}*", *(f"{own}{prefix}*" for prefix in TOPIC_PREFIXES)
                )
                ready.set()
                if lost:
                    log.warning("live updates: Redis is back; streams catch up from the database")
                    lost = False
                    resubscribed().set()
                    _caught_up_topics()
                async for message in pubsub.listen():
                    if message["type"] != "pmessage":
                        continue
                    channel = message["channel"].decode().removeprefix(own)
                    key: Key = channel
                    if channel.startswith(CHANNEL_PREFIX):
                        key = int(channel.removeprefix(CHANNEL_PREFIX))
                    if hub.watched(key):  # every process hears every game: decode its own
                        hub.deliver(key, Update.decode(message["data"].decode()))
        except (redis.RedisError, OSError):
            log.warning("live updates lost Redis; reconnecting", exc_info=True)
            lost = True
            ready.set()
            await asyncio.sleep(1)
        finally:
            await client.aclose()
