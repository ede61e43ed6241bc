"""``/api/tokens/``: a user's personal API tokens through the API (the account page's twin)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core import tokens
from hosting.core.errors import Forbidden
from hosting.core.openapi import operation
from hosting.core.validation import Text, valid
from hosting.models import PersonalToken


class ApiTokenInput(serializers.Serializer):
    name = Text(max_length=80)


class Token(serializers.Serializer):
    id = serializers.IntegerField()
    name = Text()
    prefix = Text(help_text="the token's first characters, to recognise it")
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True, help_text="to the minute")
    revoked_at = serializers.DateTimeField(allow_null=True)


class NewToken(Token):
    token = Text(help_text="the secret: shown only here, never again")


class Tokens(serializers.Serializer):
    tokens = Token(many=True)


def token_payload(token: PersonalToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created": token.created,
        "last_used": token.last_used,
        "revoked_at": token.revoked_at,
    }


@extend_schema_view(
    get=operation(Tokens, summary="Your personal API tokens", errors=(401, 403)),
    post=operation(
        NewToken,
        request=ApiTokenInput,
        status=201,
        errors=(400, 401, 403, 415),
        summary="Make a personal API token (signed in by session)",
        description="An API token cannot make another: a bearer request is a 403.",
    ),
)
class TokenListView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({"tokens": [token_payload(t) for t in tokens.user_tokens(request.user)]})

    def post(self, request: Request) -> Response:
        # A token never mints tokens: one that leaks cannot make itself a successor.
        if tokens.by_bearer(request):
            raise Forbidden(_("sign in to make a token; an API token cannot make another"))
        name = valid(ApiTokenInput, request.data)["name"]
        made = tokens.token_create(user=request.user, name=name)
        return Response(token_payload(made.token) | {"token": made.secret}, status=201)


@extend_schema_view(
    delete=operation(Token, summary="Revoke one of your tokens", errors=(401, 403, 404))
)
class TokenDetailView(APIView):
    permission_classes = [IsAuthenticated]

    def delete(self, request: Request, token_id: int) -> Response:
        token = tokens.token_revoke(user=request.user, token_id=token_id)
        return Response(token_payload(token))
