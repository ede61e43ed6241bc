"""Casual load benchmark: N concurrent guests, each in a practice game against computers,
over HTTP + SSE, as the casual pages play it.

One command sets up and tears down what it uses, with ``live_load``'s machinery
(``benchmarks/loadkit/``): a fresh PostgreSQL database, a Redis database number, uvicorn
(2 processes), a Celery worker and beat.
Each guest is its own HTTP client with its own session: it starts a practice game
(``POST /api/rooms/practice``, a guest identity made on the way), follows its seat's SSE
stream, and whenever it may move thinks 1 to 3 s (``--think``) and posts one of its legal
moves, as the board would (a Wild's colour, "Last card!" before the next-to-last card, a card
that fits, else draw, else pass). The computers are moved by Celery after their pause (fixed at
``--bot-delay`` so that their lateness can be timed). A finished game is followed by another
round of the same room (``POST /api/rooms/<code>/start``). Prints a summary and, last, one
JSON line with every figure.

    /work/main/.venv/bin/python benchmarks/casual_load.py --guests 500

Measured, over ``--seconds`` once every guest plays:
- action latency: request to response of the guests' ``POST /api/games/<id>/actions``;
- SSE delivery: for a guest's move, its response to the arrival of that version on its stream
  (negative: the stream came first); for a computer's move, the move's commit (the log's
  timestamp) to its arrival on the guest's stream;
- bot-move lateness: a computer's move applied (the log's timestamp) minus when it was due, the
  commit that made it the computer's turn plus the pause;
- errors: 5xx answers, refusals other than a stale version (409), transport failures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from loadkit.client import new_client, sse_payloads
from loadkit.database import create_database, drop_database
from loadkit.figures import percentile
from loadkit.server import PG_SERVER, ROOT, Server, cores_used

TARGETS = {"guests": 500, "action_p99_ms": 150.0, "errors": 0}
SCOPES = ("create", "claim", "action", "room_create", "room_join", "quick", "room_code")
# Every guest comes from this one address: rates far above the load, still counted.
BENCH_THROTTLE_RATES = ",".join(
    f"{scope}.{who}=100000000/m" for scope in SCOPES for who in ("client", "account")
)


LIVE = ("running", "waiting")  # the statuses a guest follows a game through


@dataclass
class Stats:
    action_ms: list[float] = field(default_factory=list)
    own_delivery_ms: list[float] = field(default_factory=list)
    # (game, version) -> wall time of the first arrival on the guest's stream
    arrivals: dict[tuple[int, int], float] = field(default_factory=dict)
    pending: list[tuple[int, int, float]] = field(default_factory=list)  # own moves to match
    games: set[int] = field(default_factory=set)
    playing: int = 0
    started: int = 0
    finished: int = 0
    stale: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class Load:
    url: str
    think: tuple[float, float]
    computers: int
    stats: Stats = field(default_factory=Stats)
    window: tuple[float, float] = (float("inf"), float("inf"))
    stopping: bool = False

    def measuring(self) -> bool:
        return self.window[0] <= time.perf_counter() < self.window[1]

    def error(self, what: str) -> None:
        if self.measuring() or self.window[0] == float("inf"):
            self.stats.errors.append(what)


def choose(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The move the page's player would make, from the seat's own legal list."""
    legal = payload.get("legal") or []
    hand = payload.get("view", {}).get("hand", [])
    kinds = {a["type"]: a for a in legal}
    plays = [a for a in legal if a["type"] == "play"]
    if "choose_color" in kinds:
        return kinds["choose_color"]
    if "call_last_card" in kinds and ((len(hand) == 2 and plays) or payload["view"]["window"]):
        return kinds["call_last_card"]
    if plays:
        return random.choice(plays)
    for kind in ("draw", "pass"):
        if kind in kinds:
            return kinds[kind]
    return None  # only a Catch: a person lets most of those go


@dataclass
class Guest:
    load: Load
    client: httpx.AsyncClient
    code: str = ""
    game: int = 0
    latest: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    moves: int = 0

    def headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.client.cookies.get("csrftoken", "")}

    async def begin(self) -> None:
        await self.client.get("/play/")  # the CSRF cookie, as a browser would have it
        response = await self.client.post(
            "/api/rooms/practice", json={"computers": self.load.computers}, headers=self.headers()
        )
        if response.status_code != 201:
            raise SystemExit(f"practice refused: {response.status_code} {response.text[:200]}")
        body = response.json()
        self.code, self.game = body["code"], body["game"]

    async def again(self) -> None:
        """Another round of the same practice room."""
        try:
            response = await self.client.post(
                f"/api/rooms/{self.code}/start", headers=self.headers()
            )
        except httpx.TransportError as error:
            self.load.error(f"another round transport: {error!r}")
            return
        if response.status_code != 200:
            self.load.error(f"another round: {response.status_code} {response.text[:120]}")
            await asyncio.sleep(1)
            return
        self.game = response.json()["game"]

    async def follow(self) -> None:
        # A practice game first waits for its seed window ("waiting"), then runs: follow both.
        while not self.load.stopping and self.latest.get("status", "running") in LIVE:
            headers = {}
            if self.latest:
                headers["Last-Event-ID"] = str(self.latest["version"])
            timeout = httpx.Timeout(30.0, read=None)
            try:
                async with self.client.stream(
                    "GET", f"/live/games/{self.game}/", headers=headers, timeout=timeout
                ) as response:
                    if response.status_code != 200:
                        self.load.error(f"stream {response.status_code}")
                        await asyncio.sleep(1)
                        continue
                    async for payload in sse_payloads(response):
                        self.arrived(payload)
                        if payload["status"] not in LIVE or self.load.stopping:
                            return
            except httpx.TransportError as error:
                if not self.load.stopping:
                    self.load.error(f"stream dropped: {error!r}")

    def arrived(self, payload: dict[str, Any]) -> None:
        self.load.stats.arrivals.setdefault((self.game, payload["version"]), time.time())
        self.latest = payload
        self.changed.set()

    async def decide(self) -> None:
        while True:
            await self.changed.wait()
            self.changed.clear()
            if choose(self.latest) is None:
                continue
            await asyncio.sleep(random.uniform(*self.load.think))
            payload = self.latest  # what the page shows after thinking
            action = choose(payload)
            if action is None or payload.get("status") != "running":
                continue
            await self.act(action, payload["version"])

    async def act(self, action: dict[str, Any], version: int) -> None:
        self.moves += 1
        body = {
            "action": action,
            "expected_version": version,
            "client_action_id": f"{self.game}-{self.moves}",
        }
        started, measuring = time.perf_counter(), self.load.measuring()
        try:
            response = await self.client.post(
                f"/api/games/{self.game}/actions", json=body, headers=self.headers()
            )
        except httpx.TransportError as error:
            self.load.error(f"action transport: {error!r}")
            return
        answered = time.perf_counter()
        if response.status_code == 200:
            if measuring:
                self.load.stats.action_ms.append((answered - started) * 1000)
                accepted = response.json()["version"]
                self.load.stats.pending.append((self.game, accepted, time.time()))
        elif response.status_code == 409:
            self.load.stats.stale += 1  # a computer or the clock moved first: the page redraws
        elif response.status_code == 400 and "illegal" in response.text:
            self.load.stats.stale += 1  # the same, seen as a move no longer legal
        else:
            self.load.error(f"action {response.status_code}: {response.text[:120]}")


async def run_load(args: argparse.Namespace, url: str, db: str, server: Server) -> dict[str, Any]:
    load = Load(url=url, think=(args.think_min, args.think_max), computers=args.computers)
    clients = [new_client(url, cookies=True) for _ in range(args.guests)]
    guests = [Guest(load, client) for client in clients]
    gate = asyncio.Semaphore(args.ramp_concurrency)

    async def begin(guest: Guest) -> None:
        async with gate:
            await guest.begin()
        load.stats.started += 1

    async def guest_loop(guest: Guest) -> None:
        while not load.stopping:
            guest.latest = {}
            load.stats.games.add(guest.game)
            decide = asyncio.create_task(guest.decide())
            try:
                await guest.follow()
            finally:
                decide.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await decide
            if guest.latest.get("status") == "finished":
                load.stats.finished += 1
            if not load.stopping:
                await guest.again()

    # Every practice game first, then everyone plays: games made while others already play
    # would take minutes on a saturated machine (their clocks run meanwhile: a turn that
    # waits is drawn for by the timer, as for a person who idles).
    ramp = time.perf_counter()
    await asyncio.gather(*(begin(guest) for guest in guests))
    print(f"  {args.guests} practice games made in {time.perf_counter() - ramp:.1f} s")
    tasks = [asyncio.create_task(guest_loop(guest)) for guest in guests]
    await asyncio.sleep(args.warmup)
    before = server.cpu_seconds()
    begin = time.perf_counter()
    wall_begin = time.time()
    load.window = (begin, begin + args.seconds)
    while time.perf_counter() < load.window[1]:
        await asyncio.sleep(min(5.0, load.window[1] - time.perf_counter()))
        done, elapsed = len(load.stats.action_ms), time.perf_counter() - begin
        print(
            f"  {elapsed:5.1f} s: {done} guest moves ({done / elapsed:.0f}/s), "
            f"p99 {percentile(load.stats.action_ms, 99):.0f} ms, "
            f"{load.stats.finished} games finished, {len(load.stats.errors)} errors"
        )
    wall_end = time.time()
    cores = cores_used(before, server.cpu_seconds(), args.seconds)
    load.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(client.aclose() for client in clients), return_exceptions=True)

    stats = load.stats
    own = []
    for game, version, answered in stats.pending:
        arrived = stats.arrivals.get((game, version))
        if arrived is not None:
            own.append((arrived - answered) * 1000)
    bot_late, bot_delivery, bot_moves = await bot_figures(db, load, wall_begin, wall_end, args)
    return {
        "guests": args.guests,
        "computers_per_game": args.computers,
        "think_seconds": [args.think_min, args.think_max],
        "bot_delay_seconds": args.bot_delay,
        "seconds": args.seconds,
        "web_workers": args.workers,
        "guest_moves": len(stats.action_ms),
        "guest_moves_per_s": round(len(stats.action_ms) / args.seconds, 1),
        "bot_moves": bot_moves,
        "bot_moves_per_s": round(bot_moves / args.seconds, 1),
        "games_finished": stats.finished,
        "action_p50_ms": round(percentile(stats.action_ms, 50), 1),
        "action_p99_ms": round(percentile(stats.action_ms, 99), 1),
        "sse_own_move_p99_ms": round(percentile(own, 99), 1),
        "sse_bot_move_p50_ms": round(percentile(bot_delivery, 50), 1),
        "sse_bot_move_p99_ms": round(percentile(bot_delivery, 99), 1),
        "bot_lateness_p50_ms": round(percentile(bot_late, 50), 1),
        "bot_lateness_p99_ms": round(percentile(bot_late, 99), 1),
        "stale_refusals": stats.stale,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "cores": cores,
        "targets": TARGETS,
    }


async def bot_figures(
    db: str, load: Load, begin: float, end: float, args: argparse.Namespace
) -> tuple[list[float], list[float], int]:
    """Each computer move in the window: how late it was applied after the commit that made it
    due plus the fixed pause, and how long after it the guest's stream carried it."""
    query = """
        SELECT e.game_id, e.seq, extract(epoch FROM e.at), extract(epoch FROM p.at)
        FROM games_gameevent e
        JOIN games_gameevent p ON p.game_id = e.game_id AND p.seq = e.seq - 1
        WHERE e.client_action_id LIKE 'bot-%%'
          AND e.at >= to_timestamp(%s) AND e.at < to_timestamp(%s)
    """
    async with await psycopg.AsyncConnection.connect(f"{PG_SERVER}/{db}") as conn:
        cursor = await conn.execute(query, (begin, end))
        rows = await cursor.fetchall()
    late, delivery = [], []
    for game, seq, at, previous in rows:
        late.append((float(at) - float(previous) - args.bot_delay) * 1000)
        arrived = load.stats.arrivals.get((game, seq))
        if arrived is not None:
            delivery.append((arrived - float(at)) * 1000)
    return late, delivery, len(rows)


def print_summary(figures: dict[str, Any]) -> None:
    print(
        f"\n{figures['guests']} guests, each against {figures['computers_per_game']} computers, "
        f"{figures['seconds']} s measured"
    )
    print(
        f"  guest moves: {figures['guest_moves']} ({figures['guest_moves_per_s']}/s); "
        f"computer moves: {figures['bot_moves']} ({figures['bot_moves_per_s']}/s); "
        f"games finished: {figures['games_finished']}"
    )
    print(
        f"  action latency p50 {figures['action_p50_ms']} ms, p99 {figures['action_p99_ms']} ms "
        f"(target < {TARGETS['action_p99_ms']:.0f})"
    )
    print(
        f"  SSE delivery p99: own move {figures['sse_own_move_p99_ms']} ms, "
        f"computer move {figures['sse_bot_move_p99_ms']} ms"
    )
    print(
        f"  computer-move lateness p50 {figures['bot_lateness_p50_ms']} ms, "
        f"p99 {figures['bot_lateness_p99_ms']} ms"
    )
    print(
        f"  errors: {figures['errors']} {figures['error_samples']}; "
        f"stale: {figures['stale_refusals']}"
    )
    print(f"  cores used: {figures['cores']}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guests", type=int, default=500)
    parser.add_argument("--computers", type=int, default=3, help="computers per practice game")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the computers' pause, s")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--celery-concurrency", type=int, help="default: the settings' (4)")
    parser.add_argument("--ramp-concurrency", type=int, default=20)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
    )
    args = parser.parse_args()
    # What loadkit's Server reads.
    args.profile = None
    args.stock_uvicorn = False
    args.celery_pool = None
    return args


def main() -> int:
    args = parse_args()
    db = f"bench_casual_{datetime.now():%Y%m%d_%H%M%S}"
    url = f"http://127.0.0.1:{args.port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG_SERVER}/{db}",
        "REDIS_URL": args.redis,
        "THROTTLE_RATES": os.environ.get("THROTTLE_RATES", BENCH_THROTTLE_RATES),
        # Every stream comes from this one address: caps far above the load, still counted.
        "LIVE_STREAMS_PER_CLIENT": os.environ.get("LIVE_STREAMS_PER_CLIENT", "100000"),
        "LIVE_STREAMS_PER_SESSION": os.environ.get("LIVE_STREAMS_PER_SESSION", "100000"),
        "BOT_DELAY_SECONDS": f"{args.bot_delay},{args.bot_delay}",
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "hosting.settings",
        "PYTHONPATH": str(ROOT),
    }
    redis.Redis.from_url(args.redis).flushdb()
    create_database(db)
    server = Server(env, url)
    try:
        print(f"setup: database {db}, Redis {args.redis}, migrating")
        manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(manage, cwd=ROOT, env=env, check=True)
        scratch = Path(tempfile.mkdtemp(prefix="casual-load-"))
        print(f"server logs: {scratch}")
        server.start(args, scratch)
        try:
            server.wait_healthy()
            print(f"server: uvicorn x{args.workers}, celery worker and beat at {url}")
            figures = asyncio.run(run_load(args, url, db, server))
        finally:
            server.stop()
    finally:
        drop_database(db)
        redis.Redis.from_url(args.redis).flushdb()
    print_summary(figures)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
