"""``manage.py serve`` (what ``make run`` starts) stops promptly and quietly even while live
streams are open: they never end by themselves, and uvicorn would otherwise wait for every game
to end, then log a traceback for each stream it cancels."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.games.hosting_helpers import wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["deploy", "ctrl-c"])
def test_serve_stops_within_seconds_with_a_live_stream_open(tmp_path, stop):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    create = (
        "from games import services; from games.services import SeatSpec; "
        "print(services.game_create(engine_key='color_clash', seats=[SeatSpec(), SeatSpec()]).pk)"
    )
    made = subprocess.run(
        [*manage, "shell", "-c", create], cwd=ROOT, env=env, check=True, capture_output=True
    )
    game = int(made.stdout.split()[-1])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    server = subprocess.Popen(
        [*manage, "serve", "--no-seed", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert wait_for(lambda: _up(base), 30), "the server did not come up"
        with socket.create_connection(("127.0.0.1", port)) as browser:
            browser.sendall(f"GET /live/games/{game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert b"200 OK" in browser.recv(4096)  # the stream is open, and stays open
            server.send_signal(stop)
            started = time.monotonic()
            server.wait(20)
            assert time.monotonic() - started < 10
    finally:
        if server.poll() is None:
            server.kill()
    output = log.read_text()
    assert "Finished server process" in output and "Traceback" not in output, output


def _up(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_serve_restarts_a_worker_or_beat_killed_under_it_and_says_so(tmp_path, redis_url):
    """Issue 20: after ``kill -9`` of the Celery worker, ``serve`` never restarted it."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    # Its own Redis database: the children's heartbeats and queues stay out of other tests'.
    env["REDIS_URL"] = redis_url.rsplit("/", 1)[0] + "/3"
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    command = [sys.executable, "manage.py", "serve", "--no-seed", "--port", str(port)]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert wait_for(lambda: _up(base), 60), log.read_text()
        children = _children(server.pid)
        assert len(children) == 2, children
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        assert wait_for(lambda: log.read_text().count("restarted (pid") == 2, 20), log.read_text()
        output = log.read_text()
        assert "Celery worker exited with status -9; restarting it" in output
        assert "Celery beat exited with status -9; restarting it" in output
        replaced = _children(server.pid)
        assert len(replaced) == 2 and not set(replaced) & set(children)
        # Their heartbeats come back: the health check is ok again with the new processes.
        assert wait_for(lambda: _up(base), 30), httpx.get(f"{base}/healthz").json()
    finally:
        server.terminate()
        server.wait(30)
    assert not any(Path(f"/proc/{pid}").exists() for pid in replaced)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (its own threads' children, from /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return sorted(found)
