"""``GET /healthz``: the state of every backing service and background process, 503 when one
is down: the database, Redis (and the broker on it), a Celery worker and Celery beat, each known
alive by its heartbeat (``hosting.heartbeats``). Without Redis (``make run`` embedded) the
deadlines run on a thread of this process, which is checked instead of the worker and beat."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from hosting import heartbeats
from hosting.celery import app as celery_app
from hosting.core.scheduling import scheduler

Check = dict[str, Any]
logger = logging.getLogger(__name__)


def check_database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def check_redis() -> Check:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    try:
        client.ping()
    finally:
        client.close()
    return {}


def check_broker() -> Check:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=1)
        return {"transport": conn.transport_cls}


class Missing(Exception):
    """A background process that should be beating is not."""


def check_worker() -> Check:
    alive = heartbeats.ages("worker")
    if not alive:
        raise Missing(f"no Celery worker beat in the last {heartbeats.STALE_SECONDS:.0f} s")
    return {"alive": len(alive), "last_seen_s": round(min(alive.values()), 1)}


def check_beat() -> Check:
    alive = heartbeats.ages("beat")
    if not alive:
        raise Missing(f"Celery beat did not beat in the last {heartbeats.STALE_SECONDS:.0f} s")
    return {"last_seen_s": round(min(alive.values()), 1)}


def check_timers() -> Check:
    if not scheduler.running:
        raise Missing("the in-process timer thread is not running")
    return {"mode": "in-process"}


def run_check(name: str, check: Callable[[], Check]) -> Check:
    """The check's result for anyone to read. What went wrong stays in the log: exception text
    names hosts, ports, users and paths that are nobody else's business."""
    started = time.perf_counter()
    try:
        result = {"ok": True, **check()}
    except Missing as missing:
        # Which process is missing, and for how long, is nobody's secret: say it.
        logger.warning("health check: %s is unavailable: %s", name, missing)
        result = {"ok": False, "error": f"{name} is unavailable: {missing}"}
    except Exception:  # any failure of a dependency is what this endpoint reports
        logger.warning("health check: %s is unavailable", name, exc_info=True)
        result = {"ok": False, "error": f"{name} is unavailable"}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": run_check("database", check_database)}
    if settings.REDIS_URL:
        checks["redis"] = run_check("redis", check_redis)
        checks["broker"] = run_check("broker", check_broker)
        checks["worker"] = run_check("worker", check_worker)
        checks["beat"] = run_check("beat", check_beat)
    else:
        checks["timers"] = run_check("timers", check_timers)
    healthy = all(check["ok"] for check in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "missing": [name for name, check in checks.items() if not check["ok"]],
        "timers": "celery" if settings.REDIS_URL else "in-process",
        "checks": checks,
    }
    return JsonResponse(body, status=200 if healthy else 503)
