"""Pub/sub CPU of each web process with 1, 2 and 4 processes and the same games (issue 31).

    .venv/bin/python benchmarks/fanout.py [--games 500] [--processes 1,2,4] [--seconds 20]
        [--rate 250] [--placement random|by-game] [--code after|before] [--spectators 1]

Starts ``--processes`` subscriber processes that each run ``hosting.core.broadcast`` in an
event loop (uvloop), as a uvicorn worker does, with the live streams of ``--games`` games
spread over them: each game has two seat streams and ``--spectators`` spectator streams;
``random`` places each stream on any process (what SO_REUSEPORT does to connections),
``by-game`` puts a game's streams on one process (a proxy routing by game). Each stream
runs what ``games.live``'s stream does with an update (``_newest``, the version check, the SSE
message for its audience) and counts it; the socket write is not included. This process then
publishes ``--rate`` updates per second (three audiences of ~1.5 KB each, as a 2-seat Color
Clash commit does) round-robin over the games for ``--seconds``, and reads each subscriber's
CPU time before and after.

``--code before`` loads ``hosting/core/broadcast.py`` as it is at ``--rev`` (default
``main``: one pattern subscription per process for every game) instead of the working tree's.
Game ids start at 1,000,000 so that a test run on the same Redis database does not collide.
Prints one table row per process count and, last, a JSON line.

``--micro``: the CPU of the web process's event loop thread per update read (4.5 KB, 2,000
published from another process), through ``redis.asyncio``'s ``PubSub`` (``parse_response``
and ``listen()``) and through ``hosting.core.redis_subscriber``, interleaved ``--rounds``
times; medians.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's modules are imported inside the functions

FIRST_GAME = 1_000_000
AUDIENCES = ("0", "1", "spectator")


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_broadcast(code: str, rev: str):
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
    django.setup()
    if code == "after":
        from hosting.core import broadcast

        return broadcast
    source = subprocess.run(
        ["git", "show", f"{rev}:hosting/core/broadcast.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(f"/tmp/broadcast_{rev.replace('/', '_')}.py")
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("broadcast_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["broadcast_before"] = module
    spec.loader.exec_module(module)
    return module


async def subscriber(streams: list[tuple[int, str]], code: str, rev: str) -> None:
    """One web process: its streams, until stdin closes; then prints what it delivered."""
    broadcast = load_broadcast(code, rev)
    delivered = 0
    sent_bytes = 0

    async def stream(game_id: int, audience: str) -> None:
        nonlocal delivered, sent_bytes
        updates = await broadcast.subscribe(game_id)
        sent = -1
        try:
            while True:
                items = [await updates.get()]
                while not updates.empty():
                    items.append(updates.get_nowait())
                update = max(items, key=lambda item: item.version)
                if audience not in update.parts or update.version <= sent:
                    continue
                sent = update.version
                message = f"id: {update.version}\nevent: state\ndata: {update.parts[audience]}\n\n"
                sent_bytes += len(message.encode())
                delivered += 1
        finally:
            broadcast.unsubscribe(game_id, updates)

    tasks = [asyncio.create_task(stream(game, audience)) for game, audience in streams]
    await asyncio.sleep(0.5)
    for _ in range(200):  # every stream subscribed (the old code returns at once)
        if all(broadcast.hub.watched(game) for game, _ in streams):
            break
        await asyncio.sleep(0.05)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    print(json.dumps({"delivered": delivered, "bytes": sent_bytes}), flush=True)
    for task in tasks:
        task.cancel()


def payload(size: int, rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghij") for _ in range(size))


def run(args: argparse.Namespace, processes: int) -> dict:
    rng = random.Random(31)
    streams: list[list[tuple[int, str]]] = [[] for _ in range(processes)]
    games = [FIRST_GAME + n for n in range(args.games)]
    for game in games:
        home = rng.randrange(processes)
        for audience in (*AUDIENCES, *["spectator"] * (args.spectators - 1)):
            where = home if args.placement == "by-game" else rng.randrange(processes)
            streams[where].append((game, audience))
    env = dict(os.environ, REDIS_URL=args.redis)
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")  # never used
    children = []
    code_options = ("--code", args.code, "--rev", args.rev)
    for own in streams:
        child = subprocess.Popen(
            [sys.executable, __file__, "--subscriber", json.dumps(own), *code_options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            cwd=ROOT,
        )
        children.append(child)
    for child in children:
        assert child.stdout.readline().strip() == "ready"

    import redis

    client = redis.Redis.from_url(args.redis)
    namespace = f"db{args.redis.rsplit('/', 1)[1]}:"
    texts = {audience: payload(1500, rng) for audience in AUDIENCES}
    versions = dict.fromkeys(games, 0)
    load_before = os.getloadavg()[0]
    cpu_before = [proc_cpu(child.pid) for child in children]
    started = time.perf_counter()
    published = 0
    interval = 1 / args.rate
    while time.perf_counter() - started < args.seconds:
        game = games[published % len(games)]
        versions[game] += 1
        lines = [f"{versions[game]} 0", *(f"{a}\t{t}" for a, t in texts.items())]
        client.publish(f"{namespace}games:{game}", "\n".join(lines))
        published += 1
        pause = started + published * interval - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
    elapsed = time.perf_counter() - started
    time.sleep(0.5)  # the last messages reach the streams
    cpu = [proc_cpu(child.pid) - before for child, before in zip(children, cpu_before, strict=True)]
    load_after = os.getloadavg()[0]
    delivered = []
    for child in children:
        out, _ = child.communicate("", timeout=30)
        delivered.append(json.loads(out.strip().splitlines()[-1])["delivered"])
    per_process_cores = [c / elapsed for c in cpu]
    return {
        "processes": processes,
        "placement": args.placement,
        "code": args.code,
        "games": args.games,
        "published_per_s": round(published / elapsed, 1),
        "cores_per_process": [round(c, 4) for c in per_process_cores],
        "mean_cores_per_process": round(statistics.mean(per_process_cores), 4),
        "total_cores": round(sum(per_process_cores), 4),
        "delivered": sum(delivered),
        "expected": published * (len(AUDIENCES) - 1 + args.spectators),
        "us_per_delivered_message": round(sum(cpu) / max(sum(delivered), 1) * 1e6, 1),
        "load_average": [round(load_before, 2), round(load_after, 2)],
    }


def run_loop(coroutine):
    """On uvicorn's loop (uvloop) when installed, as the web processes run: the plain asyncio
    loop costs ~80 µs of CPU per wake-up on this machine where uvloop's costs ~36 µs."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


MICRO_CHANNEL = "bench:fanout-micro"


def micro_publisher(url: str, count: int) -> None:
    import redis

    client = redis.Redis.from_url(url)
    data = "1 0\n" + "\n".join(f"{a}\t" + "x" * 1500 for a in AUDIENCES)
    while not client.pubsub_numsub(MICRO_CHANNEL)[0][1]:
        time.sleep(0.01)
    for _ in range(count):
        client.publish(MICRO_CHANNEL, data)
        time.sleep(0.0005)
    client.publish(MICRO_CHANNEL, "END")


async def micro_read(url: str, how: str, count: int) -> float:
    """CPU of this thread per message read, with the publisher in another process."""
    publisher = subprocess.Popen(
        [sys.executable, __file__, "--micro-publish", str(count), "--redis", url], cwd=ROOT
    )
    got = 0
    started = None
    done = asyncio.get_running_loop().create_future()
    if how == "hand-written":
        from hosting.core.redis_subscriber import Subscriber

        def on_message(channel: bytes, data: bytes) -> None:
            nonlocal got, started
            if started is None:
                started = time.thread_time()
            if data == b"END":
                done.set_result(time.thread_time())
            else:
                got += 1

        connection = await Subscriber.connect(url, on_message, lambda channel: None)
        connection.subscribe(MICRO_CHANNEL)
        ended = await done
        connection.close()
    else:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url)
        pubsub = client.pubsub()
        await pubsub.subscribe(MICRO_CHANNEL)
        while True:
            if how == "redis-py listen":
                message = await pubsub.listen().__anext__()
                kind, data = message["type"], message["data"]
            else:
                reply = await pubsub.parse_response(block=True)
                kind, data = reply[0].decode(), reply[-1]
            if kind != "message":
                continue
            if started is None:
                started = time.thread_time()
            if data == b"END":
                ended = time.thread_time()
                break
            got += 1
        await pubsub.aclose()
        await client.aclose()
    publisher.wait()
    return (ended - started) / got * 1e6


def micro(args: argparse.Namespace) -> int:
    results: dict[str, list[float]] = {}
    hows = ("redis-py parse_response", "redis-py listen", "hand-written")
    load_before = os.getloadavg()[0]
    for round_ in range(args.rounds):
        for how in hows[round_ % 3 :] + hows[: round_ % 3]:
            results.setdefault(how, []).append(run_loop(micro_read(args.redis, how, 2000)))
    for how in hows:
        print(
            f"{how}: {statistics.median(results[how]):.1f} µs per update read "
            f"({', '.join(f'{v:.0f}' for v in results[how])})"
        )
    print(f"load average {load_before:.2f} -> {os.getloadavg()[0]:.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=250.0, help="publishes per second")
    parser.add_argument("--spectators", type=int, default=1, help="spectator streams per game")
    parser.add_argument("--placement", choices=("random", "by-game"), default="random")
    parser.add_argument("--code", choices=("after", "before"), default="after")
    parser.add_argument("--rev", default="main")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--micro", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--subscriber", help=argparse.SUPPRESS)
    parser.add_argument("--micro-publish", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.micro_publish:
        micro_publisher(args.redis, args.micro_publish)
        return 0
    if args.micro:
        return micro(args)
    if args.subscriber:
        streams = [tuple(pair) for pair in json.loads(args.subscriber)]
        run_loop(subscriber(streams, args.code, args.rev))
        return 0
    print("processes | placement | code | cores per process (mean) | total | µs per message")
    rows = []
    for processes in (int(n) for n in args.processes.split(",")):
        row = run(args, processes)
        rows.append(row)
        print(
            f"{processes} | {row['placement']} | {row['code']} | "
            f"{row['cores_per_process']} ({row['mean_cores_per_process']}) | "
            f"{row['total_cores']} | {row['us_per_delivered_message']} "
            f"(delivered {row['delivered']}/{row['expected']}; load {row['load_average']})",
            flush=True,
        )
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
