"""An in-process stand-in for Celery when no Redis is configured (``make run``).

One daemon thread runs callables at their due time, and a once-a-second sweep, so the embedded
service enforces the same deadlines through the same service functions as production does.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self) -> None:
        self._queue: list[tuple[float, int, Callable[..., Any], dict[str, Any]]] = []
        self._counter = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._sweeps: list[tuple[float, Callable[[], Any]]] = []

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def call_at(self, when: float, func: Callable[..., Any], **kwargs: Any) -> None:
        with self._wake:
            heapq.heappush(self._queue, (when, next(self._counter), func, kwargs))
            self._wake.notify()

    def every(self, seconds: float, func: Callable[[], Any]) -> None:
        self._sweeps.append((seconds, func))
        self.call_at(time.time() + seconds, self._sweep, index=len(self._sweeps) - 1)

    def start(self) -> None:
        if self.running:
            return
        self._thread = threading.Thread(target=self._run, name="scheduler", daemon=True)
        self._thread.start()

    def _sweep(self, index: int) -> None:
        seconds, func = self._sweeps[index]
        try:
            func()
        finally:
            self.call_at(time.time() + seconds, self._sweep, index=index)

    def _run(self) -> None:
        from django.db import close_old_connections

        while True:
            with self._wake:
                while not self._queue or self._queue[0][0] > time.time():
                    timeout = self._queue[0][0] - time.time() if self._queue else None
                    self._wake.wait(timeout)
                _, _, func, kwargs = heapq.heappop(self._queue)
            try:
                func(**kwargs)
            except Exception:  # a failing job must not stop every later timer
                log.exception("scheduled job %s failed", getattr(func, "__name__", func))
            finally:
                close_old_connections()


scheduler = Scheduler()
