"""The two kinds of error: a user error (4xx, readable) and a bug (logged, 500).

Every domain raises a ``UserError`` subclass (or an engine's ``IllegalAction``) for what the
person can fix; the DRF handler turns them into ``{"error": code, "detail": message}``.
Everything else under ``/api/`` and ``/live/`` answers the same shape too: DRF's own
exceptions through the same handler, unknown paths through ``unknown_endpoint`` (a route,
so DEBUG's HTML 404 page never answers them), and the ``handler4xx``/``handler500`` views
of ``hosting.urls`` for what Django itself refuses.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import ConfigError, IllegalAction
from hosting.core.parsers import PayloadTooLarge
from hosting.core.wording import say

JSON_PREFIXES = ("/api/", "/live/")
logger = logging.getLogger(__name__)


class UserError(Exception):
    """Something the user can fix: shown as is, with ``status`` and a stable ``code``.

    A pure layer's ``Message`` (often ``str(error)`` of the error it raised) is said in the
    language of the request now, so every page and answer that shows ``message`` shows it
    translated."""

    status = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        message = say(message)
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class NotFound(UserError):
    status = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Forbidden(UserError):
    status = status.HTTP_403_FORBIDDEN
    code = "permission_denied"  # DRF's code for the same refusal: one name for every 403


class Conflict(UserError):
    status = status.HTTP_409_CONFLICT
    code = "conflict"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, UserError):
        return Response({"error": exc.code, "detail": exc.message}, status=exc.status)
    if isinstance(exc, IllegalAction):
        # The refusal's code and params let a client say it in any language.
        body = {"error": "illegal_action", "detail": exc.reason, "refusal": exc.code}
        return Response({**body, "params": exc.params}, status=400)
    if isinstance(exc, ConfigError):
        return Response({"error": "invalid_config", "detail": say(str(exc))}, status=400)
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away under the request (a restart, a failover, a terminated
        # session): its transaction rolled back, so nothing of it was written, and the next
        # request reconnects. The same request sent again (with its client action id) is safe.
        logger.warning("database unavailable during %s", context.get("request"), exc_info=True)
        detail = "the database is unavailable for a moment; nothing was changed, try again"
        response = Response({"error": "unavailable", "detail": detail}, status=503)
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(
            _("the request body is larger than %(limit)s") % {"limit": _upload_limit()}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is not None and "error" not in (response.data or {}):
        code = getattr(exc, "default_code", "invalid")
        if isinstance(response.data, dict) and "detail" in response.data:
            response.data = {"error": code, "detail": response.data["detail"]}
        elif isinstance(response.data, list):  # a ValidationError about the whole body
            response.data = {"error": code, "detail": " ".join(map(str, response.data))}
        else:
            response.data = {"error": code, "detail": _("invalid input"), "fields": response.data}
    return response


def _upload_limit() -> str:
    return f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KB"


# -- answers outside DRF's views, for the paths whose clients expect JSON ----------------------


def error_response(status_code: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"error": code, "detail": detail}, status=status_code)


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(JSON_PREFIXES)


@csrf_exempt  # a POST to an unknown path is a 404, not a CSRF failure
def unknown_endpoint(request: HttpRequest) -> JsonResponse:
    """Every path under /api/ and /live/ that no endpoint matches."""
    detail = f"no endpoint at {request.path}"
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not unknown_endpoint:
            detail += f"; did you mean {request.path}/?"
    return error_response(404, "not_found", detail)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not wants_json(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        detail = f"the request body is larger than {_upload_limit()}"
        return error_response(413, "payload_too_large", detail)
    return error_response(400, "invalid", "bad request")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not wants_json(request):
        return defaults.permission_denied(request, exception)
    return error_response(403, "permission_denied", "you may not do this")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not wants_json(request):
        return defaults.page_not_found(request, exception)
    return error_response(404, "not_found", f"nothing at {request.path}")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if not wants_json(request):
        return csrf.csrf_failure(request, reason)
    return error_response(403, "permission_denied", f"CSRF check failed: {reason}")


def server_error(request: HttpRequest) -> HttpResponse:
    if not wants_json(request):
        return defaults.server_error(request)
    # The bug is in the log (django.request); the client learns only that it was ours.
    return error_response(500, "server_error", "something went wrong on our side")
