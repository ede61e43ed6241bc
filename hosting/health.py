"""``GET /healthz``: the state of every backing service, 503 when one is down."""

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

from hosting.celery import app as celery_app

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


def run_check(name: str, check: Callable[[], Check]) -> Check:
    """The check's result for anyone to read. What went wrong stays in the log: exception text
    names hosts, ports, users and paths that are nobody else's business."""
    started = time.perf_counter()
    try:
        result = {"ok": True, **check()}
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
    healthy = all(check["ok"] for check in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "timers": "celery" if settings.REDIS_URL else "in-process",
        "checks": checks,
    }
    return JsonResponse(body, status=200 if healthy else 503)
