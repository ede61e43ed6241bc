"""``GET /healthz``: the state of every backing service, 503 when one is down."""

from __future__ import annotations

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


def run_check(check: Callable[[], Check]) -> Check:
    started = time.perf_counter()
    try:
        result = {"ok": True, **check()}
    except Exception as error:  # any failure of a dependency is what this endpoint reports
        result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": run_check(check_database)}
    if settings.REDIS_URL:
        checks["redis"] = run_check(check_redis)
        checks["broker"] = run_check(check_broker)
    healthy = all(check["ok"] for check in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "timers": "celery" if settings.REDIS_URL else "in-process",
        "checks": checks,
    }
    return JsonResponse(body, status=200 if healthy else 503)
