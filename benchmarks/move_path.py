"""Server CPU of one live move through the ASGI application, each part of the move path
before and after issue 31, interleaved in one process so that the machine's load falls on
every variant alike.

    .venv/bin/python benchmarks/move_path.py [--moves 150] [--blocks 5] [--redis URL]

It migrates a scratch database, starts 2-seat Color Clash games, and posts moves to
``POST /api/games/<id>/actions`` by calling ``hosting.asgi.application`` directly (no
sockets, no uvicorn: what is left is the request's own path, from the ASGI scope to the
response, with its throttle, transaction, publish and scheduling). For each move it counts
the CPU of this process (event loop and sync thread) and of the PostgreSQL backend serving
it, around the POST only (the GET of the legal actions that picks the move is not counted).
Variants, switched in the running process, each measured in ``--blocks`` blocks of
``--moves`` moves, in rotating order:

- before: Django's ASGI ``handle`` (three thread hops), the throttle's pipeline on a new
  ``redis.Redis`` per request, ``conn_health_checks`` on, BEGIN and COMMIT round trips;
- after: all four of issue 31's changes;
- after but one part as before: what that part alone saves (``--only PART``: just after
  and this one, for more blocks in the same time).

Prints median CPU per move (web and PostgreSQL) and wall time of the POST per variant, and
the load average. Redis's
and Celery's CPU are not counted here (live_load.py counts them).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import time
from datetime import datetime

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"
PARTS = ("hops", "throttle", "health_check", "transaction")


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150, help="moves per block")
    parser.add_argument("--blocks", type=int, default=5, help="blocks per variant")
    parser.add_argument(
        "--only", choices=PARTS, help="measure only: after, and after with this part as before"
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6", help="flushed at the end")
    args = parser.parse_args()
    db = f"bench_move_{datetime.now():%Y%m%d_%H%M%S}"
    os.environ.update(
        DATABASE_URL=f"{PG}/{db}",
        REDIS_URL=args.redis,
        DEBUG="0",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="hosting.settings",
        THROTTLE_RATES="action.client=100000000/m,action.account=100000000/m",
    )
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db}"')
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
        )
        return asyncio.run(measure(args))
    finally:
        import redis

        redis.Redis.from_url(args.redis).flushdb()
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


async def measure(args: argparse.Namespace) -> int:
    import django

    django.setup()
    from asgiref.sync import sync_to_async
    from django.core.handlers.asgi import ASGIHandler
    from django.db import connections, transaction

    from games import services, store
    from games.invites import invite_for
    from games.services import SeatSpec
    from hosting import asgi
    from hosting.core import throttles
    from hosting.core.identity import Guest

    app = asgi.application
    new_hit, new_move_transaction = throttles._hit, store.move_transaction

    def old_hit(keys: list[tuple[str, int]]) -> list[int]:
        from django.core.cache import caches

        cache = caches["default"]
        made = [(cache.make_and_validate_key(key), period) for key, period in keys]
        pipe = cache._cache.get_client(made[0][0], write=True).pipeline(transaction=False)
        for key, period in made:
            pipe.set(key, 0, ex=period + 1, nx=True)
            pipe.incr(key)
        return pipe.execute()[1::2]

    def set_health_check(on: bool) -> None:
        connection = connections["default"]
        connection.settings_dict["CONN_HEALTH_CHECKS"] = on
        connection.health_check_enabled = on

    def setup() -> int:
        connection = connections["default"]
        connection.settings_dict["CONN_MAX_AGE"] = None  # one backend for the whole run
        connection.close()
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    def switch(old: set[str]) -> None:
        app.handle = (
            (lambda *a: ASGIHandler.handle(app, *a))
            if "hops" in old
            else asgi.SharedThreadASGIHandler.handle.__get__(app)
        )
        throttles._hit = old_hit if "throttle" in old else new_hit
        store.move_transaction = (
            transaction.atomic if "transaction" in old else new_move_transaction
        )

    def new_game() -> tuple[int, list[str]]:
        game = services.game_create(
            engine_key="color_clash",
            seats=[SeatSpec(), SeatSpec()],
            config={"mode": "classic", "match": "one_round"},
        )
        tokens = []
        for number in range(2):
            guest = Guest(id=f"bench-{game.pk}-{number}", name=f"Player {number}")
            claim = services.seat_claim(
                game_id=game.pk, number=number, guest=guest, invite=invite_for(game)
            )
            tokens.append(claim.token)
        services.game_start(by=None, game_id=game.pk)
        return game.pk, tokens

    async def call(method: str, path: str, token: str, body: bytes = b"") -> tuple[int, bytes]:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"127.0.0.1"),
                (b"authorization", f"Seat {token}".encode()),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        sent = [{"type": "http.request", "body": body, "more_body": False}]
        done = asyncio.Event()
        status, chunks = 0, []

        async def receive() -> dict:
            if sent:
                return sent.pop()
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    done.set()

        await app(scope, receive, send)
        return status, b"".join(chunks)

    games: list[tuple[int, list[str]]] = []

    async def next_move() -> tuple[str, str, bytes]:
        while True:
            if len(games) < 4:
                games.append(await sync_to_async(new_game)())
            for index, (game_id, tokens) in enumerate(games):
                for token in tokens:
                    status, body = await call("GET", f"/api/games/{game_id}/legal", token)
                    legal = json.loads(body).get("actions", []) if status == 200 else []
                    if legal:
                        action = legal[int(time.time() * 1000) % len(legal)]
                        payload = json.dumps({"action": action}).encode()
                        return f"/api/games/{game_id}/actions", token, payload
                games.pop(index)  # over, or waiting on a timer: another game instead
                break

    pg_pid = await sync_to_async(setup)()
    import redis

    # Redis runs on this machine: its server's CPU per move is read like PostgreSQL's.
    redis_pid = int(redis.Redis.from_url(args.redis).info("server")["process_id"])
    variants = {"before": set(PARTS), "after": set()}
    variants |= {f"after, {part} as before": {part} for part in PARTS}
    if args.only:
        variants = {"after": set(), f"after, {args.only} as before": {args.only}}
    found: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
    walls: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    switch(set())
    for _ in range(20):  # warm up: connections, the script, the engine's modules
        path, token, body = await next_move()
        await call("POST", path, token, body)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for block in range(args.blocks):
        for name in names[block % len(names) :] + names[: block % len(names)]:
            switch(variants[name])
            await sync_to_async(set_health_check)("health_check" in variants[name])
            web = pg = rd = wall = 0.0
            for _ in range(args.moves):
                path, token, body = await next_move()
                pg_before, rd_before = proc_cpu(pg_pid), proc_cpu(redis_pid)
                started, clock = time.process_time(), time.perf_counter()
                status, answer = await call("POST", path, token, body)
                web += time.process_time() - started
                wall += time.perf_counter() - clock
                pg += proc_cpu(pg_pid) - pg_before
                rd += proc_cpu(redis_pid) - rd_before
                if status not in (200, 409):
                    raise SystemExit(f"{name}: {status} {answer[:200]!r}")
            found[name].append(
                (web / args.moves * 1000, pg / args.moves * 1000, rd / args.moves * 1000)
            )
            walls[name].append(wall / args.moves * 1000)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    base = statistics.median(sum(parts) for parts in found[names[0]])
    print(f"{args.blocks} blocks of {args.moves} moves per variant; CPU ms per move, median")
    results = {}
    for name, blocks in found.items():
        web = statistics.median(w for w, _, _ in blocks)
        pg = statistics.median(p for _, p, _ in blocks)
        rd = statistics.median(r for _, _, r in blocks)
        total = statistics.median(sum(parts) for parts in blocks)
        wall = statistics.median(walls[name])
        results[name] = {
            "wall_ms": round(wall, 3),
            "web_ms": round(web, 3),
            "postgres_ms": round(pg, 3),
            "redis_ms": round(rd, 3),
            "total_ms": round(total, 3),
        }
        change = total / base - 1
        print(
            f"  {name:<38} web {web:6.3f}  postgres {pg:6.3f}  redis {rd:6.3f}"
            f"  total {total:6.3f}  ({change:+.0%})"
        )
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
