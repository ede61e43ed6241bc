"""Becoming an organiser: an account asks, with what it means to run; a staff admin approves
(the role is granted through ``hosting.core.roles``, which the audit log records) or declines."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict, Forbidden
from hosting.core.roles import ORGANISER, grant, is_organiser, is_staff_admin
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.models import OrganiserRequest

Status = OrganiserRequest.Status


def organiser_request_file(*, user: Any, plans: str) -> OrganiserRequest:
    """Ask for the organiser role; one request waits at a time."""
    plans = plans.strip()
    if not plans:
        raise TournamentUserError(_("say in a sentence what you would like to organise"))
    if is_organiser(user):
        raise Conflict(_("you are already an organiser"))
    with transaction.atomic():
        if OrganiserRequest.objects.filter(user=user, status=Status.PENDING).exists():
            raise Conflict(_("your request is already waiting for a staff admin"))
        request = OrganiserRequest.objects.create(user=user, plans=plans[:1000])
        audit.record(user, "hosting.organiser_request.filed", target=f"user:{user.pk}")
        return request


def organiser_request_decide(*, request: OrganiserRequest, by: Any, approve: bool) -> None:
    """A staff admin approves (granting the role) or declines a waiting request."""
    if not is_staff_admin(by):
        raise Forbidden(_("only a staff admin answers organiser requests"))
    with transaction.atomic():
        request = OrganiserRequest.objects.select_for_update().get(pk=request.pk)
        if request.status != Status.PENDING:
            raise Conflict(_("this request has already been answered"))
        request.status = Status.APPROVED if approve else Status.DECLINED
        request.decided_by, request.decided_at = by, timezone.now()
        request.save(update_fields=["status", "decided_by", "decided_at"])
        if approve:
            grant(request.user, ORGANISER, by=by)
        else:
            audit.record(
                by,
                "hosting.organiser_request.declined",
                target=f"user:{request.user_id}",
                user=request.user.get_username(),
            )


def waiting_requests() -> Any:
    return OrganiserRequest.objects.filter(status=Status.PENDING).select_related("user")
