import os
import subprocess
import sys
import threading
import time

import pytest
from django.conf import settings

from hosting.celery import app as celery_app
from hosting.core import scheduling
from hosting.core.scheduling import Scheduler


def test_jobs_run_in_due_order_and_a_failing_job_stops_nothing():
    scheduler = Scheduler()
    ran: list[str] = []
    done = threading.Event()

    def record(name: str) -> None:
        ran.append(name)
        if name == "last":
            done.set()

    def explode() -> None:
        raise RuntimeError("boom")

    start = time.time()
    scheduler.call_at(start + 0.2, record, name="last")
    scheduler.call_at(start + 0.05, explode)
    scheduler.call_at(start + 0.1, record, name="first")
    scheduler.start()
    assert done.wait(3)
    assert ran == ["first", "last"]
    assert time.time() - start >= 0.2


ran_by_name: list[int] = []
ran_event = threading.Event()


@celery_app.task(name="tests.scheduling.record")
def record_by_name(value: int) -> None:
    ran_by_name.append(value)
    ran_event.set()


def test_the_port_chooses_its_backend_from_redis_url_and_again_when_a_test_changes_it(settings):
    settings.REDIS_URL = ""
    assert not scheduling.brokered()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    assert scheduling.brokered()


def test_without_redis_the_port_runs_the_task_of_that_name_on_its_thread_once_per_key(
    settings, monkeypatch
):
    settings.REDIS_URL = ""
    thread = Scheduler()
    monkeypatch.setattr(scheduling, "scheduler", thread)
    ran_by_name.clear()
    ran_event.clear()
    assert scheduling.schedule("tests.scheduling.record", time.time(), once="k", value=1)
    assert not scheduling.schedule("tests.scheduling.record", time.time(), once="k", value=2)
    with pytest.raises(KeyError):
        scheduling.schedule("tests.scheduling.no_such_task", time.time())
    thread.start()
    assert ran_event.wait(3)
    assert ran_by_name == [1]


def test_every_periodic_task_of_beat_is_found_by_name_in_a_fresh_process():
    # `make run` without Redis runs beat's schedule on the port's thread: each name must
    # resolve in a process that has imported no tasks module yet (as `manage.py serve`).
    names = [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()]
    script = (
        "import django; django.setup(); from hosting.core import scheduling; "
        f"print(all(scheduling._tasks()[n] for n in {names!r}))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "hosting.settings"}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.stdout.strip() == "True", done.stderr
