"""Issue 30, finding 2: ``X-Forwarded-For`` is believed only from ``TRUSTED_PROXIES`` (none by
default), by uvicorn and by the rate limits alike. Before, uvicorn's default trusted 127.0.0.1:
after the log-in limit refused, six more log-ins with other ``X-Forwarded-For`` values were
answered, and wrong room codes went on being answered 404 instead of 429."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from django.db import connection
from django.test import RequestFactory, override_settings

from hosting.core.proxies import client_address, uvicorn_options
from tests.games.hosting_helpers import wait_for

ROOT = Path(__file__).resolve().parents[2]
RATES = {"login.client": "3/d", "login.account": "50/d", "room_code.client": "3/d"}
CODE = "QZQZQZ"  # a well-formed room code no room has


def _request(peer: str, forwarded: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=peer, **headers)


def test_without_trusted_proxies_the_connecting_address_is_the_client():
    assert client_address(_request("127.0.0.1", "203.0.113.9")) == "127.0.0.1"
    assert client_address(_request("198.51.100.4", "203.0.113.9")) == "198.51.100.4"
    assert uvicorn_options() == {"proxy_headers": False, "forwarded_allow_ips": []}


@override_settings(TRUSTED_PROXIES=["10.0.0.0/8", "::1"])
def test_from_a_trusted_proxy_the_client_is_the_last_untrusted_hop():
    # The client wrote the first entry itself; the proxies appended the rest.
    assert client_address(_request("10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.7")) == "203.0.113.9"
    assert client_address(_request("::1", "203.0.113.9")) == "203.0.113.9"
    assert client_address(_request("10.0.0.2", "10.1.1.1, 10.2.2.2")) == "10.1.1.1"
    assert client_address(_request("10.0.0.2")) == "10.0.0.2"  # no header: the proxy itself
    # From anywhere else the header is ignored.
    assert client_address(_request("198.51.100.4", "203.0.113.9")) == "198.51.100.4"
    assert uvicorn_options() == {
        "proxy_headers": True,
        "forwarded_allow_ips": ["10.0.0.0/8", "::1"],
    }


@pytest.mark.django_db
@override_settings(THROTTLE_RATES=RATES)
def test_a_forged_forwarded_for_does_not_reset_the_log_in_limit(client):
    wrong = {"username": "ada", "password": "guess"}
    for _ in range(3):
        assert client.post("/accounts/login/", wrong).status_code == 200
    for number in range(6):
        forged = client.post("/accounts/login/", wrong, HTTP_X_FORWARDED_FOR=f"198.51.100.{number}")
        assert forged.status_code == 429


# -- through a real uvicorn process on loopback ------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def _uvicorn(**env: str) -> Iterator[str]:
    """``uvicorn hosting.asgi:application`` as the docs run it, on the test database (no
    Redis: its one process counts in memory)."""
    database = connection.settings_dict
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    port = _free_port()
    environ = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "TRUSTED_PROXIES"}}
    environ |= {
        "DATABASE_URL": url,
        "THROTTLE_RATES": ",".join(f"{k}={v}" for k, v in RATES.items()),
        "DEBUG": "0",
        **env,
    }
    command = [sys.executable, "-m", "uvicorn", "hosting.asgi:application", "--lifespan", "off"]
    server = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert wait_for(lambda: _answers(base), 30), "uvicorn did not start"
        yield base
    finally:
        server.terminate()
        server.wait(10)


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code in (200, 503)
    except httpx.HTTPError:
        return False


def _log_ins(base: str, forwarded: list[str | None]) -> list[int]:
    statuses = []
    with httpx.Client(base_url=base, timeout=10) as browser:
        browser.get("/accounts/login/")
        token = browser.cookies["csrftoken"]
        for number, hop in enumerate(forwarded):
            form = {"username": f"guess{number}", "password": "x", "csrfmiddlewaretoken": token}
            headers = {"X-Forwarded-For": hop} if hop else {}
            statuses.append(
                browser.post("/accounts/login/", data=form, headers=headers).status_code
            )
    return statuses


def _room_codes(base: str, forwarded: list[str | None]) -> list[int]:
    with httpx.Client(base_url=base, timeout=10) as api:
        return [
            api.get(
                f"/api/rooms/{CODE}/", headers={"X-Forwarded-For": hop} if hop else {}
            ).status_code
            for hop in forwarded
        ]


FORGED = [f"198.51.100.{number}" for number in range(6)]


@pytest.mark.parametrize(
    "env",
    [
        {},
        # uvicorn's own setting does not override TRUSTED_PROXIES.
        {"FORWARDED_ALLOW_IPS": "*"},
    ],
)
def test_uvicorn_on_loopback_keeps_refusing_whatever_x_forwarded_for_says(transactional_db, env):
    with _uvicorn(**env) as base:
        assert _log_ins(base, [None] * 3 + FORGED) == [200] * 3 + [429] * 6
        assert _room_codes(base, [None] * 3 + FORGED) == [404] * 3 + [429] * 6


def test_uvicorn_believes_a_configured_proxy(transactional_db):
    """The proxy's clients are told apart: each forwarded address has its own limit."""
    with _uvicorn(TRUSTED_PROXIES="127.0.0.1") as base:
        assert _log_ins(base, ["203.0.113.1"] * 4 + FORGED) == [200] * 3 + [429] + [200] * 6
        assert _room_codes(base, ["203.0.113.1"] * 4 + FORGED) == [404] * 3 + [429] + [404] * 6


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"TRUSTED_PROXIES": "10.0.0.0/8,proxy.local"}, "'proxy.local' is not an IP address"),
        ({"NUM_PROXIES": "1"}, "set TRUSTED_PROXIES"),
    ],
)
def test_a_proxy_setting_that_cannot_be_meant_stops_the_process(env, says):
    environ = {k: v for k, v in os.environ.items() if k not in {"TRUSTED_PROXIES", "NUM_PROXIES"}}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=environ | {"DJANGO_SETTINGS_MODULE": "hosting.settings", **env},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode != 0 and says in done.stderr.decode()
