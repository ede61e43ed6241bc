"""The challenges' JSON API (``/api/challenges/``): a signed-in player sends a challenge by
name, lists the open ones, and the challenged player accepts or declines. Each view calls one
``games.challenges.services`` service."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import engines
from games.challenges import services as challenges
from games.challenges.models import Challenge
from hosting.core.openapi import READ_ERRORS, WRITE_ERRORS, operation
from hosting.core.throttles import Limit
from hosting.core.validation import Text, Url, valid


class ChallengeLimit(Limit):
    scope = "challenge"


class ChallengeInput(serializers.Serializer):
    username = Text(max_length=150, help_text="the player you challenge")
    game = serializers.ChoiceField(choices=list(engines.ENGINE_MODULES))


class ChallengeOut(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = Text(help_text="the challenger's username")
    challenged = Text(help_text="the challenged player's username")
    game = Text(help_text="the engine key")
    game_name = Text()
    status = serializers.ChoiceField(
        choices=["pending", "accepted", "declined", "withdrawn", "expired"]
    )
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField()
    game_id = serializers.IntegerField(allow_null=True, help_text="the game, once accepted")
    game_url = Url(required=False)


class ChallengeListOut(serializers.Serializer):
    received = ChallengeOut(many=True, help_text="open challenges waiting for your answer")
    sent = ChallengeOut(many=True, help_text="open challenges you sent")


def challenge_body(request: Request, challenge: Challenge) -> dict[str, Any]:
    body = {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "challenged": challenge.challenged.get_username(),
        "game": challenge.engine,
        "game_name": engines.get(challenge.engine).name,
        "status": "expired" if challenge.is_expired else challenge.status,
        "created": challenge.created,
        "expires": challenge.expires,
        "game_id": challenge.game_id,
    }
    if challenge.game_id:
        body["game_url"] = request.build_absolute_uri(f"/games/{challenge.game_id}/")
    return body


@extend_schema_view(
    get=operation(ChallengeListOut, errors=READ_ERRORS, summary="Your open challenges"),
    post=operation(
        ChallengeOut,
        request=ChallengeInput,
        status=201,
        errors=(*WRITE_ERRORS, 429),
        summary="Challenge a player by name to a game",
    ),
)
class ChallengeListView(APIView):
    permission_classes = [IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        return [ChallengeLimit()] if self.request.method == "POST" else []

    def get(self, request: Request) -> Response:
        return Response(
            {
                "received": [challenge_body(request, c) for c in challenges.received(request.user)],
                "sent": [challenge_body(request, c) for c in challenges.sent(request.user)],
            }
        )

    def post(self, request: Request) -> Response:
        data = valid(ChallengeInput, request.data)
        challenge = challenges.challenge_send(
            challenger=request.user, username=data["username"], engine=data["game"]
        )
        return Response(challenge_body(request, challenge), status=201)


@extend_schema_view(
    post=operation(ChallengeOut, summary="Accept a challenge: a new game seats you both")
)
class ChallengeAcceptView(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, challenge_id: int) -> Response:
        challenges.challenge_accept(challenge_id=challenge_id, user=request.user)
        challenge = Challenge.objects.select_related("challenger", "challenged").get(
            pk=challenge_id
        )
        return Response(challenge_body(request, challenge))


@extend_schema_view(
    post=operation(
        ChallengeOut, summary="Decline a challenge (the challenged) or withdraw it (the sender)"
    )
)
class ChallengeDeclineView(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = challenges.challenge_decline(challenge_id=challenge_id, user=request.user)
        return Response(challenge_body(request, challenge))
