"""One Redis connection pool per URL and process: for the live-update publisher and timers,
and (``SharedConnectionPool``) for Django's cache, which counts the rate limits."""

from __future__ import annotations

import functools
import threading
from typing import Any

import redis

_pools: dict[tuple[type, str, tuple[tuple[str, str], ...]], redis.ConnectionPool] = {}
_pools_lock = threading.Lock()


@functools.cache
def client(url: str) -> redis.Redis:
    # Short timeouts: these calls run after a commit, and a Redis that is down must not hold
    # up the answer to a move that is already saved.
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


class SharedConnectionPool(redis.ConnectionPool):
    """The cache's ``pool_class``: every cache object of the process shares one pool per URL.

    Django keeps cache objects in an ``asgiref.local.Local``, one per async context, and under
    ASGI every request is a context of its own: each request built a new ``RedisCache``, a new
    pool and so a new Redis connection (a TCP handshake, ``HELLO``, and redis-py's driver-info
    lookup in the package metadata), closed again when the request's objects were collected.
    At 100 guests that was a fifth of the web's sync thread, on which every request waits
    (docs/benchmarks.md, "Casual Color Clash"). redis-py's pools are thread-safe and make new
    connections after a fork, so one per process is what redis-py intends."""

    @classmethod
    def from_url(cls, url: str, **options: Any) -> redis.ConnectionPool:
        key = (cls, url, tuple(sorted((name, repr(value)) for name, value in options.items())))
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **options)
            return pool
