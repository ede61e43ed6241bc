"""ASGI entry point: live updates are Server-Sent Events, which need an async server.

Every view but the SSE stream is sync, and so is every middleware. Django's stock ASGI handler
runs them on per-request threads and hops between the event loop and that thread for each
middleware hook (a dozen round trips per request, each a thread wake-up and a GIL hand-over),
and database connections belong to a thread: each API request opened a new PostgreSQL
connection (a server process fork) and each open SSE stream held one for its whole life, so a
few hundred live seats exhausted ``max_connections`` (Django ticket #33497). This handler runs
the whole sync middleware chain and view in one hop on the process's single sync thread,
which keeps one persistent connection per process. The GIL allowed only one thread of Python
at a time anyway, and every write path is a short transaction: scale with more processes.
"""

import asyncio
import gc
import os
import sys

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix

from hosting.core.bind import refuse_debug_beyond_loopback, uvicorn_config, uvicorn_host
from hosting.core.proxies import configure_uvicorn

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hosting.settings")

# The sync thread gives up the GIL at every database round trip; when the answer comes back
# it waits for the event loop to hand the GIL back, up to the switch interval (5 ms by
# default) while the loop is busy writing streams: a dozen waits per move. 0.5 ms bounds that.
sys.setswitchinterval(0.0005)
LIVE_PREFIX = "/live/"


class SharedThreadASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # async views (the SSE stream) are adapted

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # No ThreadSensitiveContext: sync_to_async(thread_sensitive=True) then uses the
        # process's single sync thread (and its one database connection).
        try:
            await self.handle(scope, receive, send)
        except asyncio.CancelledError:
            # A stopping server cancels the live streams still open after its graceful timeout:
            # that is how a stream ends (the browser resumes elsewhere from Last-Event-ID), not
            # an error worth a traceback per stream on every Ctrl-C and deploy.
            if not scope["path"].startswith(LIVE_PREFIX):
                raise

    async def handle(self, scope, receive, send) -> None:
        """Every request but a live stream in one hop to the sync thread and back.

        Django's ``handle`` hops three times: the ``request_started`` signal's receivers
        (``close_old_connections``), the middleware and view, and ``response.close()`` (whose
        ``request_finished`` closes old connections again), each ~61 us of thread hand-over,
        future callbacks and loop wake-up (issue 31: 1.1 ms of the web's 5.6 ms per move).
        Here all three run in the one hop: a response that is not streamed is already bytes,
        so it can be closed before it is sent. Its disconnect listener is left out too: it
        could only cancel an async view, and these views are sync. Live streams, whose
        content is sent while they run, keep Django's path. Measured by
        ``benchmarks/asgi_hops.py`` (``GET /api/ping`` through the application, interleaved,
        load average 20): 953 us of CPU a request with Django's ``handle``, 836 us with this
        one, -12 %; at load average 3, 791 and 473 us, -40 %. A whole move
        (``benchmarks/move_path.py``, load average 5): 4.95 ms of web + PostgreSQL CPU with
        Django's ``handle``, 4.56 ms with this one (docs/benchmarks.md, "The move path")."""
        if scope["path"].startswith(LIVE_PREFIX):
            await super().handle(scope, receive, send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # request_finished: the content is already bytes
        return response

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


get_asgi_application()  # sets Django up
_uvicorn = uvicorn_config()
if _uvicorn is not None:
    _host = uvicorn_host(_uvicorn)
    if _host is not None:
        refuse_debug_beyond_loopback(_host, debug=settings.DEBUG)
    # Forwarded headers are believed from TRUSTED_PROXIES alone, not from uvicorn's default
    # (127.0.0.1) or its FORWARDED_ALLOW_IPS: one list decides whose request it is.
    configure_uvicorn(_uvicorn)
application = SharedThreadASGIHandler()
# Everything loaded so far lives as long as the process: out of the collector's way, so a full
# collection walks only what requests and streams create. Paced 200-game runs: action p99
# 74-87 ms over three runs with it, 84-112 ms over four without (docs/live-load.md).
gc.collect()
gc.freeze()
