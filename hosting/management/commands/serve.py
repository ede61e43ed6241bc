"""``python manage.py serve``: everything ``make run`` starts, in one process tree.

Migrates, seeds the demo, then serves ASGI with uvicorn. With ``REDIS_URL`` set it also starts a
Celery worker and beat as child processes (as in production); without it timers run in process.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import uvicorn
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.bind import refuse_debug_beyond_loopback


class Command(BaseCommand):
    help = "Migrate, seed demo data and serve the site (plus Celery when REDIS_URL is set)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-seed", action="store_true", help="skip the demo data")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            refuse_debug_beyond_loopback(options["host"], debug=settings.DEBUG)
        except ImproperlyConfigured as refusal:
            raise CommandError(str(refusal)) from None
        call_command("migrate", interactive=False, verbosity=0)
        if not options["no_seed"]:
            call_command("seed_demo")
        children = self.start_celery() if settings.REDIS_URL else self.start_scheduler()
        url = f"http://{options['host']}:{options['port']}/"
        self.stdout.write(f"Serving on {url}  (Ctrl-C to stop)", ending="\n")
        self.stdout.flush()
        try:
            uvicorn.run(
                "hosting.asgi:application",
                host=options["host"],
                port=options["port"],
                log_level="info",
                lifespan="off",
                # Live streams never end by themselves: close them after 5 s on Ctrl-C.
                timeout_graceful_shutdown=5,
            )
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(timeout=10)

    def start_scheduler(self) -> list[subprocess.Popen]:
        """No Redis: deadlines, windows and computer players run on an in-process thread."""
        from games.timers import sweep_overdue
        from hosting.scheduler import scheduler
        from hosting.tasks import clear_expired_sessions

        scheduler.every(1.0, sweep_overdue)
        scheduler.every(3600.0, clear_expired_sessions)
        scheduler.start()
        self.stdout.write("Timers run in process (no REDIS_URL)")
        return []

    def start_celery(self) -> list[subprocess.Popen]:
        celery = [sys.executable, "-m", "celery", "-A", "hosting"]
        worker = [*celery, "worker", "--loglevel=INFO"]
        beat = [*celery, "beat", "--loglevel=INFO", "--schedule=var/celerybeat-schedule"]
        settings.BASE_DIR.joinpath("var").mkdir(exist_ok=True)
        self.stdout.write("Starting a Celery worker and beat on " + settings.REDIS_URL)
        return [subprocess.Popen(worker), subprocess.Popen(beat)]
