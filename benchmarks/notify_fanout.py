"""Notification fan-out: 1,000 players told of a round's pairings (issue 28).

Makes the players on a throwaway test database (PostgreSQL from ``DATABASE_URL``), starts a
real Celery worker on Redis (``REDIS_URL``; in a thread of this process, the suite's
``start_worker``) and listens on Redis pub/sub as every web process's live hub does
(``hosting.core.broadcast``: one pattern subscription). Then, per run:

- **enqueue**: ``notifications.fan_out`` sent to the broker (what a service does after its
  commit): the time until the call returns;
- **stored**: until the worker has inserted the 1,000 notices (one ``bulk_create``);
- **delivered on the site**: until the 1,000th live message (each player's unread count and
  newest notice, in their language) has reached the listening hub, i.e. every open page of
  every player would show it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> REDIS_URL=redis://127.0.0.1:6379/<n> \
        .venv/bin/python benchmarks/notify_fanout.py [--players 1000] [--runs 3]

Prints each run, the medians, the load average, and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        sys.exit("set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures the deployed path")
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from hosting.celery import app
    from hosting.core import broadcast
    from notifications import tasks
    from notifications.models import Kind, Notice
    from tests.games.hosting_helpers import celery_worker

    queue = f"bench-{os.getpid()}"
    app.conf.task_default_queue = queue
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    print(f"test database {name}; {args.players} players; Redis {settings.REDIS_URL}")
    try:
        users = get_user_model().objects
        users.bulk_create(
            [
                users.model(username=f"fan-{i}", email=f"fan-{i}@example.org")
                for i in range(args.players)
            ]
        )
        ids = list(users.filter(username__startswith="fan-").values_list("pk", flat=True))
        heard: list[float] = []
        listening = threading.Event()

        def listen() -> None:
            client = redis.Redis.from_url(settings.REDIS_URL)
            pubsub = client.pubsub()
            pubsub.psubscribe(f"{broadcast.namespace()}notifications:*")
            listening.set()
            for message in pubsub.listen():
                if message["type"] == "pmessage":
                    heard.append(time.perf_counter())

        threading.Thread(target=listen, daemon=True).start()
        listening.wait(5)
        runs = []
        # The suite's worker (tests/games/hosting_helpers): it closes its database sessions
        # before it stops, so that the test database can then be dropped.
        with celery_worker(queue):
            for run in range(args.runs):
                heard.clear()
                Notice.objects.all().delete()
                about = {
                    "key": f"round:{run}",
                    "label": f"Benchmark Swiss · round {run + 1}",
                    "url": "/tournaments/benchmark/",
                    "tournament_id": None,
                }
                start = time.perf_counter()
                tasks.fan_out.delay(ids, Kind.PAIRINGS, about)
                enqueued = time.perf_counter() - start
                stored = delivered = None
                deadline = start + 120
                while time.perf_counter() < deadline and delivered is None:
                    if stored is None and Notice.objects.count() >= len(ids):
                        stored = time.perf_counter() - start
                    if len(heard) >= len(ids):
                        delivered = heard[len(ids) - 1] - start
                    time.sleep(0.005)
                runs.append(
                    {
                        "enqueue_ms": enqueued * 1000,
                        "stored_ms": (stored or 0) * 1000,
                        "delivered_ms": (delivered or float("nan")) * 1000,
                    }
                )
                print(
                    f"run {run + 1}: enqueue {enqueued * 1000:.1f} ms, stored "
                    f"{(stored or 0) * 1000:.0f} ms, delivered on the site "
                    f"{(delivered or float('nan')) * 1000:.0f} ms ({len(heard)} live messages)"
                )
        load = os.getloadavg()
        summary = {
            "players": len(ids),
            "runs": args.runs,
            **{k: statistics.median(r[k] for r in runs) for k in runs[0]},
            "loadavg": [round(x, 2) for x in load],
        }
        print(
            f"median: enqueue {summary['enqueue_ms']:.1f} ms, stored {summary['stored_ms']:.0f} ms,"
            f" delivered {summary['delivered_ms']:.0f} ms; load average "
            f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
        )
        print(json.dumps(summary))
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
