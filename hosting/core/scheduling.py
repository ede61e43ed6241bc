"""The one way the service runs work later: ``schedule(task, when, **ids)``.

``task`` is a Celery task's name (``"games.enforce_deadline"``), ``ids`` its keyword arguments.
Two backends, chosen once from ``REDIS_URL`` at the first use (and again when a test changes
that setting):

- **Celery** (Redis configured, as deployed): an ETA task sent to the broker; a worker runs it
  and beat runs the sweeps of ``CELERY_BEAT_SCHEDULE``. A worker holds every ETA task it is
  sent in memory and loses them when killed, so callers send only tasks due soon and have a
  sweep send the others, and again any lost (``brokered()``).
  With ``batch=True`` (computer players' moves: many, each small, due within seconds) the task
  is not a Celery message of its own but a member of a Redis sorted set scored by its due
  time; one ``hosting.drain_due`` task per ``DRAIN_TICK_SECONDS`` of due times (claimed once
  per tick) runs every member then due, and the beat's sweep drains too (``drain``).
- **In process** (no Redis, ``make run``): one daemon thread of this process runs the same
  task functions, looked up by name in the Celery app's registry, at their due time; the beat
  schedule's sweeps run on it too (``run_beat_in_process``). It holds any number of timers.

Task modules are found by the Celery app's own discovery (each app's ``tasks`` module): this
module names no app of the project.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from celery import Task
from celery import current_app as celery_app
from django import db
from django.conf import settings
from django.core.signals import setting_changed
from django.db import close_old_connections
from django.dispatch import receiver

from hosting.core import redis_clients

log = logging.getLogger(__name__)


class Scheduler:
    """A daemon thread that runs callables at their due time, and sweeps at fixed intervals."""

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


# The in-process thread: the backend without Redis queues on it, /healthz checks it is running.
scheduler = Scheduler()


class Backend(Protocol):
    brokered: bool

    def schedule(
        self,
        task: Task,
        when: float,
        once: str | None,
        once_for: float,
        ids: dict[str, Any],
        batch: bool = False,
    ) -> bool: ...


class CeleryBackend:
    brokered = True

    def schedule(
        self,
        task: Task,
        when: float,
        once: str | None,
        once_for: float,
        ids: dict[str, Any],
        batch: bool = False,
    ) -> bool:
        if once is not None:
            # The URL read now, not at start-up: a test points it at a Redis that is down.
            claims = redis_clients.client(settings.REDIS_URL)
            if not claims.set(once, 1, nx=True, ex=int(once_for)):
                return False
        if batch:
            _enqueue(task.name, when, ids)
        else:
            task.apply_async(kwargs=ids, eta=datetime.fromtimestamp(when, tz=UTC))
        return True


class InProcessBackend:
    brokered = False

    def __init__(self) -> None:
        self._claims: dict[str, float] = {}  # once-only key -> when its claim lapses
        self._claims_lock = threading.Lock()

    def schedule(
        self,
        task: Task,
        when: float,
        once: str | None,
        once_for: float,
        ids: dict[str, Any],
        batch: bool = False,
    ) -> bool:
        if once is not None and not self._claim(once, once_for):
            return False
        scheduler.call_at(when, task, **ids)
        return True

    def _claim(self, key: str, seconds: float) -> bool:
        moment = time.time()
        with self._claims_lock:
            self._claims = {k: lapses for k, lapses in self._claims.items() if lapses > moment}
            if key in self._claims:
                return False
            self._claims[key] = moment + seconds
            return True


_backend: Backend | None = None


def _current() -> Backend:
    global _backend
    if _backend is None:
        _backend = CeleryBackend() if settings.REDIS_URL else InProcessBackend()
    return _backend


@receiver(setting_changed)
def _choose_again(*, setting: str, **kwargs: Any) -> None:
    """Tests switch ``REDIS_URL`` on and off: the next call chooses its backend again."""
    global _backend
    if setting == "REDIS_URL":
        _backend = None


@functools.cache
def _tasks() -> dict[str, Task]:
    # Import every ``tasks`` module the Celery app discovers (each app's, and the sub-domain
    # packages it names) now, as a worker does when it starts: a web process has not imported
    # them, and the in-process backend runs them here.
    celery_app.loader.import_default_modules()
    return celery_app.tasks


def schedule(
    task: str,
    when: float,
    *,
    once: str | None = None,
    once_for: float = 60.0,
    batch: bool = False,
    **ids: Any,
) -> bool:
    """Run the task named ``task`` with ``ids`` as its keyword arguments at ``when`` (a Unix
    time; one already past runs at once). With ``once`` (a key), only the first of the calls
    that give it sends the task, for ``once_for`` seconds: a commit and a sweep may both try.
    With ``batch``, on Celery it joins the sorted set that ``drain`` runs instead of being a
    message of its own (for many small tasks due soon: the same task and ids twice are one
    member, due at the earlier time). Returns whether it was sent. An unknown task name is a
    ``KeyError`` here, not later."""
    return _current().schedule(_tasks()[task], when, once, once_for, ids, batch)


def brokered() -> bool:
    """Whether tasks go through a broker (Celery on Redis). A worker holds the ETA tasks it is
    sent and may lose them: callers then send only those due soon, and a sweep sends the
    rest as they come near and again any that were lost. The in-process thread holds any
    number and loses none while the process lives."""
    return _current().brokered


def every(seconds: float, task: str) -> None:
    """Run the task named ``task`` every ``seconds`` on the in-process thread."""
    scheduler.every(seconds, _tasks()[task])


def run_beat_in_process() -> None:
    """Without Redis, what Celery beat would run (every entry of ``CELERY_BEAT_SCHEDULE``,
    whose schedules are in seconds) runs on the in-process thread, started here."""
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        every(float(entry["schedule"]), entry["task"])
    scheduler.start()


# --- Batched tasks on Celery: a sorted set of due tasks, drained by few Celery tasks ---------
#
# Issue 31: a computer's move as a Celery message of its own cost the worker ~5.8 ms, 47 % of
# it kombu receiving and acknowledging it and Celery tracing the task. Measured gain
# (benchmarks/computer_moves.py, computer-only games, main and this interleaved, load average
# 4-7): the worker's CPU per computer move 5.27 -> 2.83 ms (-46 %). Here a move is a member
# of DUE_KEY (score: its due time), and the one Celery task of its DRAIN_TICK_SECONDS slot
# (sent once per slot, whoever schedules first) runs every member due by then. Taking moves
# a member to LEASED_KEY (score: when the lease lapses) in the same script; it leaves only
# after its task ran. A worker killed while it held members, or a lost drain message, leaves
# them due or leased: the next drain (the next slot's, or the beat's sweep every second) takes
# them again once due or lapsed. At least once, as before: every batched task must be safe to
# run twice (``bot_act`` plays only if the seat still owes that version's move).
DUE_KEY = "scheduling:due"
LEASED_KEY = "scheduling:leased"
TICK_PREFIX = "scheduling:tick:"
DRAIN_TASK = "hosting.drain_due"
DRAIN_TICK_SECONDS = 0.1
LEASE_SECONDS = 30.0
DRAIN_BATCH = 100

# KEYS: due, leased. ARGV: now, lease lapses at, most members. Lapsed leases are due again;
# then up to ARGV[3] due members move to the leased set and are returned.
_TAKE = """
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZADD', KEYS[1], 'LT', ARGV[1], member)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('ZADD', KEYS[2], ARGV[2], member)
end
return due
"""


def _member(task: str, ids: dict[str, Any]) -> str:
    return json.dumps([task, ids], sort_keys=True, separators=(",", ":"))


def _enqueue(task: str, when: float, ids: dict[str, Any]) -> None:
    """One round trip: add the member (the earlier time wins), claim its slot's drain."""
    tick = math.ceil(when / DRAIN_TICK_SECONDS)
    client = redis_clients.client(settings.REDIS_URL)
    pipe = client.pipeline(transaction=False)
    pipe.zadd(DUE_KEY, {_member(task, ids): when}, lt=True)  # LT adds new members too
    pipe.set(f"{TICK_PREFIX}{tick}", 1, nx=True, ex=int(LEASE_SECONDS) + 60)
    *_, claimed = pipe.execute()
    slot_end = tick * DRAIN_TICK_SECONDS
    # A slot already claimed whose end has passed may have been drained before this member
    # arrived (a process paused between computing ``when`` and this call): drain once more.
    if claimed or slot_end <= time.time():
        _tasks()[DRAIN_TASK].apply_async(
            eta=datetime.fromtimestamp(slot_end, tz=UTC), kwargs={"until": slot_end}
        )


def drain(limit: int = DRAIN_BATCH, until: float | None = None) -> int:
    """Run every batched task due now (and any whose lease lapsed), ``limit`` at a time, in
    this thread; returns how many ran. Called by the drain task of a slot and by the sweep.

    A slot's task passes ``until``, its slot's end, and takes nothing before it: only the first
    member of a slot sends a task, so a member left behind by a drain fired early would wait
    for the sweep (a second; for ever where no beat runs)."""
    if until is not None and 0 < until - time.time() <= DRAIN_TICK_SECONDS:
        # Fired early: wait for the slot's end, so that a member added after this take finds
        # its slot's end passed and sends a drain of its own (``_enqueue``).
        time.sleep(until - time.time())
    client = redis_clients.client(settings.REDIS_URL)
    take = client.register_script(_TAKE)
    tasks = _tasks()
    ran = 0
    while True:
        now = time.time()
        members = take(keys=[DUE_KEY, LEASED_KEY], args=[now, now + LEASE_SECONDS, limit])
        if not members:
            return ran
        # As Celery's task_prerun does for a task (hosting.celery): once per batch here.
        db.connection.health_check_enabled = True
        db.close_old_connections()
        done = []
        for member in members:
            name, ids = json.loads(member)
            try:
                tasks[name].run(**ids)
            except Exception:  # left leased: it runs again once its lease lapses
                log.exception("batched task %s %s failed", name, ids)
                db.close_old_connections()
                continue
            done.append(member)
            ran += 1
        if done:
            client.zrem(LEASED_KEY, *done)
        if len(members) < limit:
            return ran
