"""A request whose database went away under it (a restart, a failover, a terminated session)
answers 503 with ``Retry-After``, as a page or as JSON, never a 500: its transaction rolled
back, so nothing of it was written, and the next request reconnects.

DRF's views answer this themselves (``hosting.core.errors.exception_handler``); this middleware
covers every other view: the pages, the live streams' set-up, the health check's neighbours.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from hosting.core.errors import error_response, wants_json

logger = logging.getLogger(__name__)
DETAIL = "the database is unavailable for a moment; nothing was changed, try again"


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable during %s", request.path, exc_info=True)
        if wants_json(request):
            response = error_response(503, "unavailable", DETAIL)
        else:
            # No request context: the signed-in user would be one more database read.
            response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "1"
        return response
