"""The two kinds of error: a user error (4xx, readable) and a bug (logged, 500).

Every domain raises a ``UserError`` subclass (or an engine's ``IllegalAction``) for what the
person can fix; the DRF handler turns them into ``{"error": code, "detail": message}``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import ConfigError, IllegalAction


class UserError(Exception):
    """Something the user can fix: shown as is, with ``status`` and a stable ``code``."""

    status = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class NotFound(UserError):
    status = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Forbidden(UserError):
    status = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class Conflict(UserError):
    status = status.HTTP_409_CONFLICT
    code = "conflict"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, UserError):
        return Response({"error": exc.code, "detail": exc.message}, status=exc.status)
    if isinstance(exc, IllegalAction):
        return Response({"error": "illegal_action", "detail": exc.reason}, status=400)
    if isinstance(exc, ConfigError):
        return Response({"error": "invalid_config", "detail": str(exc)}, status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" not in response.data:
        code = getattr(exc, "default_code", "invalid")
        if "detail" in response.data:
            response.data = {"error": code, "detail": response.data["detail"]}
        else:
            response.data = {"error": code, "detail": "invalid input", "fields": response.data}
    return response
