"""What every API module shares to describe its answers in the OpenAPI 3 document
(drf-spectacular, served at ``/api/schema/``): the one error shape of ``hosting.core.errors``,
the error responses an operation may give, and how the document names who may call.

The views are plain ``APIView``s that parse with input serializers and answer hand-made dicts,
so drf-spectacular cannot guess their bodies: each API module describes its own views where
they are made (``@extend_schema_view(post=operation(...))``), with serializers describing the
dicts they answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers

from hosting.core.bearer import BearerTokenAuthentication
from hosting.core.validation import Text


class Error(serializers.Serializer):
    error = Text(help_text="a stable code: invalid, not_found, conflict, ...")
    detail = Text(help_text="what went wrong, for a person to read")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="invalid input only: each field's problems, a list of messages (a nested "
        'field\'s: the same shape inside, e.g. {"seats": {"0": {"user": ["..."]}}})',
    )
    refusal = Text(
        required=False,
        help_text="illegal_action only: the engine's stable code for the refusal, e.g. "
        "`not_your_turn` (the pages translate it; `detail` says it in English)",
    )
    params = serializers.DictField(
        required=False, help_text="illegal_action only: the values `detail` was filled with"
    )


ERRORS = {
    400: "invalid input (`invalid`, `parse_error`, `illegal_action`, `invalid_config`)",
    401: "a personal API token that is unknown or revoked (`not_authenticated`)",
    403: "not yours to do (`permission_denied`), or not signed in (`not_authenticated`)",
    404: "no such game, tournament, match, episode or page (`not_found`)",
    409: "right request, wrong moment (`conflict`, `stale_version`)",
    413: "the body is too large (`payload_too_large`)",
    415: "the body is not JSON (`unsupported_media_type`)",
    429: "too many requests (`throttled`); `Retry-After` says how long to wait",
}
READ_ERRORS = (401, 403, 404)
WRITE_ERRORS = (400, 401, 403, 404, 409, 415)
THROTTLED = (*WRITE_ERRORS, 429)
PAGE = OpenApiParameter(
    "page", {"type": "integer", "minimum": 1}, description="the page (50 rows each)"
)


def error_responses(codes: tuple[int, ...]) -> dict[int, OpenApiResponse]:
    """The error responses of ``codes``, each in the one error shape."""
    return {code: OpenApiResponse(Error, description=ERRORS[code]) for code in codes}


def operation(
    response: Any,
    *,
    summary: str,
    request: Any = None,
    status: int = 200,
    errors: tuple[int, ...] = WRITE_ERRORS,
    description: str = "",
    parameters: list[OpenApiParameter] | None = None,
    operation_id: str | None = None,
) -> Any:
    """One operation: its body, its answer and the errors it may give."""
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        responses={status: response, **error_responses(errors)},
        parameters=parameters,
        operation_id=operation_id,
    )


def json_object(name: str, help_text: str = "") -> serializers.DictField:
    """A JSON object whose keys the document does not list (a config, an engine's view)."""
    return serializers.DictField(help_text=help_text or name)


class AutoSchema(openapi.AutoSchema):
    """Session writes also carry the CSRF token; a view whose class says
    ``accepts_seat_token = True`` (the games API) also takes a seat token. Three errors are
    every operation's that can give them, whatever its description lists: 400 everywhere (the
    control-character guard, ``hosting.core.guard``, answers any path or query that holds
    one), 401 where a personal token is read (an unknown or revoked one), 429 where a rate
    limit applies."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        # ``extend_schema`` replaces ``get_response_serializers`` in a subclass of its own:
        # this is the step every operation's responses pass through.
        responses = super()._get_response_bodies(direction)
        codes: list[int] = [400]
        if any(isinstance(a, BearerTokenAuthentication) for a in self.view.get_authenticators()):
            codes.append(401)
        if self.view.get_throttles():
            codes.append(429)
        for code, response in error_responses(tuple(codes)).items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    response, str(code), direction=direction
                )
        return responses

    def get_auth(self) -> list[dict[str, list[str]]]:
        auth = super().get_auth()
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            auth = [{**a, "csrfToken": []} if "cookieAuth" in a else a for a in auth]
        if getattr(self.view, "accepts_seat_token", False):
            auth.insert(len(auth) - 1 if {} in auth else len(auth), {"seatToken": []})
        return auth


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Registered by being defined: this module is loaded as ``DEFAULT_SCHEMA_CLASS``'s home
    before any operation's authentication is described."""

    target_class = "hosting.core.bearer.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <token>`: a personal API token, acting as "
            "its user (no CSRF). Unknown or revoked: 401 `not_authenticated`.",
        }
