"""``/api/tournaments/<slug>/register|withdraw|check-in``: an entrant's own steps (an
organiser may also withdraw someone else, naming them)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response

from hosting.core.openapi import operation
from hosting.core.validation import valid
from tournaments import selectors, services
from tournaments.api.common import TournamentAPIView
from tournaments.api.inputs import RegisterInput, WithdrawInput
from tournaments.api.outputs import EntrantOut
from tournaments.payloads import entrant_payload


@extend_schema_view(
    post=operation(EntrantOut, request=RegisterInput, status=201, summary="Register yourself")
)
class RegisterView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        data = valid(RegisterInput, request.data)
        entrant = services.entrant_register(
            tournament=tournament,
            user=request.user,
            display_name=data["display_name"],
            rating=data.get("rating"),
        )
        return Response(entrant_payload(entrant), status=201)


@extend_schema_view(
    post=operation(EntrantOut, request=WithdrawInput, summary="Withdraw (an entrant)")
)
class WithdrawView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        data = valid(WithdrawInput, request.data)
        if data.get("entrant") is None:
            entrant = selectors.my_entrant(tournament, request.user)
        else:
            entrant = selectors.entrant(tournament, data["entrant"])
        services.entrant_withdraw(entrant=entrant, by=request.user, reason=data["reason"])
        entrant.refresh_from_db()
        return Response(entrant_payload(entrant))


@extend_schema_view(post=operation(EntrantOut, summary="Check in"))
class CheckInView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        entrant = selectors.my_entrant(tournament, request.user)
        services.entrant_check_in(entrant=entrant, by=request.user)
        entrant.refresh_from_db()
        return Response(entrant_payload(entrant))
