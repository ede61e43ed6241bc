"""The audit log on a page (``/audit/``): staff admins read every entry, organisers their
tournaments' ones, with the filters of its API twin (``tournaments.api.audit``)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from hosting.core.errors import Forbidden, UserError
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
