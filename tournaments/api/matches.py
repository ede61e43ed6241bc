"""``/api/tournaments/<slug>/matches/<code>/result`` and ``/standings``: a match's result (or
its correction, previewed by a dry run first) and the table it feeds."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from hosting.core.openapi import READ_ERRORS, operation
from hosting.core.validation import Text, valid
from tournaments import selectors, services, tiebreaks
from tournaments.api.common import TournamentAPIView
from tournaments.api.inputs import ResultClaimInput, ResultInput
from tournaments.api.outputs import MatchOut, Standings
from tournaments.payloads import match_payload

REGULATIONS = OpenApiParameter(
    "regulations",
    str,
    enum=list(tiebreaks.REGULATIONS),
    description="another tie-break regulations version, to compare",
)


class DryRun(serializers.Serializer):
    dry_run = serializers.BooleanField()
    match = Text()
    resets = serializers.ListField(child=Text())
    refills = serializers.ListField(child=Text())
    later_rounds_kept = serializers.ListField(child=Text())


@extend_schema_view(
    post=operation(
        PolymorphicProxySerializer(
            component_name="ResultOutcome",
            serializers=[MatchOut, DryRun],
            resource_type_field_name=None,
            help_text="the match as it now stands; a dry run answers its plan instead",
        ),
        request=ResultInput,
        summary="Report (or correct) a match result",
    )
)
class MatchResultView(TournamentAPIView):
    def post(self, request: Request, slug: str, code: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        match = selectors.match(tournament, code)
        data = valid(ResultInput, request.data)
        winner = None if data["winner"] is None else selectors.entrant(tournament, data["winner"])
        if data["dry_run"]:
            plan = services.correction_preview(
                match=match,
                by=request.user,
                winner=winner,
                home_score=data.get("home_score"),
                away_score=data.get("away_score"),
                reason=data["reason"],
            )
            return Response(
                {
                    "dry_run": True,
                    "match": match.code,
                    "resets": list(plan.resets),
                    "refills": list(plan.refills),
                    "later_rounds_kept": list(plan.later_swiss),
                }
            )
        match = services.match_report_result(
            match=match,
            by=request.user,
            winner=winner,
            home_score=data.get("home_score"),
            away_score=data.get("away_score"),
            forfeit=data["forfeit"],
            force=data["force"],
            reason=data["reason"],
            resets=data.get("resets"),
        )
        names = {e.pk: e.display_name for e in (match.home, match.away) if e is not None}
        return Response(match_payload(match, match.round, names))


class ResultClaimOutcome(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["claimed", "confirmed", "contested"])
    match = MatchOut()


@extend_schema_view(
    post=operation(
        ResultClaimOutcome,
        request=ResultClaimInput,
        summary="A player reports their match's result (the opponent confirms it)",
        description=(
            "Where the organiser lets players report (`players_report`): the first report "
            "waits for the opponent (`claimed`); the opponent's same report records the "
            "result (`confirmed`); a different one leaves it to the organiser (`contested`). "
            "`winner` null is a draw, where the format scores draws."
        ),
    )
)
class MatchClaimView(TournamentAPIView):
    def post(self, request: Request, slug: str, code: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        match = selectors.match(tournament, code)
        data = valid(ResultClaimInput, request.data)
        winner = None if data["winner"] is None else selectors.entrant(tournament, data["winner"])
        outcome = services.match_claim_result(match=match, by=request.user, winner=winner)
        match = selectors.match(tournament, code)
        names = {e.pk: e.display_name for e in (match.home, match.away) if e is not None}
        return Response({"outcome": outcome, "match": match_payload(match, match.round, names)})


@extend_schema_view(
    get=operation(
        Standings, summary="Standings", errors=(400, *READ_ERRORS), parameters=[REGULATIONS]
    )
)
class StandingsView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        regulations = request.query_params.get("regulations")  # another version, to compare
        return Response(services.standings_table(tournament=tournament, regulations=regulations))
