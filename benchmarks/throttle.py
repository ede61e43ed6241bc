"""The action endpoint's rate-limit counting, per request: today's path against the one before.

Run from the repository root with a Redis of its own (the run flushes nothing; keys expire):

    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python benchmarks/throttle.py [--requests 3000]

Each "request" runs in a context of its own, as an ASGI request does (Django then makes a new
cache object for it). "before" is the counting as it was (the context's cache object, a new
``redis.Redis`` from its ``get_client``, a SET NX/INCR pipeline); "now" is
``hosting.core.throttles.retry_after`` (the move's scope counted in the process since issue 31's
second session); "redis" the same counted in Redis (one EVALSHA), as every other scope still
is. The three alternate in blocks within one run; printed:
median CPU and wall microseconds per request over the blocks, and the load average.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import contextvars
import os
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
import django

django.setup()

from django.conf import settings  # noqa: E402 (after django.setup)
from django.core.cache import caches  # noqa: E402 (after django.setup)
from django.test import RequestFactory  # noqa: E402 (after django.setup)

from hosting.core import throttles  # noqa: E402 (after django.setup)

BLOCKS = 10


def before(request, account: str) -> None:
    """``retry_after`` as it was before issue 31, for the comparison."""
    now = time.time()
    limits = []
    for kind, ident in (("client", throttles.client_of(request)), ("account", account)):
        _, period = throttles.parse_rate(settings.THROTTLE_RATES[f"action.{kind}"])
        limits.append((f"throttle:action:{kind}:{ident}:{int(now // period)}", period))
    cache = caches["default"]
    made = [(cache.make_and_validate_key(key), period) for key, period in limits]
    pipe = cache._cache.get_client(made[0][0], write=True).pipeline(transaction=False)
    for key, period in made:
        pipe.set(key, 0, ex=period + 1, nx=True)
        pipe.incr(key)
    pipe.execute()


def now(request, account: str) -> None:
    """The move's scope as it is counted now: in the process (``THROTTLE_LOCAL_SCOPES``)."""
    throttles.retry_after(request, "action", account)


def redis(request, account: str) -> None:
    """The same in Redis: one EVALSHA on the process's client (before the per-process
    counters; any scope not in ``THROTTLE_LOCAL_SCOPES`` still counts this way)."""
    local = settings.THROTTLE_LOCAL_SCOPES
    settings.THROTTLE_LOCAL_SCOPES = frozenset()
    try:
        throttles.retry_after(request, "action", account)
    finally:
        settings.THROTTLE_LOCAL_SCOPES = local


def block(step, request, count: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        contextvars.Context().run(step, request, "user:1")
    return (time.process_time() - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    count = parser.parse_args().requests // BLOCKS
    if not settings.REDIS_URL:
        raise SystemExit("set REDIS_URL: the counters are compared on Redis")
    request = RequestFactory().post("/api/games/1/actions", REMOTE_ADDR="10.1.2.3")
    block(before, request, 50), block(now, request, 50)  # connections made, script loaded
    block(redis, request, 50)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    found = {"before": [], "redis": [], "now": []}
    names = list(found)
    for number in range(BLOCKS):
        for name in names[number % 3 :] + names[: number % 3]:
            found[name].append(block(globals()[name], request, count))
    for name, blocks in found.items():
        cpu = statistics.median(b[0] for b in blocks)
        wall = statistics.median(b[1] for b in blocks)
        print(f"{name:<7} CPU {cpu:6.1f} us, wall {wall:6.1f} us per request")
    gain = 1 - statistics.median(b[0] for b in found["now"]) / statistics.median(
        b[0] for b in found["before"]
    )
    print(f"CPU saved per request: {gain:.0%} against before", end="")
    redis_cpu = statistics.median(b[0] for b in found["redis"])
    print(f", {1 - statistics.median(b[0] for b in found['now']) / redis_cpu:.0%} against redis")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
