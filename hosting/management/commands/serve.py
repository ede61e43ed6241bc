"""``python manage.py serve``: everything ``make run`` starts, in one process tree.

Migrates, seeds the demo, then serves ASGI with uvicorn. With ``REDIS_URL`` set it also starts a
Celery worker and beat as child processes (as in production), and restarts either one that dies
(and says so); without it timers run in process.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.core import proxies, scheduling
from hosting.core.bind import refuse_debug_beyond_loopback

RESTART_DELAY_SECONDS = 1.0


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


@dataclass
class Child:
    """A child process kept running: started again whenever it exits, until ``stop``."""

    name: str
    command: list[str]
    say: Callable[[str], None]
    process: subprocess.Popen | None = None
    restarts: int = 0
    _stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        # A session of its own: Ctrl-C reaches serve alone, which then stops its children
        # (else they would stop first, and look like children that died).
        self.process = subprocess.Popen(self.command, start_new_session=True)

    def watch(self) -> None:
        """Run on a thread of its own: wait for the child and start it again when it exits."""
        while not self._stopping.is_set():
            code = self.process.wait()
            if self._stopping.is_set():
                return
            self.restarts += 1
            self.say(f"{self.name} exited with status {code}; restarting it")
            # A child that dies at once (Redis refusing connections) is not restarted in a
            # tight loop.
            if self._stopping.wait(RESTART_DELAY_SECONDS):
                return
            self.start()
            self.say(f"{self.name} restarted (pid {self.process.pid})")
            if self._stopping.is_set():  # ``stop`` came while it was starting
                self.process.terminate()

    def stop(self) -> None:
        self._stopping.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait(self, timeout: float) -> None:
        if self.process is not None:
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


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
        # uvicorn stops on SIGTERM, then raises it again through the handler that was there
        # before it: by default that kills this process on the spot, leaving the worker and
        # beat behind. This one unwinds instead, through the ``finally`` that stops them.
        signal.signal(signal.SIGTERM, _exit_on_signal)
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
                # X-Forwarded-For from TRUSTED_PROXIES only (uvicorn's default trusts 127.0.0.1).
                **proxies.uvicorn_options(),
            )
        finally:
            for child in children:
                child.stop()
            for child in children:
                child.wait(timeout=10)

    def say(self, message: str) -> None:
        self.stdout.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} serve: {message}")
        self.stdout.flush()

    def start_scheduler(self) -> list[Child]:
        """No Redis: deadlines, windows, computer players and beat's sweeps run on an
        in-process thread."""
        scheduling.run_beat_in_process()
        self.stdout.write("Timers run in process (no REDIS_URL)")
        return []

    def start_celery(self) -> list[Child]:
        celery = [sys.executable, "-m", "celery", "-A", "hosting"]
        worker = [*celery, "worker", "--loglevel=INFO"]
        beat = [*celery, "beat", "--loglevel=INFO", "--schedule=var/celerybeat-schedule"]
        settings.BASE_DIR.joinpath("var").mkdir(exist_ok=True)
        self.stdout.write("Starting a Celery worker and beat on " + settings.REDIS_URL)
        children = [Child("Celery worker", worker, self.say), Child("Celery beat", beat, self.say)]
        for child in children:
            child.start()
            threading.Thread(target=child.watch, name=f"watch {child.name}", daemon=True).start()
        return children
