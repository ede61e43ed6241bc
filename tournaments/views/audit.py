"""The audit log on a page (``/audit/``) and in the API (``/api/audit/``): staff admins read
every entry, organisers their tournaments' ones, both with the same filters."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.errors import Forbidden, UserError
from tournaments.api import Page
from tournaments.core import audit

PAGE_SIZE = 50


@login_required
def audit_page(request: HttpRequest) -> HttpResponse:
    try:
        entries = audit.visible_to(request.user)
    except Forbidden:
        raise PermissionDenied from None
    problem = ""
    try:
        entries = audit.filtered(entries, request.GET)
    except UserError as error:
        problem = error.message
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    for entry in page.object_list:  # shown as the API answers them: JSON
        entry.before_text = "" if entry.before is None else json.dumps(entry.before)
        entry.after_text = "" if entry.after is None else json.dumps(entry.after)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "audit/list.html",
        {
            "page": page,
            "filters": {name: request.GET.get(name, "") for name in audit.FILTERS},
            "query": query.urlencode(),
            "problem": problem,
        },
        status=400 if problem else 200,
    )


class AuditLogView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        entries = audit.filtered(audit.visible_to(request.user), request.query_params)
        paginator = Page()
        rows = paginator.paginate_queryset(entries, request, view=self)
        return paginator.get_paginated_response([audit.row(entry) for entry in rows])
