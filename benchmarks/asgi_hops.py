"""CPU of a request through ``hosting.asgi.application`` with Django's ASGI ``handle`` (three
hops to the sync thread) against the project's (one hop), interleaved in one process.

    DATABASE_URL=... REDIS_URL=... .venv/bin/python benchmarks/asgi_hops.py [--requests 400]

``GET /api/ping`` (DRF's whole request path, no database) is called by the application
directly, without sockets, in ``--blocks`` blocks per handler in alternating order; prints the
median CPU of this process per request (event loop and sync thread) and the load average.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import asyncio
import os
import statistics
import time


async def measure(requests: int, blocks: int) -> None:
    import django

    django.setup()
    from django.core.handlers.asgi import ASGIHandler

    from hosting import asgi

    app = asgi.application
    handlers = {
        "Django's handle": lambda *a: ASGIHandler.handle(app, *a),
        "one hop": asgi.SharedThreadASGIHandler.handle.__get__(app),
    }

    async def ping() -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/api/ping",
            "raw_path": b"/api/ping",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        messages = [{"type": "http.request", "body": b"", "more_body": False}]
        done = asyncio.Event()

        async def receive() -> dict:
            if messages:
                return messages.pop()
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body"):
                done.set()

        await app(scope, receive, send)

    found: dict[str, list[float]] = {name: [] for name in handlers}
    for name in handlers:  # warm up
        app.handle = handlers[name]
        for _ in range(50):
            await ping()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for block in range(blocks):
        for name in list(handlers)[:: 1 if block % 2 == 0 else -1]:
            app.handle = handlers[name]
            started = time.process_time()
            for _ in range(requests):
                await ping()
            found[name].append((time.process_time() - started) / requests * 1e6)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    before, after = (statistics.median(found[name]) for name in handlers)
    for name, blocks_found in found.items():
        print(f"  {name:<16} {statistics.median(blocks_found):7.1f} us CPU per request (median)")
    print(f"saved: {1 - after / before:.0%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per block")
    parser.add_argument("--blocks", type=int, default=10, help="blocks per handler")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    asyncio.run(measure(args.requests, args.blocks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
