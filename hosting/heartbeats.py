"""Heartbeats of the Celery worker and beat, which ``/healthz`` reads.

A worker is alive while its consumer is connected to the broker: a consumer bootstep runs a
thread that writes the time to ``hosting:heartbeat:worker:<hostname>`` every few seconds, from
the moment the consumer connects until it stops or loses the connection (Celery stops every
consumer step then, and starts them again once it has reconnected). Beat is alive while its
scheduler loop turns: each tick writes ``hosting:heartbeat:beat``. Each key expires on its own,
so a process killed with ``kill -9`` stops counting within ``STALE_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import redis
from celery import bootsteps
from celery.beat import PersistentScheduler
from django.conf import settings

from hosting.core import redis_clients

log = logging.getLogger(__name__)
PREFIX = "hosting:heartbeat:"
INTERVAL_SECONDS = 2.0
# A heartbeat older than this means the process is gone or stuck: two missed beats and a margin.
STALE_SECONDS = 3 * INTERVAL_SECONDS


def beat(role: str, name: str = "") -> None:
    """Record that ``role`` (``worker`` or ``beat``; ``name``: which one) is alive now."""
    key = f"{PREFIX}{role}" + (f":{name}" if name else "")
    client = redis_clients.client(settings.REDIS_URL)
    client.set(key, repr(time.time()), ex=int(STALE_SECONDS) + 1)


def ages(role: str) -> dict[str, float]:
    """Seconds since each live ``role`` process last beat, by name ("" for beat)."""
    client = redis_clients.client(settings.REDIS_URL)
    keys = [key.decode() for key in client.scan_iter(match=f"{PREFIX}{role}*", count=100)]
    if not keys:
        return {}
    now = time.time()
    found = {}
    for key, value in zip(keys, client.mget(keys), strict=True):
        if value is not None:
            name = key.removeprefix(f"{PREFIX}{role}").removeprefix(":")
            found[name] = max(0.0, now - float(value))
    return {name: age for name, age in found.items() if age <= STALE_SECONDS}


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A consumer step: beats while the consumer is connected."""

    requires = ("celery.worker.consumer.connection:Connection",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self._stop: threading.Event | None = None

    def start(self, parent: Any) -> None:
        self._stop = threading.Event()
        name = parent.hostname
        thread = threading.Thread(
            target=_beat_until, args=(self._stop, name), name="heartbeat", daemon=True
        )
        thread.start()

    def stop(self, parent: Any) -> None:
        if self._stop is not None:
            self._stop.set()

    shutdown = stop


def _beat_until(stop: threading.Event, name: str) -> None:
    while not stop.is_set():
        try:
            beat("worker", name)
        except (redis.RedisError, OSError):
            log.debug("worker heartbeat not written: Redis is unreachable", exc_info=True)
        stop.wait(INTERVAL_SECONDS)


class BeatScheduler(PersistentScheduler):
    """Celery beat's own scheduler, beating from its loop (``CELERY_BEAT_SCHEDULER``)."""

    _last_beat = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        delay = super().tick(*args, **kwargs)
        moment = time.monotonic()
        if moment - self._last_beat >= INTERVAL_SECONDS:
            self._last_beat = moment  # a Redis that is down is retried an interval later
            try:
                beat("beat")
            except (redis.RedisError, OSError):
                log.debug("beat heartbeat not written: Redis is unreachable", exc_info=True)
        # Wake at least once an interval, even when no task is due sooner.
        return min(delay, INTERVAL_SECONDS)
