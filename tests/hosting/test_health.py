import pytest

pytestmark = pytest.mark.django_db


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True


def test_healthz_checks_redis_and_the_broker_when_configured(client, settings, redis_url):
    settings.REDIS_URL = redis_url
    body = client.get("/healthz").json()
    assert body["checks"]["redis"]["ok"] is True
    assert body["timers"] == "celery"


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
