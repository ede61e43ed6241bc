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

This file is the command (its options, the run from setup to summary); the parts it puts
together are in ``benchmarks/loadkit/``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import psycopg
import redis
from loadkit.bots import log_in, stall_time_control
from loadkit.client import new_client
from loadkit.database import create_database, drop_database, prepare_django
from loadkit.figures import budget, percentile, print_summary, summary, timer_lateness
from loadkit.phases import baseline, client_gc_paused, load
from loadkit.run import Run
from loadkit.server import PG_SERVER, ROOT, Server, cores_used, serve_web

REDIS_URL = "redis://127.0.0.1:6379/2"  # tests use /0; this benchmark flushes its own db only
EXTRA_ENGINES = "high_card=tests.games.engines.tiny"
BENCH_THROTTLE_RATES = ",".join(
    f"{scope}.{who}=100000000/m"
    for scope in ("create", "claim", "action")
    for who in ("client", "account")
)


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
        "--redis",
        default=os.environ.get("BENCH_REDIS_URL", REDIS_URL),
        help="a Redis database of its own: the run flushes it",
    )
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
        "REDIS_URL": args.redis,
        "EXTRA_ENGINES": EXTRA_ENGINES,
        # Every bot comes from this one address: rates far above the load, still counted.
        "THROTTLE_RATES": os.environ.get("THROTTLE_RATES", BENCH_THROTTLE_RATES),
        # Every stream comes from this one address: caps far above the load, still counted.
        "LIVE_STREAMS_PER_CLIENT": os.environ.get("LIVE_STREAMS_PER_CLIENT", "100000"),
        "LIVE_STREAMS_PER_SESSION": os.environ.get("LIVE_STREAMS_PER_SESSION", "100000"),
        "DEBUG": "0",  # DEBUG keeps every SQL query in memory: not what production runs
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "hosting.settings",
        "PYTHONPATH": str(ROOT),  # uvicorn's spawned workers import hosting from here
    }
    redis.Redis.from_url(args.redis).flushdb()
    create_database(db)
    server = Server(env, url)
    try:
        print(f"setup: database {db}, Redis {args.redis}, migrating")
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
        redis.Redis.from_url(args.redis).flushdb()
    print_summary(figures)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
