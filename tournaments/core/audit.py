"""The service's audit log: every organiser's and admin's action, append-only.

``record`` is the one write (``log`` is its tournament-scoped form, ``record_role_change`` its
receiver of ``hosting.core.roles.role_changed``);
``visible_to`` is who reads what: staff admins everything, organisers their tournaments'
entries, nobody else anything. ``filtered`` applies the page's and the API's filters.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from hosting.core.errors import Forbidden, UserError
from hosting.core.roles import is_organiser, is_staff_admin
from tournaments.models import AuditEntry, Match, Tournament

FILTERS = ("tournament", "action", "actor", "target", "since", "until")


def record(
    actor: Any,
    action: str,
    *,
    tournament: Tournament | None = None,
    target: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    **data: Any,
) -> AuditEntry:
    """Append one entry; ``actor`` ``None`` (or anonymous) is the system itself."""
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        target=target,
        before=before,
        after=after,
        data=data,
        reason=reason,
    )


def log(
    tournament: Tournament,
    actor: Any,
    action: str,
    reason: str = "",
    *,
    target: str = "",
    before: Any = None,
    after: Any = None,
    **data: Any,
) -> None:
    """A tournament's entry: ``action`` is recorded as ``tournaments.<action>``."""
    record(
        actor,
        f"tournaments.{action}",
        tournament=tournament,
        target=target,
        before=before,
        after=after,
        reason=reason,
        **data,
    )


def result_of(match: Match) -> dict[str, Any]:
    """A match's result as the audit log keeps it before and after a change."""
    return {
        "status": match.status,
        "result_kind": match.result_kind,
        "winner": match.winner_id,
        "home": match.home_id,
        "away": match.away_id,
        "home_score": match.home_score,
        "away_score": match.away_score,
    }


def record_role_change(
    sender: Any, *, by: Any, action: str, user: Any, role: str, had: bool, **kwargs: Any
) -> None:
    """``hosting.core.roles.role_changed`` receiver: a role granted or revoked, ``by`` whom
    (``None``: the shell or the system)."""
    record(
        by,
        action,
        target=f"user:{user.pk}",
        before={"role": role, "held": had},
        after={"role": role, "held": not had},
        user=user.get_username(),
        role=role,
    )


def can_read(user: Any) -> bool:
    return is_staff_admin(user) or is_organiser(user)


def visible_to(user: Any) -> QuerySet[AuditEntry]:
    """Staff admins read every entry; an organiser those of the tournaments they run."""
    if is_staff_admin(user):
        entries = AuditEntry.objects.all()
    elif is_organiser(user):
        entries = AuditEntry.objects.filter(tournament__organiser=user)
    else:
        raise Forbidden(_("only organisers and staff admins read the audit log"))
    return entries.select_related("actor", "tournament").order_by("-at", "-pk")


def filtered(entries: QuerySet[AuditEntry], params: Any) -> QuerySet[AuditEntry]:
    """``tournament`` (slug), ``action`` (a prefix: ``disputes.``), ``actor`` (username),
    ``target`` (``match:W1.1``), ``since`` and ``until`` (ISO 8601)."""
    if slug := (params.get("tournament") or "").strip():
        entries = entries.filter(tournament__slug=slug)
    if action := (params.get("action") or "").strip():
        entries = entries.filter(action__startswith=action)
    if actor := (params.get("actor") or "").strip():
        field = get_user_model().USERNAME_FIELD
        entries = entries.filter(**{f"actor__{field}": actor})
    if target := (params.get("target") or "").strip():
        entries = entries.filter(target=target)
    for name, lookup in (("since", "at__gte"), ("until", "at__lte")):
        if moment := (params.get(name) or "").strip():
            entries = entries.filter(**{lookup: _moment(name, moment)})
    return entries


def _moment(name: str, text: str) -> datetime:
    try:
        moment = parse_datetime(text)
    except ValueError:
        moment = None
    if moment is None:
        raise UserError(_("%(name)s is a date and time like 2026-12-01T18:00:00Z") % {"name": name})
    # Without an offset it is read in the service's time zone.
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def for_dispute(dispute_id: int) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(Q(target=f"dispute:{dispute_id}")).order_by("at", "pk")


def row(entry: AuditEntry) -> dict[str, Any]:
    """An entry as the API answers it."""
    return {
        "id": entry.pk,
        "at": entry.at,
        "tournament": entry.tournament.slug if entry.tournament else None,
        "actor": entry.actor.get_username() if entry.actor else None,
        "action": entry.action,
        "target": entry.target,
        "before": entry.before,
        "after": entry.after,
        "data": entry.data,
        "reason": entry.reason,
    }
