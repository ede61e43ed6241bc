import pytest
import redis

from hosting import heartbeats
from hosting.celery import app
from hosting.core.scheduling import Scheduler
from hosting.heartbeats import BeatScheduler
from tests.games.hosting_helpers import celery_worker, wait_for

pytestmark = pytest.mark.django_db


def forget_heartbeats(url: str) -> None:
    client = redis.Redis.from_url(url)
    stale = list(client.scan_iter(match=f"{heartbeats.PREFIX}*"))
    if stale:
        client.delete(*stale)


def test_without_redis_it_reports_the_database_and_the_in_process_timers(
    client, settings, monkeypatch
):
    settings.REDIS_URL = ""
    timers = Scheduler()
    monkeypatch.setattr("hosting.health.scheduler", timers)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["missing"] == ["timers"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["timers"]["error"] == (
        "timers is unavailable: the in-process timer thread is not running"
    )
    timers.start()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["timers"] == "in-process"


@pytest.mark.django_db(transaction=True)
def test_it_names_a_missing_worker_and_beat_and_is_ok_once_both_beat(
    client, settings, redis_url, celery_queue, tmp_path
):
    settings.REDIS_URL = redis_url
    forget_heartbeats(redis_url)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["missing"] == ["worker", "beat"]
    assert body["checks"]["redis"]["ok"] is True and body["checks"]["broker"]["ok"] is True
    assert body["checks"]["worker"]["error"].startswith("worker is unavailable: no Celery worker")
    with celery_worker(celery_queue):
        # A worker beats once its consumer is connected; beat beats from its scheduler loop.
        assert wait_for(lambda: "worker" not in client.get("/healthz").json()["missing"], 10)
        BeatScheduler(app=app, schedule_filename=str(tmp_path / "beat")).tick()
        response = client.get("/healthz")
        assert response.status_code == 200, response.json()
        assert response.json()["checks"]["worker"]["alive"] >= 1
    forget_heartbeats(redis_url)


def test_healthz_is_503_when_redis_is_down(client, settings, caplog):
    settings.REDIS_URL = "redis://secret-user:hunter2@127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True
    # Issue 14, finding 10: which component is down, and no internal exception text.
    assert body["checks"]["redis"]["error"] == "redis is unavailable"
    text = response.content.decode()
    assert "Error" not in text and "127.0.0.1" not in text and "hunter2" not in text
    logged = [r for r in caplog.records if r.name == "hosting.health"]
    assert {r.getMessage() for r in logged} >= {"health check: redis is unavailable"}
    assert any("ConnectionError" in str(r.exc_info[1].__class__) for r in logged if r.exc_info)
