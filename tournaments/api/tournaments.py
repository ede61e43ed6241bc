"""``/api/tournaments/`` and ``/api/tournaments/<slug>/…``: the list, one tournament, and the
organiser's steps that move it on (registration, check-in, seeding, start, a Swiss round)."""

from __future__ import annotations

from django.db.models import Count, Q
from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from hosting.core.openapi import PAGE, READ_ERRORS, operation
from hosting.core.validation import valid
from tournaments import adapters, selectors, services
from tournaments.api.common import Page, TournamentAPIView
from tournaments.api.inputs import SeedingInput, TournamentCreateInput
from tournaments.api.outputs import EntrantOut, TournamentDetail, TournamentPage
from tournaments.formats import genius
from tournaments.models import Tournament
from tournaments.payloads import entrant_payload, summary_payload
from tournaments.seasons import services as seasons


class SeedingOut(serializers.Serializer):
    entrants = EntrantOut(many=True)


@extend_schema_view(
    get=operation(
        TournamentPage,
        summary="Public tournaments",
        errors=(401, 404),
        parameters=[PAGE],
        operation_id="tournaments_list",
    ),
    post=operation(
        TournamentDetail,
        request=TournamentCreateInput,
        status=201,
        summary="Create a tournament",
    ),
)
class TournamentListView(TournamentAPIView):
    def get(self, request: Request) -> Response:
        active = Q(entrants__status__in=adapters.ACTIVE)
        tournaments = (
            Tournament.objects.public()
            .select_related("organiser")
            .annotate(entrant_count=Count("entrants", filter=active))
            .order_by("-created", "-pk")
        )
        paginator = Page()
        page = paginator.paginate_queryset(tournaments, request, view=self)
        rows = [summary_payload(t) | {"entrant_count": t.entrant_count} for t in page]
        return paginator.get_paginated_response(rows)

    def post(self, request: Request) -> Response:
        data = valid(TournamentCreateInput, request.data)
        tournament = services.tournament_create(organiser=request.user, **data)
        return Response(selectors.detail(tournament.slug), status=201)


@extend_schema_view(
    get=operation(TournamentDetail, summary="A tournament: entrants, bracket", errors=READ_ERRORS)
)
class TournamentDetailView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        return Response(selectors.detail(tournament.slug))


@extend_schema_view(post=operation(TournamentDetail, summary="Open registration"))
class RegistrationOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        services.registration_open(tournament=tournament, by=request.user)
        return Response(selectors.detail(slug))


@extend_schema_view(post=operation(TournamentDetail, summary="Open check-in"))
class CheckInOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        services.check_in_open(tournament=tournament, by=request.user)
        return Response(selectors.detail(slug))


@extend_schema_view(post=operation(SeedingOut, request=SeedingInput, summary="Seed the entrants"))
class SeedingView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        data = valid(SeedingInput, request.data)
        seeded = services.seeding_apply(
            tournament=tournament, by=request.user, method=data["method"], order=data.get("order")
        )
        return Response({"entrants": [entrant_payload(e) for e in seeded]})


@extend_schema_view(post=operation(TournamentDetail, summary="Start the tournament (or season)"))
class StartView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        # A Genius season runs as episodes; every other format as a stage of matches.
        start = seasons.season_start if tournament.format == genius.KEY else services.stage_start
        start(tournament=tournament, by=request.user)
        return Response(selectors.detail(slug))


@extend_schema_view(post=operation(TournamentDetail, summary="Pair and start a Swiss's next round"))
class NextRoundView(TournamentAPIView):
    """A Swiss whose organiser starts each round (``"pairing": "organiser"``): pair the next."""

    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        services.swiss_round_start(tournament=tournament, by=request.user)
        return Response(selectors.detail(slug))
