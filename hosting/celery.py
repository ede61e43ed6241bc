"""The Celery app. Tasks are thin wrappers over services; see games/tasks.py."""

import os
from typing import Any

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun
from django import db

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")

app = Celery("hosting")
# The app of every thread, not only of this one: reusable code (the scheduling port) reaches it
# as celery.current_app, which is otherwise per thread.
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Sub-domain packages with tasks of their own (an app's own ``tasks`` module is found above).
app.autodiscover_tasks(
    ["games.rooms", "tournaments.webhooks", "tournaments.scheduling", "tournaments.seasons"]
)
# /healthz knows a worker is alive by its heartbeat (beat's comes from its scheduler).
app.steps["consumer"].add("hosting.heartbeats:WorkerHeartbeat")


@task_prerun.connect
@task_postrun.connect
def close_old_connections(sender: Task | None = None, **kwargs: Any) -> None:
    """Treat each task as Django treats a request: keep the connection while it is healthy and
    younger than CONN_MAX_AGE, drop it when broken (the next query reconnects). An eager task
    runs inside its caller's transaction, whose connection is not the task's to close."""
    if sender is not None and not sender.request.is_eager:
        # Unlike a request, a task has no client to send it again after a failure: its
        # connection is checked before it runs (a SELECT 1), where the web's is checked only
        # after an error (settings, DATABASES).
        db.connection.health_check_enabled = True
        db.close_old_connections()
