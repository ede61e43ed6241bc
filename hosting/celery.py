"""The Celery app. Tasks are thin wrappers over services; see games/tasks.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")

app = Celery("hosting")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
