"""``GET /api/tournaments/<slug>/export.json`` and ``export.csv?table=…`` (see
``tournaments.exports.services``): public reads, like the tournament's own page."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.serializers import Game, LogEvent
from hosting.core.errors import UserError
from hosting.core.openapi import READ_ERRORS, error_responses, json_object, operation
from hosting.core.validation import Text
from tournaments import brackets_viewer, selectors
from tournaments.api.outputs import EntrantOut, MatchOut, Standings
from tournaments.exports import services as exports


class ExportedGame(serializers.Serializer):
    game = serializers.IntegerField()
    engine = Text()
    status = Text(required=False, help_text="a game not over yet")
    seed = Text(required=False, help_text="an ended game")
    seed_sha256 = Text(required=False)
    client_seeds = serializers.ListField(
        child=Text(allow_blank=True), required=False, help_text="an ended game"
    )
    effective_seed = Text(required=False, help_text="an ended game")
    config = serializers.DictField(required=False, help_text="an ended game")
    outcome = serializers.DictField(required=False, help_text="an ended game")
    log = LogEvent(many=True, allow_null=True, help_text="null while the game is played")
    spectator_view = Game(required=False, help_text="a game not over: what spectators see")


class ExportMatch(MatchOut):
    stage = serializers.IntegerField()


class Export(serializers.Serializer):
    export_version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    tournament = json_object("tournament", "the detail's fields, without entrants and stages")
    entrants = EntrantOut(many=True)
    stages = serializers.ListField(child=json_object("stage"))
    matches = ExportMatch(many=True)
    standings = Standings()
    games = ExportedGame(many=True)


class BracketsViewer(serializers.Serializer):
    """brackets-model's tables (brackets-viewer.js, brackets-manager.js)."""

    stages = serializers.ListField(child=json_object("stage"))
    groups = serializers.ListField(child=json_object("group"))
    rounds = serializers.ListField(child=json_object("round"))
    matches = serializers.ListField(
        child=json_object("match", "opponent1/opponent2: null is a bye")
    )
    matchGames = serializers.ListField(child=json_object("match game"))  # their name, camelCase
    participants = serializers.ListField(child=json_object("participant"))


class JSONRegardless(BaseContentNegotiation):
    """Answer JSON whatever the client accepts: a CSV client (``Accept: text/csv``) still
    gets its errors in the JSON error shape rather than a 406."""

    def select_parser(self, request: Request, parsers: list) -> object:
        return parsers[0]

    def select_renderer(self, request: Request, renderers: list, format_suffix: str = "") -> tuple:
        return renderers[0], renderers[0].media_type


class ExportView(APIView):
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JSONRegardless


@extend_schema_view(
    get=operation(
        PolymorphicProxySerializer(
            component_name="TournamentExport",
            serializers=[Export, BracketsViewer],
            resource_type_field_name=None,
        ),
        summary="Export everything public: entrants, matches, standings, games' logs",
        description="With `?format=brackets-viewer`: the bracket in brackets-viewer.js's model.",
        errors=(400, *READ_ERRORS),
        parameters=[OpenApiParameter("format", str, enum=["brackets-viewer"])],
    )
)
class ExportJSONView(ExportView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        model = request.query_params.get("format")
        if model == "brackets-viewer":
            return Response(brackets_viewer.brackets_viewer_data(tournament))
        if model is not None:  # "" too: the document's enum has no empty format
            raise UserError(
                _("no export format %(model)r: leave it out, or brackets-viewer") % {"model": model}
            )
        response = Response(exports.export_json(tournament))
        response["Content-Disposition"] = f'inline; filename="{slug}.json"'
        return response


@extend_schema_view(
    get=extend_schema(
        summary="Export one table as CSV",
        parameters=[
            OpenApiParameter("table", str, enum=list(exports.TABLES), required=True),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="a header row, then one row per record"
            ),
            **error_responses((400, *READ_ERRORS)),
        },
    )
)
class ExportCSVView(ExportView):
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = selectors.visible_tournament(slug, request.user)
        table = request.query_params.get("table")
        if not table:
            raise UserError(
                _("say which table: ?table=%(tables)s") % {"tables": "|".join(exports.TABLES)}
            )
        body = exports.export_csv(tournament, table)
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{slug}-{table}.csv"'
        return response
