"""The ASGI handler (``hosting.asgi``, its own thread model): the request signals are sent
once each per request, and a streamed response (a static file) is sent whole."""

from pathlib import Path

import httpx
import pytest
from django.core import signals

from tests.games.hosting_helpers import wait_for


@pytest.fixture
def request_signals():
    seen: list[str] = []

    def started(**kwargs):
        seen.append("started")

    def finished(**kwargs):
        seen.append("finished")

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    yield seen
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)


def test_each_request_starts_and_finishes_once(asgi_server, request_signals):
    with httpx.Client(base_url=asgi_server) as client:
        ping = client.get("/api/ping")
        assert ping.status_code == 200
        # request_finished follows the response out: it may land just after the client has it
        assert wait_for(lambda: request_signals == ["started", "finished"], 2), request_signals
        refused = client.post("/api/games/", json={"engine": "high_card", "seats": [{}, {}]})
        assert refused.status_code == 403  # not an organiser
        assert wait_for(lambda: request_signals == ["started", "finished"] * 2, 2), request_signals


def test_a_static_file_is_streamed_whole(asgi_server, request_signals):
    with httpx.Client(base_url=asgi_server) as client:
        css = client.get("/static/css/site.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    source = Path(__file__).resolve().parents[2] / "hosting" / "static" / "css" / "site.css"
    assert css.content == source.read_bytes()
    assert wait_for(lambda: request_signals == ["started", "finished"], 2), request_signals
