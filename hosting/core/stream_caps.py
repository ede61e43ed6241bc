"""How many live streams (SSE under ``/live/``) one client and one session may hold open.

An open stream costs the server a connection, a queue and a share of every publish for as
long as it lasts, and it never ends by itself: without a cap one address could open
thousands. ``LIVE_STREAMS_PER_CLIENT`` caps a client address (``hosting.core.proxies``) and
``LIVE_STREAMS_PER_SESSION`` a browser session or personal token; both are far above what a
person with many tabs opens (a tab holds one or two streams). Past a cap the stream is
refused with a 429 and ``Retry-After``; 0 turns a cap off.

Each open stream holds a lease: a member of a sorted set per client and per session, scored
by when it expires, in Redis when ``REDIS_URL`` is set (every web process counts together)
and in process otherwise. The stream renews its lease as it writes (its keep-alive comment
comes at least every 15 s) and gives it back when it ends; a stream whose process died
without giving it back stops counting when the lease expires (``LEASE_SECONDS``), so
nothing leaks. As with the rate limits, a Redis that cannot be reached never refuses a stream.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from hosting.core.proxies import client_address

log = logging.getLogger(__name__)
LEASE_SECONDS = 60.0
RENEW_SECONDS = 10.0  # renewed at the first write this long after the last renewal
RETRY_AFTER_SECONDS = 30
KEY_PREFIX = "live-streams"

# KEYS: one sorted set per cap; ARGV: now, expiry, member, ttl, then each key's cap. Drops the
# expired leases, and adds the member to every set unless one is full (then: its position).
ACQUIRE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, ARGV[4])
end
return 0
"""


@dataclass
class Lease:
    keys: list[str]
    member: str = field(default_factory=lambda: secrets.token_hex(8))
    renewed: float = field(default_factory=time.monotonic)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def _session_of(request: HttpRequest) -> str | None:
    """The browser session or personal token the stream is opened with (a digest: the key is a
    credential), or None for a request with neither."""
    authorization = request.headers.get("Authorization", "")
    if authorization[:7].lower() == "bearer ":
        return "token:" + _digest(authorization[7:].strip())
    session = getattr(request, "session", None)
    key = session.session_key if session is not None else None
    return "session:" + _digest(key) if key else None


def _caps(request: HttpRequest) -> list[tuple[str, int]]:
    caps = [(f"client:{client_address(request)}", settings.LIVE_STREAMS_PER_CLIENT)]
    session = _session_of(request)
    if session is not None:
        caps.append((session, settings.LIVE_STREAMS_PER_SESSION))
    return [(f"{KEY_PREFIX}:{ident}", cap) for ident, cap in caps if cap > 0]


# -- Redis ----------------------------------------------------------------------------------

_clients: dict[asyncio.AbstractEventLoop, aioredis.Redis] = {}


def _redis() -> aioredis.Redis:
    """This event loop's client (an asyncio connection belongs to the loop that made it)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        for closed in [old for old in _clients if old.is_closed()]:
            del _clients[closed]
        client = _clients[loop] = aioredis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
        )
    return client


async def _acquire_redis(caps: list[tuple[str, int]], member: str) -> bool:
    now = time.time()
    args = [now, now + LEASE_SECONDS, member, math.ceil(LEASE_SECONDS), *(cap for _, cap in caps)]
    full = await _redis().eval(ACQUIRE, len(caps), *(key for key, _ in caps), *args)
    return int(full) == 0


async def _renew_redis(lease: Lease) -> None:
    pipe = _redis().pipeline(transaction=False)
    for key in lease.keys:
        pipe.zadd(key, {lease.member: time.time() + LEASE_SECONDS}, xx=True)
        pipe.expire(key, math.ceil(LEASE_SECONDS))
    await pipe.execute()


async def _release_redis(lease: Lease) -> None:
    pipe = _redis().pipeline(transaction=False)
    for key in lease.keys:
        pipe.zrem(key, lease.member)
    await pipe.execute()


# -- in process -----------------------------------------------------------------------------

_leases: dict[str, dict[str, float]] = {}
_lock = threading.Lock()  # each server thread runs its own event loop (tests run several)


def _acquire_local(caps: list[tuple[str, int]], member: str) -> bool:
    now = time.monotonic()
    with _lock:
        for key, cap in caps:
            held = _leases.setdefault(key, {})
            for expired in [m for m, expiry in held.items() if expiry <= now]:
                del held[expired]
            if len(held) >= cap:
                return False
        for key, _cap in caps:
            _leases[key][member] = now + LEASE_SECONDS
        return True


def _renew_local(lease: Lease) -> None:
    with _lock:
        for key in lease.keys:
            held = _leases.get(key, {})
            if lease.member in held:
                held[lease.member] = time.monotonic() + LEASE_SECONDS


def _release_local(lease: Lease) -> None:
    with _lock:
        for key in lease.keys:
            held = _leases.get(key, {})
            held.pop(lease.member, None)
            if not held:
                _leases.pop(key, None)


# -- what the streams call ------------------------------------------------------------------


async def acquire(request: HttpRequest) -> Lease | None:
    """A lease for one more stream of this client and session; None when a cap is reached."""
    caps = _caps(request)
    lease = Lease(keys=[key for key, _ in caps])
    if not caps:
        return lease
    if not settings.REDIS_URL:
        return lease if _acquire_local(caps, lease.member) else None
    try:
        return lease if await _acquire_redis(caps, lease.member) else None
    except (redis.RedisError, OSError):
        log.warning("live streams not counted: Redis is unreachable", exc_info=True)
        return lease


async def _renew(lease: Lease) -> None:
    lease.renewed = time.monotonic()
    if not settings.REDIS_URL:
        _renew_local(lease)
        return
    try:
        await _renew_redis(lease)
    except (redis.RedisError, OSError):
        log.warning("live stream lease not renewed: Redis is unreachable", exc_info=True)


async def release(lease: Lease) -> None:
    if not lease.keys:
        return
    if not settings.REDIS_URL:
        _release_local(lease)
        return
    try:
        await _release_redis(lease)
    except (redis.RedisError, OSError):  # it expires by itself
        log.warning("live stream lease not released: Redis is unreachable", exc_info=True)


async def held(lease: Lease, events: AsyncGenerator[str, None]) -> AsyncIterator[str]:
    """``events`` with the lease renewed as they are written and given back when they end
    (the stream finished, the client went away, or the server is stopping)."""
    try:
        async for event in events:
            yield event
            if lease.keys and time.monotonic() - lease.renewed >= RENEW_SECONDS:
                await _renew(lease)
    finally:
        # Closed at a ``yield`` (the client went away), ``events`` must be closed too, for
        # its own clean-up (the seat marked disconnected) to run now, not when collected.
        try:
            await events.aclose()
        finally:
            await asyncio.shield(release(lease))


def too_many() -> JsonResponse:
    detail = _(
        "too many live streams are open from this address or session; close some tabs, or "
        "try again in %(wait)s s"
    ) % {"wait": RETRY_AFTER_SECONDS}
    return JsonResponse(
        {"error": "throttled", "detail": detail},
        status=429,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )
