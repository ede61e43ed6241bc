"""Backing services for the suite.

With ``DATABASE_URL`` / ``REDIS_URL`` set the suite runs on them. An unreachable service skips
the tests that need it, unless ``REQUIRE_SERVICES=1`` (CI), which stops the run with a clear
message instead.
"""

from __future__ import annotations

import os
import uuid

import pytest
import redis

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"
_unreachable: dict[str, str] = {}


def _database_problem() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL is not a PostgreSQL URL" if REQUIRED else None
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        return f"PostgreSQL at DATABASE_URL is unreachable: {error}".strip()
    return None


def _redis_problem() -> str | None:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return "REDIS_URL is not set"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at REDIS_URL is unreachable: {error}"
    return None


def pytest_sessionstart(session: pytest.Session) -> None:
    for service, problem in (("database", _database_problem()), ("redis", _redis_problem())):
        if problem is None:
            continue
        if REQUIRED:
            pytest.exit(f"REQUIRE_SERVICES=1 but {problem}", returncode=3)
        _unreachable[service] = problem


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "database" not in _unreachable or not os.environ.get("DATABASE_URL"):
        return
    skip = pytest.mark.skip(reason=_unreachable["database"])
    for item in items:
        if item.get_closest_marker("django_db"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis the suite may use; skips the test when there is none."""
    if "redis" in _unreachable:
        pytest.skip(_unreachable["redis"])
    return os.environ["REDIS_URL"]


@pytest.fixture(scope="session", autouse=True)
def celery_queue() -> str:
    """A queue of this run's own, so that no other worker on the same Redis takes its tasks."""
    from hosting.celery import app

    queue = f"tests-{uuid.uuid4().hex[:8]}"
    app.conf.task_default_queue = queue
    return queue


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the default language: a request in another leaves its language
    active in the thread (LocaleMiddleware does not undo it), and refusals are translated."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Each test starts with no request counted against the rate limits and no live stream
    against the stream caps, and no batched task left by an earlier test's games: the counters
    live in Redis across tests, and the whole suite comes from one address."""
    from django.core.cache import cache
    from django.core.cache.backends.redis import RedisCache

    from hosting.core import scheduling, stream_caps, throttles
    from hosting.core.throttles import KEY_PREFIX

    stream_caps._leases.clear()
    throttles._local_counts.clear()  # the scopes counted in this process (the move's)

    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    if "redis" in _unreachable:
        return
    client = cache._cache.get_client(write=True)
    stale = list(client.scan_iter(match=cache.make_key(f"{KEY_PREFIX}:*"), count=1000))
    stale += client.scan_iter(match=f"{stream_caps.KEY_PREFIX}:*", count=1000)
    stale += [scheduling.DUE_KEY, scheduling.LEASED_KEY]  # batched tasks of earlier tests' games
    if stale:
        client.delete(*stale)


@pytest.fixture
def asgi_server(transactional_db) -> str:
    """The ASGI app served by uvicorn in a thread, on the test database; yields its base URL."""
    import socket
    import threading
    import time

    import uvicorn

    from hosting.core.proxies import uvicorn_options

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        "hosting.asgi:application",
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        **uvicorn_options(),
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    _close_server_connections()


def _close_server_connections() -> None:
    """The server's worker threads keep database connections that outlive it; on PostgreSQL
    they would block dropping the test database at the end of the run."""
    from asgiref.sync import SyncToAsync
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    # The server ran its views on asgiref's one sync thread, which outlives it and serves this
    # process's later async tests too: its connection objects go with their sessions, as a
    # restarted server's would. (Without a health check per request, the web checks a
    # connection after an error, not before: hosting/settings.py, DATABASES.)
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture
def postgres_only() -> None:
    """Real concurrency (many threads writing and streaming) needs PostgreSQL's row locks;
    SQLite's in-memory test database locks whole tables."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
