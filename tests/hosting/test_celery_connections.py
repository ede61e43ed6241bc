"""A Celery worker keeps its database connection from task to task, as a web process keeps it
from request to request, and replaces one that broke."""

import pytest
from django.db import connection

from hosting.celery import app
from tests.games.hosting_helpers import celery_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

seen_backends: list[int] = []


@app.task(name="tests.note_backend")
def note_backend() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        seen_backends.append(cursor.fetchone()[0])


def end_session(pid: int) -> None:
    """The server ends the worker's session, as a restart or an idle timeout would; the call
    waits until the backend is gone, so the next task cannot find it alive."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


def run(task) -> None:
    count = len(seen_backends)
    task.delay()
    assert wait_for(lambda: len(seen_backends) > count, 10)


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("backend ids are PostgreSQL's")


def test_tasks_share_one_connection_and_a_broken_one_is_replaced(redis_url, celery_queue):
    seen_backends.clear()
    with celery_worker(celery_queue):
        for _ in range(3):
            run(note_backend)
        assert len(set(seen_backends)) == 1, seen_backends

        end_session(seen_backends[0])
        run(note_backend)
        assert seen_backends[-1] != seen_backends[0], "the broken connection was not replaced"
