"""``Authorization: Bearer <token>``: a personal API token acts as its user, on every endpoint.

Kept apart from ``hosting.core.tokens`` (which makes and revokes them) because DRF imports the
authentication classes while ``rest_framework.views`` loads, before ``hosting.core.errors`` can be.
A bearer request needs no CSRF token: a browser never attaches the header by itself, so a
forged cross-site request cannot carry it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.request import Request

from hosting.models import PersonalToken

KEYWORD = "Bearer"
LAST_USED_PRECISION = timedelta(minutes=1)  # one write a minute per token, not one a request


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_for(secret: str) -> PersonalToken | None:
    """The live token with this secret, its user loaded; ``None`` if unknown or revoked."""
    token = (
        PersonalToken.objects.select_related("user")
        .filter(key_sha256=digest(secret), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_PRECISION:
        PersonalToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token


class InvalidToken(exceptions.APIException):
    """A 401 for a bad token. (DRF turns an ``AuthenticationFailed`` into a 403 unless the
    first authentication class names a ``WWW-Authenticate`` scheme, and naming one would
    turn every anonymous request's 403 into a 401 too.)"""

    status_code = 401
    default_code = "not_authenticated"
    default_detail = gettext_lazy("the API token is unknown or has been revoked")
    auth_header = f'{KEYWORD} realm="api", error="invalid_token"'


class BearerTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <token>``. Other schemes (``Seat``) are not this class's."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, PersonalToken] | None:
        scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != KEYWORD.lower():  # schemes are case-insensitive (RFC 9110)
            return None
        token = token_for(secret.strip())
        if token is None:
            raise InvalidToken()
        return token.user, token


def by_bearer(request: Any) -> bool:
    return isinstance(getattr(request, "auth", None), PersonalToken)


def enforce_csrf(request: Request) -> None:
    """Session writes carry the CSRF token; a request proven by a bearer token needs none."""
    if not by_bearer(request):
        SessionAuthentication().enforce_csrf(request)


def accepts_bearer(
    view: Callable[..., Awaitable[HttpResponse]],
) -> Callable[..., Awaitable[HttpResponse]]:
    """The live streams (``/live/…``, async Django views, not DRF's) take a personal token as
    the API does: the request then acts as the token's user (their seats, their drafts), and
    an unknown or revoked token is the API's 401."""

    @functools.wraps(view)
    async def with_bearer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == KEYWORD.lower():
            token = await sync_to_async(token_for)(secret.strip())
            if token is None:
                response = JsonResponse(
                    {
                        "error": InvalidToken.default_code,
                        "detail": str(InvalidToken.default_detail),
                    },
                    status=InvalidToken.status_code,
                )
                response["WWW-Authenticate"] = InvalidToken.auth_header
                return response
            request.user = token.user
        return await view(request, *args, **kwargs)

    return with_bearer
