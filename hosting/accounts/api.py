"""``/api/tokens/``: a user's personal API tokens through the API (the account page's twin)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core import tokens
from hosting.core.errors import Forbidden
from hosting.models import PersonalToken


class ApiTokenInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)


def token_payload(token: PersonalToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created": token.created,
        "last_used": token.last_used,
        "revoked_at": token.revoked_at,
    }


class TokenListView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({"tokens": [token_payload(t) for t in tokens.user_tokens(request.user)]})

    def post(self, request: Request) -> Response:
        # A token never mints tokens: one that leaks cannot make itself a successor.
        if tokens.by_bearer(request):
            raise Forbidden(_("sign in to make a token; an API token cannot make another"))
        serializer = ApiTokenInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = tokens.token_create(user=request.user, name=serializer.validated_data["name"])
        return Response(token_payload(made.token) | {"token": made.secret}, status=201)


class TokenDetailView(APIView):
    permission_classes = [IsAuthenticated]

    def delete(self, request: Request, token_id: int) -> Response:
        token = tokens.token_revoke(user=request.user, token_id=token_id)
        return Response(token_payload(token))
