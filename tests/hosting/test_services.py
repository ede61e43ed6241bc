"""The suite really runs on the configured PostgreSQL, and Celery really goes through Redis."""

import os

import pytest
from django.db import connection

from hosting.celery import app
from hosting.tasks import ping
from tests.games.hosting_helpers import celery_worker

pytestmark = pytest.mark.django_db


def test_database_is_postgresql_when_configured():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("DATABASE_URL does not name PostgreSQL; the suite runs on SQLite")
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_a_celery_task_runs_through_redis(redis_url, celery_queue):
    import redis

    with app.connection_for_write() as conn:
        assert conn.transport.driver_type == "redis"
    with celery_worker(celery_queue):
        result = ping.delay()
        assert result.get(timeout=20) == "pong"
    # The answer came back through Redis too: the result backend stored it there.
    client = redis.Redis.from_url(redis_url)
    assert client.exists(f"celery-task-meta-{result.id}")


def test_every_beat_entry_names_a_registered_task():
    app.loader.import_default_modules()
    schedule = app.conf.beat_schedule
    assert {"sweep-overdue-clocks", "clear-expired-sessions"} <= schedule.keys()
    assert all(entry["task"] in app.tasks for entry in schedule.values())
