"""One Redis connection pool per URL and process, for the live-update publisher and timers."""

from __future__ import annotations

import functools

import redis


@functools.cache
def client(url: str) -> redis.Redis:
    # Short timeouts: these calls run after a commit, and a Redis that is down must not hold
    # up the answer to a move that is already saved.
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
