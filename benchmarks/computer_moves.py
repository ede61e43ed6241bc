"""Celery worker CPU per computer move, this tree against another, interleaved (issue 31).

    .venv/bin/python benchmarks/computer_moves.py [--games 100] [--seconds 30] [--rounds 2]
        [--before /path/to/a/worktree/of/main] [--redis redis://127.0.0.1:6379/6]

Migrates a scratch database and fills it with ``--games`` 2-seat Color Clash games whose
seats are both computers (so the only work is the computers': each move schedules the next),
with ``BOT_DELAY_SECONDS`` 0.2-0.6. For each round and each tree (this one, then
``--before``'s, alternating) it starts a Celery worker (4 threads) and beat from that tree on
the same database and Redis database, waits ``--warmup`` seconds, then counts for
``--seconds`` the computer moves made (``GameEvent`` rows) and the CPU of the worker's and
beat's process groups, PostgreSQL's backends and Redis; it stops them before the next. Games
that finish are replaced by new ones between rounds. Prints CPU per computer move per tree
and round, and the load average.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants still alive."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[2]) == pid or int(entry.name) == pid or int(stat[3]) == pid:  # pgid
            total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return total


def named_cpu(name: str) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if comm.startswith(name):
            total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return total


def make_games(db: str, count: int, env: dict[str, str]) -> None:
    code = f"""
import django; django.setup()
from games import services
from games.services import SeatSpec
for _ in range({count}):
    game = services.game_create(engine_key="color_clash",
        seats=[SeatSpec(kind="computer"), SeatSpec(kind="computer")],
        config={{"mode": "classic", "match": "one_round"}})
    services.game_start(by=None, game_id=game.pk)
"""
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)


def moves(conn: psycopg.Connection) -> int:
    return conn.execute("SELECT count(*) FROM games_gameevent WHERE seat IS NOT NULL").fetchone()[0]


def running(conn: psycopg.Connection) -> int:
    return conn.execute("SELECT count(*) FROM games_gamesession WHERE status='running'").fetchone()[
        0
    ]


def measure(tree: Path, args, env, conn, db) -> dict:
    python = str(tree / ".venv/bin/python")
    scratch = Path(f"/tmp/computer-moves-{db}")
    scratch.mkdir(exist_ok=True)
    procs = []
    celery = [python, "-m", "celery", "-A", "hosting"]
    for command in (
        [*celery, "worker", "--loglevel=WARNING"],
        [*celery, "beat", "--loglevel=WARNING", f"--schedule={scratch / 'beat'}"],
    ):
        log = (scratch / f"{command[5]}-{tree.name}.log").open("a")
        procs.append(
            subprocess.Popen(
                command, cwd=tree, env=env, stdout=log, stderr=log, start_new_session=True
            )
        )
    try:
        time.sleep(args.warmup)
        before_cpu = [tree_cpu(p.pid) for p in procs]
        before_pg, before_redis = named_cpu("postgres"), named_cpu("redis-server")
        before_moves, load_before, started = moves(conn), os.getloadavg()[0], time.perf_counter()
        time.sleep(args.seconds)
        elapsed = time.perf_counter() - started
        made = moves(conn) - before_moves
        worker, beat = (tree_cpu(p.pid) - b for p, b in zip(procs, before_cpu, strict=True))
        pg, rds = named_cpu("postgres") - before_pg, named_cpu("redis-server") - before_redis
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    return {
        "tree": str(tree),
        "moves_per_s": round(made / elapsed, 1),
        "worker_ms": round(worker / made * 1000, 2),
        "beat_ms": round(beat / made * 1000, 2),
        "postgres_ms": round(pg / made * 1000, 2),
        "redis_ms": round(rds / made * 1000, 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--before", type=Path, help="another tree (e.g. a worktree of main)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6", help="flushed")
    args = parser.parse_args()
    db = f"bench_bots_{datetime.now():%Y%m%d_%H%M%S}"
    env = dict(
        os.environ,
        DATABASE_URL=f"{PG}/{db}",
        REDIS_URL=args.redis,
        DEBUG="0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="hosting.settings",
        BOT_DELAY_SECONDS="0.2,0.6",
    )
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{db}"')
    trees = [ROOT, *([args.before.resolve()] if args.before else [])]
    rows = []
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        with psycopg.connect(f"{PG}/{db}", autocommit=True) as conn:
            for round_ in range(args.rounds):
                order = trees if round_ % 2 == 0 else trees[::-1]
                for tree in order:
                    missing = args.games - running(conn)
                    if missing > 0:
                        make_games(db, missing, env)
                    row = measure(tree, args, env, conn, db)
                    rows.append(row)
                    print(row, flush=True)
    finally:
        redis.Redis.from_url(args.redis).flushdb()
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    for tree in trees:
        mine = [r for r in rows if r["tree"] == str(tree)]
        total = [r["worker_ms"] + r["beat_ms"] + r["postgres_ms"] + r["redis_ms"] for r in mine]
        print(
            f"{tree}: worker {statistics.median(r['worker_ms'] for r in mine):.2f} ms per "
            f"computer move, with beat, PostgreSQL and Redis {statistics.median(total):.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
