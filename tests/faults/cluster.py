"""The service as deployed on several machines, in miniature: its own ``redis-server``, two
ASGI web processes, two Celery workers and beat, all on the suite's PostgreSQL database.

Every process is started here and kept by its ``Popen``; faults are signals sent to those
PIDs only (never a name lookup: other sessions run the same programs on this machine).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
WEBS = ("web-a", "web-b")
WORKERS = ("worker-1", "worker-2")
# Every client of the suite comes from 127.0.0.1: rates far above what it sends.
THROTTLE_RATES = ",".join(
    f"{scope}.{who}=100000000/m"
    for scope in ("create", "claim", "action")
    for who in ("client", "account")
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    database_url: str
    scratch: Path
    redis_port: int = field(default_factory=free_port)
    ports: dict[str, int] = field(default_factory=lambda: {web: free_port() for web in WEBS})
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def url(self, web: str) -> str:
        return f"http://127.0.0.1:{self.ports[web]}"

    @property
    def env(self) -> dict[str, str]:
        return {
            **{k: v for k, v in os.environ.items() if k not in {"REQUIRE_SERVICES"}},
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "EXTRA_ENGINES": "high_card=tests.games.engines.tiny",
            "THROTTLE_RATES": THROTTLE_RATES,
            # Every stream comes from this one address: caps far above the load, still counted.
            "LIVE_STREAMS_PER_CLIENT": os.environ.get("LIVE_STREAMS_PER_CLIENT", "100000"),
            "LIVE_STREAMS_PER_SESSION": os.environ.get("LIVE_STREAMS_PER_SESSION", "100000"),
            "DEBUG": "0",
            "LOG_LEVEL": "INFO",
            "DJANGO_SETTINGS_MODULE": "hosting.settings",
            "PYTHONPATH": str(ROOT),
        }

    def command(self, name: str) -> list[str]:
        python = sys.executable
        if name == "redis":
            return [
                *("redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.scratch)),
            ]
        if name in WEBS:
            return [
                *(python, "-m", "uvicorn", "hosting.asgi:application", "--host", "127.0.0.1"),
                *("--port", str(self.ports[name]), "--lifespan", "off", "--log-level", "warning"),
                *("--timeout-graceful-shutdown", "2"),
            ]
        celery = [python, "-m", "celery", "-A", "hosting"]
        if name in WORKERS:
            return [
                *celery,
                *("worker", "-n", f"{name}@faults", "--loglevel=INFO"),
                *("--without-mingle", "--without-gossip"),
            ]
        if name == "beat":
            return [*celery, "beat", "--loglevel=INFO", f"--schedule={self.scratch / 'beat'}"]
        raise ValueError(name)

    def start(self, name: str) -> None:
        log = (self.scratch / f"{name}.log").open("a")
        self.procs[name] = subprocess.Popen(
            self.command(name), cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        if name == "redis":
            self.wait_for(self._redis_answers, 10, "redis-server did not start")

    def start_all(self) -> None:
        self.start("redis")
        for name in (*WEBS, *WORKERS, "beat"):
            self.start(name)
        self.wait_healthy()

    def kill(self, name: str, sig: signal.Signals = signal.SIGKILL) -> int:
        """Send ``sig`` to the process this cluster started as ``name``; wait for it to end."""
        proc = self.procs[name]
        pid = proc.pid
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        proc.wait(20)
        return pid

    def alive(self, name: str) -> bool:
        return self.procs[name].poll() is None

    def health(self, web: str) -> tuple[int, dict]:
        response = httpx.get(f"{self.url(web)}/healthz", timeout=3)
        return response.status_code, response.json()

    def healthy(self, web: str) -> bool:
        try:
            return self.health(web)[0] == 200
        except (httpx.HTTPError, ValueError):
            return False

    def wait_healthy(self, timeout: float = 60) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise AssertionError(f"{name} exited with {proc.returncode}: {self.log(name)}")
        for web in WEBS:
            self.wait_for(lambda web=web: self.healthy(web), timeout, f"{web} is not healthy")

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        give_up = time.monotonic() + 15
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, give_up - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def log(self, name: str) -> str:
        path = self.scratch / f"{name}.log"
        return path.read_text()[-4000:] if path.exists() else ""

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """A management command run as an operator would, against the cluster's database."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def _redis_answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    @staticmethod
    def wait_for(condition, seconds: float, failure: str) -> None:  # type: ignore[no-untyped-def]
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            if condition():
                return
            time.sleep(0.1)
        raise AssertionError(failure)
