"""The server under test, started on 127.0.0.1 as production runs it (uvicorn, a Celery
worker and beat, each its own process group), and the CPU each part of the machine uses."""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent.parent
# The web server runs as this command with --serve-web (see serve_web), for every benchmark.
COMMAND = str(ROOT / "benchmarks" / "live_load.py")


PG_SERVER = "postgres://postgres@127.0.0.1:5432"


@dataclass
class Server:
    env: dict[str, str]
    url: str
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)
    backends: dict[int, float] = field(default_factory=dict)  # PostgreSQL pid -> CPU seen

    def start(self, args: argparse.Namespace, scratch: Path) -> None:
        python = sys.executable
        port, workers = str(args.port), str(args.workers)
        web = [python, COMMAND, "--serve-web", "--port", port, "--workers", workers]
        if args.profile:
            web += ["--profile", str(Path(args.profile).resolve())]
        if args.stock_uvicorn:
            web = [
                *(python, "-m", "uvicorn", "hosting.asgi:application", "--host", "127.0.0.1"),
                *("--port", port, "--workers", workers, "--lifespan", "off"),
                *("--log-level", "warning", "--timeout-graceful-shutdown", "3"),
            ]
        commands = {
            "uvicorn": web,
            "celery worker": [
                *(python, "-m", "celery", "-A", "hosting", "worker", "--loglevel=WARNING"),
                *([f"--concurrency={args.celery_concurrency}"] if args.celery_concurrency else []),
                *([f"--pool={args.celery_pool}"] if args.celery_pool else []),
            ],
            "celery beat": [
                *(python, "-m", "celery", "-A", "hosting", "beat", "--loglevel=WARNING"),
                f"--schedule={scratch / 'beat-schedule'}",
            ],
        }
        for name, command in commands.items():
            log = (scratch / f"{name.replace(' ', '-')}.log").open("w")
            # Own process group: stopping it reaches the uvicorn/celery children too.
            self.procs[name] = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
            )

    def wait_healthy(self, timeout: float = 40.0) -> None:
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise SystemExit(f"{name} exited with {proc.returncode}; see its log")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.3)
        raise SystemExit("the server did not become healthy in time")

    def stop(self) -> None:
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        give_up = time.monotonic() + 10
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, give_up - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time used so far by each server part (its whole process group)."""
        used = {name: _group_cpu(proc.pid) for name, proc in self.procs.items()}
        used["postgres"] = self._database_cpu()
        used["redis"] = _comm_cpu("redis-server")
        used["load client"] = client_cpu()
        used["machine"] = machine_busy()
        return used

    def _database_cpu(self) -> float:
        """CPU of the PostgreSQL backends serving this run's database only: other sessions'
        test suites share the server, and counting every ``postgres`` process made this
        figure theirs as much as ours. A backend that has exited keeps its last reading."""
        url = self.env["DATABASE_URL"]
        with psycopg.connect(url, autocommit=True) as conn:
            pids = {
                pid
                for (pid,) in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()"
                )
            }
        for pid, _, fields in _proc_stats():
            if pid in pids:
                self.backends[pid] = _cpu(fields)
        return sum(self.backends.values())


def serve_web(port: int, workers: int, profile: str | None) -> None:
    """``uvicorn --workers N`` with two fixes to how the CLI binds its socket.

    - The CLI binds with ``socket.socket(AF_INET)``, whose ``proto`` is 0, and asyncio sets
      TCP_NODELAY only on sockets whose ``proto`` is IPPROTO_TCP: every response on a kept-alive
      connection (headers and body are two writes) then waits for the client's delayed ACK,
      40 ms on Linux.
    - Its workers share one listening socket, and whichever is waiting in epoll takes the next
      connection: a run left 293 streams on one worker and 27 on the other. Here each worker
      binds its own socket with SO_REUSEPORT, and the kernel spreads connections evenly.

    ``--stock-uvicorn`` runs the CLI instead, to show the difference.
    """
    if workers > 1 and not profile:
        command = [sys.executable, COMMAND, "--serve-web", "--port", str(port), "--workers", "1"]
        children = [subprocess.Popen(command) for _ in range(workers)]
        # The benchmark signals the whole process group: outlive the workers, so that whoever
        # waits for this process knows the port is free.
        signal.signal(signal.SIGTERM, lambda *_: None)
        for child in children:
            child.wait()
        return
    import uvicorn

    config = uvicorn.Config(
        "hosting.asgi:application",
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=3,
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", port))
    if profile:  # one process, so that one profile covers every request
        from asgiref.sync import SyncToAsync

        # The Django code runs on asgiref's one sync thread: profile it there, separately.
        # Each thread's own CPU time: wall time would charge the GIL waits of one thread to
        # whatever it was doing when the other held the GIL.
        sync_profile = cProfile.Profile(time.thread_time)
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(1, initializer=sync_profile.enable)
        # uvicorn re-raises the SIGTERM it stopped on; ignored, the profiles are still written.
        signal.signal(signal.SIGTERM, lambda *_: None)
        loop_profile = cProfile.Profile(time.thread_time)
        loop_profile.runctx("uvicorn.Server(config).run(sockets=[sock])", globals(), locals())
        loop_profile.dump_stats(profile)
        sync_profile.dump_stats(f"{profile}.sync")
    else:
        uvicorn.Server(config).run(sockets=[sock])


def _proc_stats() -> Iterator[tuple[int, str, list[str]]]:
    """(pid, command name, fields after the name) of every process in /proc."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        yield int(entry.name), name, text[text.rindex(")") + 2 :].split()


def _cpu(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _group_cpu(pgid: int) -> float:
    return sum(_cpu(fields) for _, _, fields in _proc_stats() if int(fields[2]) == pgid)


def _comm_cpu(command: str) -> float:
    return sum(_cpu(fields) for _, name, fields in _proc_stats() if name == command)


def client_cpu() -> float:
    times = os.times()
    return times.user + times.system


def machine_busy() -> float:
    """CPU seconds every process on the machine used (other sessions share these 2 cores)."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = fields[:7]  # not steal: the host's
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def cores_used(before: dict[str, float], after: dict[str, float], seconds: float) -> dict:
    """Cores each part used between two ``Server.cpu_seconds`` readings; ``other`` is the rest
    of the machine (other sessions, their PostgreSQL backends included)."""
    used = {name: (after[name] - before[name]) / seconds for name in before}
    used["other"] = used.pop("machine") - sum(used.values())
    return {name: round(cores, 2) for name, cores in used.items()}
