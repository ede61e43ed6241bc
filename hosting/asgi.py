"""ASGI entry point: live updates are Server-Sent Events, which need an async server.

Django's stock ASGI handler gives every request its own thread for sync code, and database
connections belong to a thread: each API request then opens a new PostgreSQL connection (a
server process fork) and each open SSE stream holds one for its whole life, so a few hundred
live seats exhaust ``max_connections`` (Django ticket #33497). Here each web process runs its
sync code on one shared thread instead, which keeps one persistent connection per process. The
GIL allowed only one thread of Python at a time anyway; every write path is a short
transaction, so no request waits long behind another. Scale with more processes.
"""

import os

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")


class SharedThreadASGIHandler(ASGIHandler):
    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # No ThreadSensitiveContext: sync_to_async(thread_sensitive=True) then uses the
        # process's single sync thread (and its one database connection).
        await self.handle(scope, receive, send)


get_asgi_application()  # sets Django up
application = SharedThreadASGIHandler()
