"""Live-hosting load benchmark: N concurrent games played by bots over HTTP + SSE.

One command sets up and tears down everything it uses: a fresh PostgreSQL database, a Redis
database number, the ASGI server (uvicorn), a Celery worker and Celery beat, all on 127.0.0.1.
It first hammers ``GET /api/ping`` (the trivial DRF baseline) with the same client machinery and
concurrency, then keeps ``--games`` games running for ``--seconds``: every seat is a bot that
follows its SSE stream and, whenever its clock runs, waits ``--think`` seconds (0: not at all)
and posts a random one of the legal actions its payload lists. A share of games has one seat
that never acts, so its clock runs out and the server must time it out. Prints a summary and,
last, one JSON line with every figure and target.

    /work/main/.venv/bin/python benchmarks/live_load.py --games 200 --engine high_card

Measured:
- action latency: request to response of ``POST /api/games/<id>/actions`` (accepted ones);
- SSE delivery: from a successful action's response to the first message carrying that version
  (or a later one: the stream coalesces bursts) on each OTHER seat's stream;
- timer lateness: when the server applied a timeout or window close (``GameEvent.at``) minus the
  deadline it was due at (``GameSession.next_deadline``, read from the database while pending),
  and the same minus the deadline as seen by the players (first SSE arrival of that version).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import http.cookiejar
import itertools
import json
import math
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from bisect import bisect_left
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/2"  # tests use /0; this benchmark flushes /2 only
EXTRA_ENGINES = "high_card=tests.games.engines.tiny"
ORGANISER = "bench-organiser"
LIVE = {"waiting", "running"}  # a stream opened before the start first says "waiting"
TARGETS = {"games": 200, "action_p99_ms": 100.0, "timer_p99_ms": 250.0, "ratio_to_baseline": 0.5}

# Per-engine settings for the games the bots play; engines not listed use their defaults.
# High Card's one-second applause window would cap every game at one action a second, which
# measures the rules' pacing rather than the server: a quarter second still makes every
# second action wait for a server timer.
ENGINE_CONFIG: dict[str, dict[str, Any]] = {
    "high_card": {"hand_size": 5, "applause_seconds": 0.25},
}


@dataclass
class Stats:
    """Everything the load phase measures; times are ``time.perf_counter()`` unless noted."""

    action_ms: list[float] = field(default_factory=list)
    legal_ms: list[float] = field(default_factory=list)
    # How late the load client's own event loop woke a 10 ms sleeper: a response that arrives
    # while the loop is busy with other bots waits that long before it is timed.
    loop_lag_ms: list[float] = field(default_factory=list)
    # (game, seat, version, response time) of every accepted action in the window
    accepted: list[tuple[int, int, int, float]] = field(default_factory=list)
    # arrivals[game][seat] = [(version, perf time, wall time)] in arrival order
    arrivals: dict[int, dict[int, list[tuple[int, float, float]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    # (game, version) -> the deadline (epoch seconds) pending at that version
    deadlines: dict[tuple[int, int], float] = field(default_factory=dict)
    requests: int = 0
    transport_errors: int = 0
    stream_drops: int = 0
    stale: int = 0
    refused: int = 0
    errors: int = 0
    games_started: int = 0
    games_finished: int = 0


@dataclass
class Run:
    """Shared state of the load phase."""

    url: str
    organiser: httpx.AsyncClient  # logged in; each game slot copies its cookies
    db: psycopg.AsyncConnection
    engine: str
    games: int
    seats: int
    stall_share: float
    think: float = 0.0
    stall_time_control: dict[str, Any] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)
    window: tuple[float, float] = (math.inf, math.inf)  # measured interval (perf times)
    stopping: bool = False
    db_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    background: set[asyncio.Task] = field(default_factory=set)

    def measuring(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]


BENCH_THROTTLE_RATES = ",".join(
    f"{scope}.{who}=100000000/m"
    for scope in ("create", "claim", "action")
    for who in ("client", "account")
)


# -- the server under test --------------------------------------------------------------------


@dataclass
class Server:
    env: dict[str, str]
    url: str
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    def start(self, args: argparse.Namespace, scratch: Path) -> None:
        python = sys.executable
        port, workers = str(args.port), str(args.workers)
        web = [python, __file__, "--serve-web", "--port", port, "--workers", workers]
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
        used["postgres"] = _comm_cpu("postgres")
        used["redis"] = _comm_cpu("redis-server")
        used["load client"] = client_cpu()
        used["machine"] = machine_busy()
        return used


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
        command = [sys.executable, __file__, "--serve-web", "--port", str(port), "--workers", "1"]
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


# -- setup ------------------------------------------------------------------------------------


def create_database(name: str) -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepare_django(env: dict[str, str], password: str) -> None:
    """Migrate the fresh database and create the organiser the load logs in as."""
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    script = (
        "import os\n"
        "from django.contrib.auth.models import Group, User\n"
        f"user = User.objects.create_user({ORGANISER!r}, password=os.environ['BENCH_PASSWORD'])\n"
        "user.groups.add(Group.objects.get(name='organiser'))\n"
    )
    env = {**env, "BENCH_PASSWORD": password}
    subprocess.run([*manage, "shell", "-c", script], cwd=ROOT, env=env, check=True)


async def log_in(organiser: httpx.AsyncClient, password: str) -> None:
    """A session login (not Basic auth, which would hash the password on every request)."""
    await organiser.get("/accounts/login/")
    form = {
        "username": ORGANISER,
        "password": password,
        "csrfmiddlewaretoken": organiser.cookies["csrftoken"],
    }
    response = await organiser.post("/accounts/login/", data=form)
    if "sessionid" not in organiser.cookies:
        raise SystemExit(f"the organiser could not log in ({response.status_code})")


async def send(
    client: httpx.AsyncClient, stats: Stats, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """One request, sent again once if the connection failed under it (a kept-alive connection
    the server closed meanwhile): actions carry a client action id, so a repeat is safe."""
    stats.requests += 1
    try:
        return await client.request(method, url, **kwargs)
    except httpx.TransportError:
        stats.transport_errors += 1
        return await client.request(method, url, **kwargs)


def csrf(organiser: httpx.AsyncClient) -> dict[str, str]:
    return {"X-CSRFToken": organiser.cookies["csrftoken"]}


def new_client(url: str, *, cookies: bool) -> httpx.AsyncClient:
    client = httpx.AsyncClient(
        base_url=url,
        verify=False,  # plain HTTP on 127.0.0.1: skip loading the CA bundle for every client
        timeout=httpx.Timeout(30.0),
        # uvicorn closes a connection idle for 5 s (its default), httpx's own expiry is also
        # 5 s: a request sent on one at that moment is lost ("Server disconnected without
        # sending a response"), which a browser retries and httpx does not. Expire first.
        limits=httpx.Limits(
            max_connections=None, max_keepalive_connections=None, keepalive_expiry=4.0
        ),
    )
    if not cookies:
        # Bots authenticate by seat token; refusing cookies makes every claim a distinct guest.
        client.cookies.jar.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return client


async def stall_time_control(run: Run, allowance: float) -> dict[str, Any]:
    """Every phase of the engine at ``allowance`` seconds with no reserve, if the engine accepts
    that; otherwise its default allowances with no reserve (e.g. a 30 s minimum turn)."""
    probe = await create_game(run, run.organiser, {})
    phases = probe["time_control"]["allowances"]
    wanted = {"allowances": dict.fromkeys(phases, allowance), "reserve": 0}
    spec = game_spec(run.engine, run.seats, wanted)
    response = await send(
        run.organiser, run.stats, "POST", "/api/games/", json=spec, headers=csrf(run.organiser)
    )
    if response.status_code == 201:
        return wanted
    print(f"  {run.engine} refuses {allowance} s allowances ({response.json().get('detail')});")
    print("  stalled games use its default allowances with no reserve")
    return {"reserve": 0}


def game_spec(engine: str, seats: int, time_control: dict[str, Any]) -> dict[str, Any]:
    return {
        "engine": engine,
        "config": ENGINE_CONFIG.get(engine, {}),
        "time_control": time_control,
        "seats": [{"kind": "human"} for _ in range(seats)],
    }


async def create_game(
    run: Run, organiser: httpx.AsyncClient, time_control: dict[str, Any]
) -> dict[str, Any]:
    spec = game_spec(run.engine, run.seats, time_control)
    response = await send(
        organiser, run.stats, "POST", "/api/games/", json=spec, headers=csrf(organiser)
    )
    if response.status_code != 201:
        raise SystemExit(f"creating a {run.engine} game failed: {response.text[:300]}")
    return response.json()


# -- bots -------------------------------------------------------------------------------------


async def sse_payloads(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    data: list[str] = []
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []


@dataclass
class Bot:
    run: Run
    client: httpx.AsyncClient  # its own: one shared pool costs O(connections) per request
    game: int
    seat: int
    token: str  # set once the seat is claimed
    stalled_seat: int | None  # the seat of this game that never acts, so its clock runs out
    latest: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    counter: Iterator[int] = field(default_factory=itertools.count)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Seat {self.token}"}

    @property
    def observes(self) -> bool:
        """One bot per game reads the deadline pending at each version."""
        return self.seat == 0

    async def follow(self) -> None:
        """Read the seat's stream until the game ends. Decisions run in their own task so that
        arrivals are timed even while this seat's action is in flight."""
        decide = asyncio.create_task(self.decide())
        try:
            while self.latest.get("status", "waiting") in LIVE:
                try:
                    await self.read_stream()
                except httpx.TransportError:
                    self.run.stats.stream_drops += 1  # reconnect, resuming after the last seen
        finally:
            decide.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await decide

    async def read_stream(self) -> None:
        headers = dict(self.headers)
        if self.latest:
            headers["Last-Event-ID"] = str(self.latest["version"])
        timeout = httpx.Timeout(30.0, read=None)
        url = f"/live/games/{self.game}/"
        async with self.client.stream("GET", url, headers=headers, timeout=timeout) as response:
            async for payload in sse_payloads(response):
                self.arrived(payload)
                if payload["status"] not in LIVE:
                    return

    def arrived(self, payload: dict[str, Any]) -> None:
        moment, version = time.perf_counter(), payload["version"]
        self.run.stats.arrivals[self.game][self.seat].append((version, moment, time.time()))
        self.latest = payload
        self.changed.set()
        if self.observes and payload["status"] == "running" and self.timer_pending(payload):
            task = asyncio.create_task(self.record_deadline(version))
            self.run.background.add(task)
            task.add_done_callback(self.run.background.discard)

    def timer_pending(self, payload: dict[str, Any]) -> bool:
        """A window is open, or only the stalled seat's clock runs: a server timer is next."""
        running = {seat for seat, clock in payload["clocks"].items() if clock["running"]}
        stalled = {str(self.stalled_seat)} if self.stalled_seat is not None else set()
        return bool(payload["windows"]) or (bool(running) and running <= stalled)

    async def record_deadline(self, version: int) -> None:
        async with self.run.db_lock:
            if self.run.stopping:
                return
            cursor = await self.run.db.execute(
                "SELECT version, next_deadline FROM games_gamesession WHERE id = %s", (self.game,)
            )
            row = await cursor.fetchone()
        # Only while still pending: a deadline read after its timer fired belongs to a later
        # version, and dropping those samples can only hide timers that were on time.
        if row and row[0] == version and row[1] is not None:
            self.run.stats.deadlines[(self.game, version)] = row[1].timestamp()

    async def decide(self) -> None:
        while True:
            await self.changed.wait()
            self.changed.clear()
            if self.latest.get("status") not in LIVE:
                return
            if self.latest["status"] == "waiting":
                continue
            mine = self.latest["clocks"].get(str(self.seat), {})
            if self.seat == self.stalled_seat or self.run.stopping or not mine.get("running"):
                continue
            await self.act()

    async def act(self) -> None:
        stats = self.run.stats
        if self.run.think:
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.run.think)
        choices = await self.choices()
        if choices is None:
            return
        if not choices["actions"]:
            return  # e.g. a window opened meanwhile; the next version says what to do
        body = {
            "action": random.choice(choices["actions"]),
            "client_action_id": f"b{self.game}-{self.seat}-{next(self.counter)}",
            "expected_version": choices["version"],
        }
        url = f"/api/games/{self.game}/actions"
        started = time.perf_counter()
        response = await send(self.client, stats, "POST", url, json=body, headers=self.headers)
        done = time.perf_counter()
        if not self.run.measuring(started):
            return
        if response.status_code == 200:
            stats.action_ms.append((done - started) * 1000)
            stats.accepted.append((self.game, self.seat, response.json()["version"], done))
        elif response.status_code == 409:
            stats.stale += 1  # a timer or another seat moved the game first: normal
        elif response.status_code < 500:
            stats.refused += 1
        else:
            stats.errors += 1

    async def choices(self) -> dict[str, Any] | None:
        """The seat's legal actions: from its latest SSE payload when the server sends them
        there, else from ``GET /legal``."""
        if "legal" in self.latest:
            return {"actions": self.latest["legal"], "version": self.latest["version"]}
        stats = self.run.stats
        started = time.perf_counter()
        url = f"/api/games/{self.game}/legal"
        legal = await send(self.client, stats, "GET", url, headers=self.headers)
        if self.run.measuring(started):
            stats.legal_ms.append((time.perf_counter() - started) * 1000)
        if legal.status_code != 200:
            stats.errors += 1
            return None
        return legal.json()


async def keep_game_running(run: Run, slot: int) -> None:
    """Keep one game going in this slot: when it ends, set up the next."""
    stalled_seat = run.seats - 1 if slot < round(run.stall_share * run.games) else None
    async with new_client(run.url, cookies=True) as organiser:
        organiser.cookies.update(run.organiser.cookies)
        while not run.stopping:
            await play_game(run, organiser, stalled_seat)


async def play_game(run: Run, organiser: httpx.AsyncClient, stalled_seat: int | None) -> None:
    time_control = run.stall_time_control if stalled_seat is not None else {}
    created = await create_game(run, organiser, time_control)
    game, claim_body = created["game"], {"credential": "token", "invite": created["invite"]}
    bots = [
        Bot(run, new_client(run.url, cookies=False), game, number, "", stalled_seat)
        for number in range(run.seats)
    ]
    followers: list[asyncio.Task] = []
    try:
        for bot in bots:
            url = f"/api/games/{game}/seats/{bot.seat}/claim"
            claim = await send(bot.client, run.stats, "POST", url, json=claim_body)
            if claim.status_code != 201:
                raise RuntimeError(f"claiming a seat failed ({claim.status_code}): {claim.text}")
            bot.token = claim.json()["token"]
        followers = [asyncio.create_task(bot.follow()) for bot in bots]
        await asyncio.sleep(0.2)  # the streams open before the game starts
        url = f"/api/games/{game}/start"
        response = await send(organiser, run.stats, "POST", url, headers=csrf(organiser))
        if response.status_code != 200:
            raise RuntimeError(f"starting game {game} failed: {response.text[:300]}")
        run.stats.games_started += 1
        await asyncio.gather(*followers)
        run.stats.games_finished += 1
    finally:
        for follower in followers:
            follower.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
        for bot in bots:
            await bot.client.aclose()


# -- the phases -------------------------------------------------------------------------------


async def baseline(url: str, concurrency: int, seconds: float) -> Stats:
    """``GET /api/ping`` with ``concurrency`` closed loops, each its own client like a bot;
    counts answers after a warm-up."""
    stats = Stats()
    warm_until = time.perf_counter() + min(3.0, seconds / 4)
    end = warm_until + seconds

    async def loop() -> None:
        async with new_client(url, cookies=False) as client:
            while (moment := time.perf_counter()) < end:
                response = await send(client, stats, "GET", "/api/ping")
                if response.status_code == 200 and moment >= warm_until:
                    stats.action_ms.append((time.perf_counter() - moment) * 1000)

    await asyncio.gather(*(loop() for _ in range(concurrency)))
    return stats


async def load(
    run: Run, warmup: float, seconds: float, cpu_seconds: Callable[[], dict[str, float]]
) -> dict[str, float]:
    """Start every game, measure for ``seconds`` once all are running, then stop; returns the
    cores each part used while measuring."""
    slots = [asyncio.create_task(keep_game_running(run, slot)) for slot in range(run.games)]
    probe = asyncio.create_task(probe_loop_lag(run))
    try:
        started = time.perf_counter()
        while run.stats.games_started < run.games and time.perf_counter() - started < 60:
            await asyncio.sleep(0.2)
            raise_failure(slots)
        elapsed = time.perf_counter() - started
        print(f"  {run.stats.games_started} games running after {elapsed:.1f} s")
        await asyncio.sleep(warmup)
        before, begin = cpu_seconds(), time.perf_counter()
        run.window = (begin, begin + seconds)
        while time.perf_counter() < run.window[1]:
            await asyncio.sleep(min(5.0, run.window[1] - time.perf_counter()))
            raise_failure(slots)
            done, elapsed = len(run.stats.action_ms), time.perf_counter() - begin
            print(
                f"  {elapsed:5.1f} s: {done} actions ({done / elapsed:.0f}/s), "
                f"p99 {percentile(run.stats.action_ms, 99):.0f} ms, "
                f"{run.stats.games_finished} games finished"
            )
        return cores_used(before, cpu_seconds(), time.perf_counter() - begin)
    finally:
        run.stopping = True
        probe.cancel()
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        await asyncio.gather(*run.background, return_exceptions=True)


async def probe_loop_lag(run: Run, period: float = 0.01) -> None:
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(period)
        woke = time.perf_counter()
        if run.measuring(asked):
            run.stats.loop_lag_ms.append((woke - asked - period) * 1000)


def raise_failure(slots: list[asyncio.Task]) -> None:
    """A game slot that failed (not merely cancelled) stops the run: its figures would lie."""
    for slot in slots:
        if slot.done() and not slot.cancelled() and slot.exception() is not None:
            raise RuntimeError("a game slot failed") from slot.exception()


# -- figures ----------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def delivery_ms(stats: Stats) -> list[float]:
    """For each accepted action and each other seat: response to first arrival of a version at
    least as new (a negative figure: the stream beat the response)."""
    found = []
    for game, seat, version, answered in stats.accepted:
        for other, arrivals in stats.arrivals[game].items():
            if other == seat:
                continue
            index = bisect_left([v for v, _, _ in arrivals], version)
            if index < len(arrivals):
                found.append((arrivals[index][1] - answered) * 1000)
    return found


async def timer_lateness(run: Run) -> dict[str, list[float]]:
    """Lateness (ms) of the server timers whose deadline was read while pending, by kind: as
    applied (the log's timestamp) and as seen (first SSE arrival, any seat)."""
    cursor = await run.db.execute(
        "SELECT game_id, seq, at, action->>'type' FROM games_gameevent WHERE seat IS NULL"
    )
    applied = {
        (game, seq): (at.timestamp(), kind) for game, seq, at, kind in await cursor.fetchall()
    }
    late: dict[str, list[float]] = defaultdict(list)
    for (game, version), deadline in run.stats.deadlines.items():
        event = applied.get((game, version + 1))
        if event is None:
            continue  # a player acted first, or the run ended before the deadline
        at, kind = event
        late[kind].append((at - deadline) * 1000)
        late["applied"].append((at - deadline) * 1000)
        arrivals = [
            wall
            for seat_arrivals in run.stats.arrivals[game].values()
            for v, _, wall in seat_arrivals
            if v > version
        ]
        if arrivals:
            late["seen"].append((min(arrivals) - deadline) * 1000)
    return late


def summary(
    args: argparse.Namespace,
    ping_rps: float,
    run: Run,
    late: dict[str, list[float]],
    cpu: dict[str, float],
) -> dict[str, Any]:
    seconds = run.window[1] - run.window[0]
    stats = run.stats
    actions_per_s = len(stats.action_ms) / seconds
    figures = {
        "engine": args.engine,
        "games": args.games,
        "seats_per_game": run.seats,
        "stalled_games": round(run.stall_share * args.games),
        "seconds": round(seconds, 1),
        "web_workers": args.workers,
        "tcp_nodelay": not args.stock_uvicorn,
        "think_seconds": args.think,
        "baseline_ping_rps": round(ping_rps, 1),
        "actions_per_s": round(actions_per_s, 1),
        "actions": len(stats.action_ms),
        "action_p50_ms": round(percentile(stats.action_ms, 50), 1),
        "action_p99_ms": round(percentile(stats.action_ms, 99), 1),
        "client_loop_lag_p50_ms": round(percentile(stats.loop_lag_ms, 50), 1),
        "client_loop_lag_p99_ms": round(percentile(stats.loop_lag_ms, 99), 1),
        "legal_p50_ms": round(percentile(stats.legal_ms, 50), 1),
        "legal_p99_ms": round(percentile(stats.legal_ms, 99), 1),
        "sse_delivery_p50_ms": round(percentile(delivery_ms(stats), 50), 1),
        "sse_delivery_p99_ms": round(percentile(delivery_ms(stats), 99), 1),
        "timer_p50_ms": round(percentile(late["applied"], 50), 1),
        "timer_p99_ms": round(percentile(late["applied"], 99), 1),
        "timer_seen_p99_ms": round(percentile(late["seen"], 99), 1),
        "timers_measured": {k: len(v) for k, v in late.items() if k not in {"applied", "seen"}},
        "timer_p99_ms_by_kind": {
            k: round(percentile(v, 99), 1) for k, v in late.items() if k not in {"applied", "seen"}
        },
        "stale_409": stats.stale,
        "refused_4xx": stats.refused,
        "transport_retries": stats.transport_errors,
        "stream_reconnects": stats.stream_drops,
        "errors": stats.errors,
        "games_finished": stats.games_finished,
        "cpu_cores_used": cpu,
        "server_cpu_ms_per_action": round(
            1000
            * sum(v for k, v in cpu.items() if k not in {"load client", "other"})
            / max(actions_per_s, 1e-9),
            1,
        ),
    }
    met = {
        "games": args.games >= TARGETS["games"],
        "action_p99_ms": figures["action_p99_ms"] < TARGETS["action_p99_ms"],
        "timer_p99_ms": figures["timer_p99_ms"] < TARGETS["timer_p99_ms"],
        "ratio_to_baseline": actions_per_s >= TARGETS["ratio_to_baseline"] * ping_rps,
    }
    return {**figures, "targets": TARGETS, "met": met, "all_met": all(met.values())}


def print_summary(figures: dict[str, Any]) -> None:
    ratio = figures["actions_per_s"] / figures["baseline_ping_rps"]
    lines = [
        f"engine {figures['engine']}: {figures['games']} concurrent games "
        f"({figures['stalled_games']} with a stalling seat), {figures['seconds']} s measured",
        f"baseline GET /api/ping     {figures['baseline_ping_rps']:8.1f} req/s",
        f"actions                    {figures['actions_per_s']:8.1f} /s  "
        f"({ratio:.2f} of the baseline; target >= {TARGETS['ratio_to_baseline']})",
        f"action latency             p50 {figures['action_p50_ms']} ms, "
        f"p99 {figures['action_p99_ms']} ms (target < {TARGETS['action_p99_ms']:.0f})",
        f"load client's loop lag     p50 {figures['client_loop_lag_p50_ms']} ms, "
        f"p99 {figures['client_loop_lag_p99_ms']} ms (included in the latencies above)",
        f"GET legal (before acting)  p50 {figures['legal_p50_ms']} ms, "
        f"p99 {figures['legal_p99_ms']} ms",
        f"SSE delivery               p50 {figures['sse_delivery_p50_ms']} ms, "
        f"p99 {figures['sse_delivery_p99_ms']} ms",
        f"timer lateness (applied)   p50 {figures['timer_p50_ms']} ms, "
        f"p99 {figures['timer_p99_ms']} ms (target < {TARGETS['timer_p99_ms']:.0f}); "
        f"seen p99 {figures['timer_seen_p99_ms']} ms; {figures['timers_measured']}",
        f"refusals                   {figures['stale_409']} stale (409), "
        f"{figures['refused_4xx']} other 4xx, {figures['errors']} errors, "
        f"{figures['transport_retries']} requests resent and "
        f"{figures['stream_reconnects']} streams reopened after a dropped connection",
        f"CPU cores used             {figures['cpu_cores_used']}; server CPU per action "
        f"{figures['server_cpu_ms_per_action']} ms",
        "targets met: "
        + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in figures["met"].items()),
    ]
    if "budget_ms" in figures:
        b = figures["budget_ms"]
        lines.insert(
            -1,
            f"CPU per request (ms)       ping: client {b['ping_client']}, server "
            f"{b['ping_server']}; action: client {b['action_client']}, server "
            f"{b['action_server']}; the ratio target leaves the server "
            f"{b['action_server_for_target']} per action",
        )
    print("\n".join(lines))


# -- main -------------------------------------------------------------------------------------


async def measure(
    args: argparse.Namespace, url: str, password: str, server: Server, db: str
) -> dict:
    async with (
        new_client(url, cookies=True) as organiser,
        await psycopg.AsyncConnection.connect(f"{PG_SERVER}/{db}", autocommit=True) as conn,
    ):
        await log_in(organiser, password)
        run = Run(
            url, organiser, conn, args.engine, args.games, args.seats, args.stall_share, args.think
        )
        concurrency = args.games * args.seats
        print(
            f"baseline: GET /api/ping, {concurrency} concurrent clients, {args.baseline_seconds} s"
        )
        before, started = server.cpu_seconds(), time.perf_counter()
        ping = await baseline(url, concurrency, args.baseline_seconds)
        ping_cpu = cores_used(before, server.cpu_seconds(), time.perf_counter() - started)
        ping_rps = len(ping.action_ms) / args.baseline_seconds
        print(
            f"  {ping_rps:.0f} req/s, p50 {percentile(ping.action_ms, 50):.0f} ms, "
            f"p99 {percentile(ping.action_ms, 99):.0f} ms, {ping.transport_errors} resent; "
            f"CPU cores used {ping_cpu}"
        )
        run.stall_time_control = await stall_time_control(run, args.stall_allowance)
        print(f"load: {args.games} games of {args.engine}, {args.seconds} s measured")
        with client_gc_paused():
            cpu = await load(run, args.warmup, args.seconds, server.cpu_seconds)
        await asyncio.sleep(0.5)
        late = await timer_lateness(run)
        figures = summary(args, ping_rps, run, late, cpu)
        return {
            **figures,
            "baseline_cpu_cores_used": ping_cpu,
            "budget_ms": budget(ping_rps, ping_cpu, figures["actions_per_s"], cpu),
        }


def budget(
    ping_rps: float, ping_cpu: dict[str, float], actions_per_s: float, cpu: dict[str, float]
) -> dict[str, float]:
    """What a ping and an action cost the machine (ms of CPU, the load client apart from the
    server: web, Celery, PostgreSQL, Redis), and the server's share of an action that would
    meet the ratio target. The client and the server share the cores, so with the machine busy
    in both phases the ratio is about (client + server per ping) / (client + server per action):
    the target leaves the server ``2 x ping - client per action``."""

    def per(cores: dict[str, float], rate: float, client: bool) -> float:
        parts = [v for k, v in cores.items() if (k == "load client") == client and k != "other"]
        return 1000 * sum(parts) / max(rate, 1e-9)

    ping = {"client": per(ping_cpu, ping_rps, True), "server": per(ping_cpu, ping_rps, False)}
    action = {"client": per(cpu, actions_per_s, True), "server": per(cpu, actions_per_s, False)}
    allowed = (ping["client"] + ping["server"]) / TARGETS["ratio_to_baseline"] - action["client"]
    return {
        "ping_client": round(ping["client"], 2),
        "ping_server": round(ping["server"], 2),
        "action_client": round(action["client"], 2),
        "action_server": round(action["server"], 2),
        "action_server_for_target": round(allowed, 2),
    }


@contextlib.contextmanager
def client_gc_paused() -> Iterator[None]:
    """No garbage collection in the load client while it measures: with 400 bots' streams and
    statistics on its heap, a full collection stalled its event loop for 100-180 ms every few
    seconds, and every response arriving meanwhile was timed that much late (the p99 of paced
    runs fell from 103-165 ms to 83-95 ms). The server's processes collect as usual."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def cores_used(before: dict[str, float], after: dict[str, float], seconds: float) -> dict:
    """Cores each part used between two ``Server.cpu_seconds`` readings; ``other`` is the rest
    of the machine (other sessions; postgres counts every database's sessions, too)."""
    used = {name: (after[name] - before[name]) / seconds for name in before}
    used["other"] = used.pop("machine") - sum(used.values())
    return {name: round(cores, 2) for name, cores in used.items()}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--engine", default="high_card", help="any registered engine key")
    parser.add_argument("--seats", type=int, default=2, help="seats per game (all bots)")
    parser.add_argument("--seconds", type=float, default=60, help="measured load")
    parser.add_argument("--warmup", type=float, default=5, help="load before measuring")
    parser.add_argument("--baseline-seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--celery-concurrency", type=int, help="default: the settings' (4)")
    parser.add_argument(
        "--celery-pool", help="prefork, threads or solo; default: the settings' (threads)"
    )
    parser.add_argument("--stall-share", type=float, default=0.2, help="games with a stalling seat")
    parser.add_argument("--stall-allowance", type=float, default=1.0, help="their clock, seconds")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a bot waits before acting (uniform 0.5x-1.5x); 0 acts at once",
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--stock-uvicorn", action="store_true", help="the plain uvicorn CLI (no TCP_NODELAY)"
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="cProfile the web server (one process): event loop into FILE, Django into FILE.sync",
    )
    parser.add_argument("--serve-web", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if args.serve_web:  # the web server child process
        serve_web(args.port, args.workers, args.profile)
        return 0
    db = f"bench_{datetime.now():%Y%m%d_%H%M%S}"
    url = f"http://127.0.0.1:{args.port}"
    password = secrets.token_urlsafe(16)
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG_SERVER}/{db}",
        "REDIS_URL": REDIS_URL,
        "EXTRA_ENGINES": EXTRA_ENGINES,
        # Every bot comes from this one address: rates far above the load, still counted.
        "THROTTLE_RATES": os.environ.get("THROTTLE_RATES", BENCH_THROTTLE_RATES),
        "DEBUG": "0",  # DEBUG keeps every SQL query in memory: not what production runs
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "hosting.settings",
        "PYTHONPATH": str(ROOT),  # uvicorn's spawned workers import hosting from here
    }
    redis.Redis.from_url(REDIS_URL).flushdb()
    create_database(db)
    server = Server(env, url)
    try:
        print(f"setup: database {db}, Redis {REDIS_URL}, migrating")
        prepare_django(env, password)
        scratch = Path(tempfile.mkdtemp(prefix="live-load-"))
        print(f"server logs: {scratch}")
        server.start(args, scratch)
        try:
            server.wait_healthy()
            print(f"server: uvicorn x{args.workers}, celery worker and beat at {url}")
            figures = asyncio.run(measure(args, url, password, server, db))
        finally:
            server.stop()
    finally:
        drop_database(db)
        redis.Redis.from_url(REDIS_URL).flushdb()
    print_summary(figures)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
