"""The audit through the API: one tournament's trail (``/api/tournaments/<slug>/audit``, for
those who run it) and the service's whole log (``/api/audit/``: staff admins every entry,
organisers their tournaments' ones, with the filters of the ``/audit/`` page)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.errors import Forbidden
from hosting.core.openapi import PAGE, READ_ERRORS, json_object, operation
from hosting.core.validation import Text
from tournaments import selectors
from tournaments.api.common import Page, TournamentAPIView
from tournaments.api.outputs import TournamentPage
from tournaments.core import audit
from tournaments.core.permissions import runs
from tournaments.models import AuditEntry


class AuditRow(serializers.Serializer):
    action = Text()
    actor = Text(allow_null=True)
    target = Text(help_text="what it concerns: match:W1.1, dispute:4, ...")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    data = json_object("data")
    reason = Text()
    at = serializers.DateTimeField()


class AuditPage(TournamentPage):
    results = AuditRow(many=True)


class AuditLogRow(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    tournament = Text(allow_null=True, help_text="its slug; null: the service")
    actor = Text(allow_null=True, help_text="username; null: the system")
    action = Text(help_text="dotted by its owner: disputes.ruled, ...")
    target = Text(help_text="what it concerns: match:W1.1, dispute:4, ...")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    data = json_object("data")
    reason = Text()


class AuditLogPage(TournamentPage):
    results = AuditLogRow(many=True)


@extend_schema_view(
    get=operation(
        AuditPage, summary="The audit trail (organisers)", parameters=[PAGE], errors=READ_ERRORS
    )
)
class AuditView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        if not runs(tournament, request.user):
            raise Forbidden(_("only the organiser and staff admins read the audit trail"))
        entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
        paginator = Page()
        page = paginator.paginate_queryset(entries.order_by("-at", "-pk"), request, view=self)
        rows = [
            {
                "action": entry.action,
                "actor": entry.actor.get_username() if entry.actor else None,
                "target": entry.target,
                "before": entry.before,
                "after": entry.after,
                "data": entry.data,
                "reason": entry.reason,
                "at": entry.at,
            }
            for entry in page
        ]
        return paginator.get_paginated_response(rows)


@extend_schema_view(
    get=operation(
        AuditLogPage,
        summary="The service's audit log (organisers: their tournaments; staff admins: all)",
        parameters=[
            PAGE,
            OpenApiParameter("tournament", str, description="a tournament's slug"),
            OpenApiParameter("action", str, description="actions starting with this"),
            OpenApiParameter("actor", str, description="the actor's username"),
            OpenApiParameter("target", str, description="e.g. match:W1.1 or dispute:4"),
            # Text, not ``date-time``: empty is no bound (the audit page's form sends it so).
            OpenApiParameter("since", str, description="ISO 8601 date and time; empty: none"),
            OpenApiParameter("until", str, description="ISO 8601 date and time; empty: none"),
        ],
        errors=(400, *READ_ERRORS),
    )
)
class AuditLogView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        entries = audit.filtered(audit.visible_to(request.user), request.query_params)
        paginator = Page()
        rows = paginator.paginate_queryset(entries, request, view=self)
        return paginator.get_paginated_response([audit.row(entry) for entry in rows])
