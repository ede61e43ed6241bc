"""Rate limits per client (its address) and per account, counted in Django's cache.

The cache is Redis when ``REDIS_URL`` is set (every web process counts together), else local
memory. Each scope (``login``, ``signup``, ``create``, ``claim``, ``action``) has a rate per
client and one per account, ``THROTTLE_RATES["<scope>.client" | "<scope>.account"]``, as
``"<count>/<s|m|h|d>"`` counted in fixed windows of that period. A refusal is a 429 with
``Retry-After`` (the seconds until the window ends). DRF views use ``Limit`` subclasses as
throttle classes; Django's own views (log-in, sign-up) are wrapped by ``limit_posts``.

Scopes in ``THROTTLE_LOCAL_SCOPES`` (``action`` by default: every move) are counted in the
process's memory instead: each web process then allows the full rate, N processes N times it,
which for limits set this far above real play still stops a flood, and it costs no Redis round
trip per move.

Counting must never be what breaks a request: with the cache unreachable, requests pass.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from redis.commands.core import Script
from rest_framework.throttling import BaseThrottle

from hosting.core.proxies import client_address

log = logging.getLogger(__name__)
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
KEY_PREFIX = "throttle"


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"30/m"`` -> (30, 60); ``None`` (or ``"off"``) means no limit."""
    if rate is None or rate == "off":
        return None
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


def client_of(request: HttpRequest) -> str:
    """The client's address (``hosting.core.proxies``: ``TRUSTED_PROXIES`` says whose
    ``X-Forwarded-For`` to believe)."""
    return client_address(request)


def retry_after(request: HttpRequest, scope: str, account: str | None) -> int | None:
    """Count this request against the scope's client and account limits: ``None`` when it
    may go on, else the seconds to wait."""
    checks = [("client", client_of(request))]
    if account:
        checks.append(("account", account))
    now = time.time()
    limits = []
    for kind, ident in checks:
        parsed = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.{kind}"))
        if parsed is not None:
            count, period = parsed
            window = int(now // period)
            limits.append((f"{KEY_PREFIX}:{scope}:{kind}:{ident}:{window}", count, period))
    if not limits:
        return None
    try:
        hit = _hit_local if scope in settings.THROTTLE_LOCAL_SCOPES else _hit
        counts = hit([(key, period) for key, _, period in limits])
    except (redis.RedisError, OSError):
        log.warning("rate limits not counted: the cache is unreachable", exc_info=True)
        return None
    waits = [
        period - now % period
        for (_, count, period), seen in zip(limits, counts, strict=True)
        if seen > count
    ]
    return max(1, math.ceil(max(waits))) if waits else None


# Each counter made for its period if new, then counted: one EVALSHA for all of a request's
# counters (redis-py's ``Script`` sends the script itself only when Redis does not know it).
_COUNT = """
local counts = {}
for i, key in ipairs(KEYS) do
    redis.call('SET', key, 0, 'EX', ARGV[i], 'NX')
    counts[i] = redis.call('INCR', key)
end
return counts
"""


@functools.cache
def _redis_counter() -> tuple[RedisCache, Script] | None:
    """The process's cache backend and counting script, made once; None without Redis.

    ``caches["default"]`` is one backend object per async context (a new one for every ASGI
    request), and its ``get_client`` builds a new ``redis.Redis`` on each call: per request
    that was 0.77 ms of the web's 5.6 ms per move (issue 31). One client of the shared pool
    (``hosting.core.redis_clients``) and one EVALSHA instead of a SET NX/INCR pipeline:
    per request in contexts of their own, 313 us of CPU before, 122 us now: -61 % (load average
    7.4, ``benchmarks/throttle.py``; docs/benchmarks.md, "The move path")."""
    cache = caches.create_connection("default")
    if not isinstance(cache, RedisCache):
        return None
    return cache, cache._cache.get_client(write=True).register_script(_COUNT)


def _hit(keys: list[tuple[str, int]]) -> list[int]:
    """Add one to each counter (created for its period) and return the counts."""
    counter = _redis_counter()
    if counter is not None:
        cache, count = counter
        made = [cache.make_and_validate_key(key) for key, _ in keys]
        return count(keys=made, args=[period + 1 for _, period in keys])
    cache = caches["default"]  # the backend itself (``django.core.cache.cache`` is a proxy)
    counts = []
    for key, period in keys:
        cache.add(key, 0, timeout=period + 1)
        try:
            counts.append(cache.incr(key))
        except ValueError:  # expired in between
            cache.add(key, 1, timeout=period + 1)
            counts.append(1)
    return counts


_local_counts: dict[str, list[float]] = {}  # key -> [count, when its window ends]
_local_lock = threading.Lock()
_LOCAL_PRUNE_AT = 10_000


def _hit_local(keys: list[tuple[str, int]]) -> list[int]:
    """``_hit`` in this process's memory (``THROTTLE_LOCAL_SCOPES``). The window is in the key,
    so a counter only has to be forgotten once its window is over. Measured gain
    (``benchmarks/throttle.py``, interleaved, load average 8): 135 us of the web's CPU per
    request through the EVALSHA, 5.4 us here (-96 %), and no Redis command per move."""
    now = time.time()
    counts = []
    with _local_lock:
        if len(_local_counts) > _LOCAL_PRUNE_AT:
            for key in [k for k, (_, ends) in _local_counts.items() if ends < now]:
                del _local_counts[key]
        for key, period in keys:
            entry = _local_counts.get(key)
            if entry is None:
                entry = _local_counts[key] = [0, now + period + 1]
            entry[0] += 1
            counts.append(int(entry[0]))
    return counts


def throttled_response(wait: int) -> JsonResponse:
    body = {
        "error": "throttled",
        "detail": _("too many requests; try again in %(wait)s s") % {"wait": wait},
    }
    return JsonResponse(body, status=429, headers={"Retry-After": str(wait)})


class Limit(BaseThrottle):
    """A DRF throttle for one scope; subclasses name the scope and say who the account is."""

    scope = ""

    def account(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        return f"user:{user.pk}" if user is not None and user.is_authenticated else None

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        self._wait = retry_after(request, self.scope, self.account(request))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class CreateLimit(Limit):
    scope = "create"


def limit_posts(
    scope: str, account: Callable[[HttpRequest], str | None] | None = None
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a Django view's POSTs (a form's submissions) like a DRF throttle would."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                wait = retry_after(request, scope, account(request) if account else None)
                if wait is not None:
                    return throttled_response(wait)
            return view(request, *args, **kwargs)

        return limited

    return decorate


def posted_username(request: HttpRequest) -> str | None:
    """The account a log-in tries: failed guesses at one account are limited wherever from."""
    username = request.POST.get("username", "").strip().lower()
    return f"name:{username}" if username else None


def failures_wait(request: HttpRequest, scope: str) -> int | None:
    """Seconds this client must wait when its counted failures in ``scope`` (see
    ``count_failure``) already reached the limit; None when it may try. Counts nothing, so
    it can be asked before the lookup it guards (a wrong room code): once over the limit
    even a right guess is refused, and guessing tells nothing."""
    parsed = parse_rate(settings.THROTTLE_RATES.get(f"{scope}.client"))
    if parsed is None:
        return None
    count, period = parsed
    now = time.time()
    key = f"{KEY_PREFIX}:{scope}:client:{client_of(request)}:{int(now // period)}"
    try:
        seen = caches["default"].get(key) or 0
    except (redis.RedisError, OSError):
        log.warning("rate limits not read: the cache is unreachable", exc_info=True)
        return None
    return max(1, math.ceil(period - now % period)) if int(seen) >= count else None


def count_failure(request: HttpRequest, scope: str) -> None:
    """Count one failure of this client in ``scope`` (read by ``failures_wait``)."""
    retry_after(request, scope, None)
