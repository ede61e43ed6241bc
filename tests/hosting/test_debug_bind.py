"""Issue 14, finding 11: DEBUG's tracebacks stay on this machine. `make run` (loopback) keeps
them; a process told to listen beyond loopback with DEBUG on refuses to start."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.core.exceptions import ImproperlyConfigured

from hosting.core.bind import is_loopback, refuse_debug_beyond_loopback
from tests.games.hosting_helpers import wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_addresses_may_serve_debug(host):
    assert is_loopback(host)
    refuse_debug_beyond_loopback(host, debug=True)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "arena.example.org"])
def test_other_addresses_refuse_debug_but_not_production(host):
    assert not is_loopback(host)
    with pytest.raises(ImproperlyConfigured, match=f"will not listen on {host}"):
        refuse_debug_beyond_loopback(host, debug=True)
    refuse_debug_beyond_loopback(host, debug=False)


def environment(tmp_path, **extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'bind.sqlite3'}", APP_PROFILE="development")
    return env | extra


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_serve_command_refuses_a_public_address_with_debug_on(tmp_path):
    command = [sys.executable, "manage.py", "serve", "--no-seed", "--host", "0.0.0.0"]
    done = subprocess.run(
        command, cwd=ROOT, env=environment(tmp_path, DEBUG="1"), capture_output=True, timeout=60
    )
    assert done.returncode != 0
    assert b"DEBUG is on, so this process will not listen on 0.0.0.0" in done.stderr
    assert not (tmp_path / "bind.sqlite3").exists()  # refused before migrating anything


UVICORN = [sys.executable, "-m", "uvicorn", "hosting.asgi:application", "--lifespan", "off"]


def test_uvicorn_refuses_a_public_address_with_debug_on(tmp_path):
    port = str(free_port())
    done = subprocess.run(
        [*UVICORN, "--host", "0.0.0.0", "--port", port],
        cwd=ROOT,
        env=environment(tmp_path),  # DEBUG unset: on, as in development
        capture_output=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert b"DEBUG is on, so this process will not listen on 0.0.0.0" in done.stderr


def test_uvicorn_serves_a_public_address_with_debug_off(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [*UVICORN, "--host", "0.0.0.0", "--port", str(port)],
        cwd=ROOT,
        env=environment(tmp_path, DEBUG="0"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: _up(f"http://127.0.0.1:{port}"), 30)
    finally:
        server.terminate()
        server.wait(10)


def _up(base: str) -> bool:
    """It answers (503 is the truth here: no timers run under bare uvicorn without Redis)."""
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code in (200, 503)
    except httpx.HTTPError:
        return False
