"""Reminders go through a real Celery worker and beat on Redis, with the server clock moved by
hand: a deadline an hour away is told once per chosen channel at its time, and a restart of
the worker in between neither loses nor doubles it; nothing is told once the thing happened."""

from __future__ import annotations

import contextlib
import time
from datetime import timedelta

import pytest
from celery.beat import EmbeddedService
from django.core import mail

from hosting.celery import app
from notifications import services
from notifications.models import Kind, Notice, Reminder
from tests.games.hosting_helpers import celery_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
ABOUT = services.About(key="episode:1", label="Cup · episode 1", url="/tournaments/cup/")


@contextlib.contextmanager
def beat(tmp_path):
    """Celery beat (its own scheduler, in a thread) running only the notices' sweep, fast."""
    schedule = app.conf.beat_schedule
    app.conf.beat_schedule = {"sweep-notices": {"task": "notifications.sweep", "schedule": 0.2}}
    service = EmbeddedService(app, max_interval=0.2, schedule_filename=str(tmp_path / "beat"))
    service.start()
    try:
        yield
    finally:
        service.stop()
        app.conf.beat_schedule = schedule


def settle(seconds: float = 1.5) -> None:
    """Let beat run several sweeps (0.2 s each) on the worker: the clock in the test is
    moved by hand, so this only gives the sweeps the chance to do something wrong."""
    time.sleep(seconds)


def told(user, kind):
    return Notice.objects.filter(user=user, kind=kind)


def test_a_deadline_an_hour_away_is_told_once_per_channel_through_a_restart(
    redis_url, celery_queue, clock, player, settings, tmp_path
):
    settings.NOTIFY_EMAIL_BATCH_SECONDS = 0
    services.preferences_set(user=player, choices={Kind.DEADLINE_10M: ["site", "email"]})
    deadline = services.clock.moment() + timedelta(hours=1)
    services.remind(player, Kind.DEADLINE_10M, ABOUT, deadline, before=timedelta(minutes=10))

    with beat(tmp_path):
        with celery_worker(celery_queue):
            clock.advance(49 * 60)  # 11 minutes before the deadline: not yet
            settle()
            assert not told(player, Kind.DEADLINE_10M).exists()
        # The worker stops and another starts: the reminder is a row, not a task in memory.
        with celery_worker(celery_queue):
            clock.advance(61)  # 9 min 59 s before the deadline
            assert wait_for(lambda: told(player, Kind.DEADLINE_10M).exists(), 10)
            assert wait_for(lambda: len(mail.outbox) == 1, 10)
        with celery_worker(celery_queue):
            clock.advance(60)
            settle()

    notice = told(player, Kind.DEADLINE_10M).get()
    assert notice.on_site and notice.email_state == Notice.EmailState.SENT
    assert len(mail.outbox) == 1
    assert "Cup · episode 1" in mail.outbox[0].body
    assert Reminder.objects.get().state == Reminder.State.SENT
    assert services.unread_count(player) == 1


def test_nothing_is_told_after_the_thing_happened(
    redis_url, celery_queue, clock, player, settings, tmp_path
):
    settings.NOTIFY_EMAIL_BATCH_SECONDS = 0
    soon = services.clock.moment() + timedelta(minutes=30)
    moved = services.About(key="match:9", label="Cup · W1.1")
    services.remind(player, Kind.DEADLINE_10M, ABOUT, soon, before=timedelta(minutes=10))
    services.remind(player, Kind.DEADLINE_1H, moved, soon, before=timedelta(minutes=10))
    services.cancel_reminders("match:9")  # the match was played early

    with beat(tmp_path), celery_worker(celery_queue):
        clock.advance(31 * 60)  # the worker was away until after the deadline itself
        assert wait_for(
            lambda: not Reminder.objects.filter(state=Reminder.State.PENDING).exists(), 10
        )
    assert not Notice.objects.exists()
    assert mail.outbox == []
    assert set(Reminder.objects.values_list("state", flat=True)) == {Reminder.State.CANCELLED}


def test_the_same_reminder_twice_is_one_reminder(clock, player):
    deadline = services.clock.moment() + timedelta(hours=1)
    first = services.remind(player, Kind.DEADLINE_1H, ABOUT, deadline, before=timedelta(hours=1))
    again = services.remind(player, Kind.DEADLINE_1H, ABOUT, deadline, before=timedelta(hours=1))
    assert first.pk == again.pk
    assert services.send_reminder(reminder_id=first.pk) == Reminder.State.SENT
    assert services.send_reminder(reminder_id=first.pk) == Reminder.State.SENT
    assert Notice.objects.count() == 1
