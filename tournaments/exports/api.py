"""``GET /api/tournaments/<slug>/export.json`` and ``export.csv?table=…`` (see
``tournaments.exports.services``): public reads, like the tournament's own page."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.errors import UserError
from tournaments import brackets_viewer
from tournaments.api import _tournament
from tournaments.exports import services as exports


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


class ExportJSONView(ExportView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        model = request.query_params.get("format", "")
        if model == "brackets-viewer":
            return Response(brackets_viewer.brackets_viewer_data(tournament))
        if model:
            raise UserError(
                _("no export format %(model)r: leave it out, or brackets-viewer") % {"model": model}
            )
        response = Response(exports.export_json(tournament))
        response["Content-Disposition"] = f'inline; filename="{slug}.json"'
        return response


class ExportCSVView(ExportView):
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(slug, request.user)
        table = request.query_params.get("table")
        if not table:
            raise UserError(
                _("say which table: ?table=%(tables)s") % {"tables": "|".join(exports.TABLES)}
            )
        body = exports.export_csv(tournament, table)
        response = HttpResponse(body, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{slug}-{table}.csv"'
        return response
