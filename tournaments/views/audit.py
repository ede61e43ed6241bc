"""The audit log on a page (``/audit/``): staff admins read every entry, organisers their
tournaments' ones, with the filters of its API twin (``tournaments.api.audit``)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from hosting.core.errors import Forbidden, UserError
from hosting.core.roles import is_staff_admin
from tournaments.core import audit, audit_sentences

PAGE_SIZE = 50
# The action filter as people choose it: a family of actions (the API's prefix filter).
ACTION_KINDS = (
    ("", _("Everything")),
    ("tournaments.match.", _("Results and corrections")),
    ("tournaments.entrant.", _("Entrants: registration, check-in, withdrawals")),
    ("tournaments.seeding.", _("Seeding")),
    ("tournaments.season.", _("Genius season")),
    ("disputes.", _("Disputes")),
    ("hosting.role.", _("Roles")),
)


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
    audit_sentences.sentences(list(page.object_list))
    for entry in page.object_list:  # the raw record, behind a disclosure, as the API has it
        entry.before_text = "" if entry.before is None else json.dumps(entry.before, indent=1)
        entry.after_text = "" if entry.after is None else json.dumps(entry.after, indent=1)
        entry.data_text = json.dumps(entry.data, indent=1) if entry.data else ""
    chosen = request.GET.get("action", "")
    # Roles belong to no tournament: only staff admins read those entries.
    kinds = [k for k in ACTION_KINDS if is_staff_admin(request.user) or k[0] != "hosting.role."]
    if chosen and chosen not in dict(kinds):
        kinds.append((chosen, chosen))
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
            "kinds": kinds,
        },
        status=400 if problem else 200,
    )
