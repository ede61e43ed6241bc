"""Fan-out of "game G is now at version V, and here is what each audience sees" to every live
connection, in any process.

Publishers are synchronous (they run after a commit) and send each audience's text, rendered
once. Subscribers are SSE streams in the ASGI event loop, which pick their audience's text and
send it as it is. Without Redis the hub delivers in process; with Redis each process subscribes
to the channel of each game or topic its own streams watch (on the first stream, and leaves it
after the last) and feeds its own hub: a process hears only what its viewers watch.

Redis pub/sub delivers only to whoever listens at that moment: a publish made while Redis was
down, or while this process was reconnecting, is gone. So nothing relies on it alone. After a
resubscribe the hub says so (``resubscribed``): game streams then compare the database's
version with what they sent (``games.live`` does that every few seconds anyway, through
``Nudge``), and every topic's subscribers are told it may have changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from hosting.core import redis_clients, redis_subscriber

log = logging.getLogger(__name__)
CHANNEL_PREFIX = "games:"
# Other audiences share the mechanism on channels of their own, keyed in the hub by the channel's
# name (a tournament's board: "tournaments:<id>", a person's notices: "notifications:<user id>";
# any name not under CHANNEL_PREFIX); games keep their id as the key. ``subscribe_topic`` and
# ``publish_topic`` take any such name.
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
_listeners: dict[asyncio.AbstractEventLoop, _Listener] = {}
_resubscribed: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}
SUBSCRIBE_WAIT_SECONDS = 5.0


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
    """``publish`` for a topic: a channel name outside ``CHANNEL_PREFIX``."""
    if not settings.REDIS_URL:
        hub.deliver(topic, update)
        return
    redis_clients.client(settings.REDIS_URL).publish(f"{namespace()}{topic}", update.encode())


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def channel(key: Key) -> str:
    """The Redis channel of a hub key (a game's id, or a topic such as "tournaments:7")."""
    name = f"{CHANNEL_PREFIX}{key}" if isinstance(key, int) else key
    return f"{namespace()}{name}"


async def subscribe(game_id: int) -> asyncio.Queue:
    """A queue that receives every ``Update`` committed for the game from now on; hand it back
    with ``unsubscribe``. (A plain pair, not a context manager: SSE generators are closed by
    ``aclose()``, and nested async context managers there turn the close into an error.)

    With Redis, this process subscribes to the game's channel on its first stream of the game
    and returns once Redis has confirmed it, so a commit read after this call cannot have been
    published before the subscription."""
    return await subscribe_key(game_id)


async def subscribe_topic(topic: str) -> asyncio.Queue:
    """``subscribe`` for a topic (see ``publish_topic``); hand it back with ``unsubscribe``."""
    return await subscribe_key(topic)


async def subscribe_key(key: Key) -> asyncio.Queue:
    """``subscribe`` for any key: a game's id or a topic's channel name (without the namespace).
    Any channel name works; ``publish_topic`` publishes on it."""
    queue = hub.add(key)
    if settings.REDIS_URL:
        try:
            await _listener().watch(key)
        except BaseException:
            unsubscribe(key, queue)
            raise
    return queue


def unsubscribe(key: Key, queue: asyncio.Queue) -> None:
    """Hand back a queue from ``subscribe``; the process leaves the channel after its last."""
    hub.remove(key, queue)
    if settings.REDIS_URL:
        listener = _listeners.get(_running_loop())  # type: ignore[arg-type]
        if listener is not None:
            listener.unwatch(key)


def _listener() -> _Listener:
    loop = asyncio.get_running_loop()
    listener = _listeners.get(loop)
    if listener is None:
        listener = _listeners[loop] = _Listener(loop)
    listener.ensure_running()
    return listener


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


class _Listener:
    """One Redis pub/sub connection per event loop, subscribed to exactly the channels this
    loop's streams watch (issue 31: a process hears only its own viewers' games, so adding web
    processes divides the fan-out instead of multiplying it). Reference-counted per channel:
    SUBSCRIBE on the first stream of a key, UNSUBSCRIBE after the last. A channel of its own
    that nothing publishes on keeps the connection subscribed while no stream is open."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.counts: dict[str, int] = {}  # channel -> streams of this loop watching it
        self.confirmed: dict[str, asyncio.Future] = {}  # channel -> its SUBSCRIBE's reply
        self.connection: redis_subscriber.Subscriber | None = None
        self.task: asyncio.Task | None = None
        self.own = f"{namespace()}listener:{id(self)}"
        self.prefix = namespace().encode()
        self.unconfirmed: set[bytes] = set()  # after losing Redis: catch up once all are back

    def ensure_running(self) -> None:
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    async def watch(self, key: Key) -> None:
        name = channel(key)
        count = self.counts.get(name, 0)
        self.counts[name] = count + 1
        if count == 0:
            self.confirmed[name] = self.loop.create_future()
            self._send("subscribe", name)
        waiting = self.confirmed.get(name)
        if waiting is not None and not waiting.done():
            # Redis down: stream from the database; the catch-up after reconnecting covers it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(waiting), SUBSCRIBE_WAIT_SECONDS)

    def unwatch(self, key: Key) -> None:
        name = channel(key)
        count = self.counts.get(name, 0) - 1
        if count > 0:
            self.counts[name] = count
            return
        self.counts.pop(name, None)
        self.confirmed.pop(name, None)
        self._send("unsubscribe", name)

    def _send(self, command: str, name: str) -> None:
        """SUBSCRIBE or UNSUBSCRIBE on the listening connection (Redis answers on the stream
        the listener reads). Without a connection, the next one subscribes to every watched
        channel when it starts."""
        if self.connection is None:
            return
        try:
            if command == "subscribe":
                self.connection.subscribe(name)
            else:
                self.connection.unsubscribe(name)
        except (redis_subscriber.SubscriberError, OSError):
            log.warning("live updates: %s %s failed; the listener reconnects", command, name)

    def _message(self, raw_channel: bytes, data: bytes) -> None:
        key = _key(raw_channel, self.prefix)
        if key is not None and hub.watched(key):
            hub.deliver(key, Update.decode(data.decode()))

    def _subscribed(self, raw_channel: bytes) -> None:
        waiting = self.confirmed.get(raw_channel.decode())
        if waiting is not None and not waiting.done():
            waiting.set_result(None)
        if self.unconfirmed:
            self.unconfirmed.discard(raw_channel)
            if not self.unconfirmed:
                log.warning("live updates: Redis is back; streams catch up from the database")
                resubscribed().set()
                _caught_up_topics()

    def _confirm_all(self) -> None:
        for waiting in self.confirmed.values():
            if not waiting.done():
                waiting.set_result(None)

    async def _run(self) -> None:
        lost = False
        while True:
            connection = None
            try:
                connection = await redis_subscriber.Subscriber.connect(
                    settings.REDIS_URL, self._message, self._subscribed
                )
                wanted = [self.own, *self.counts]
                if lost:
                    self.unconfirmed = {name.encode() for name in wanted}
                    lost = False
                connection.subscribe(*wanted)
                self.connection = connection
                ended = await connection.closed()
                raise redis_subscriber.SubscriberError(f"Redis closed the connection: {ended}")
            except (redis_subscriber.SubscriberError, OSError, TimeoutError):
                log.warning("live updates lost Redis; reconnecting", exc_info=True)
                lost = True
                self.connection = None
                self._confirm_all()  # streams go on from the database meanwhile
                await asyncio.sleep(1)
            finally:
                self.connection = None
                if connection is not None:
                    connection.close()


def _key(raw: bytes, own: bytes) -> Key | None:
    """The hub key of a channel of this installation's namespace ``own``."""
    if not raw.startswith(own):
        return None
    name = raw[len(own) :]
    if name.startswith(b"games:"):
        try:
            return int(name[6:])
        except ValueError:
            return None
    return name.decode()
