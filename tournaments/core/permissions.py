"""Who runs a tournament: its organiser or a staff admin; ``None`` is the system itself."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from hosting.core.errors import Forbidden
from hosting.core.roles import is_staff_admin
from tournaments.models import Tournament


def check_runs(tournament: Tournament, user: Any) -> None:
    """Refuse unless ``user`` runs this tournament (its organiser or a staff admin);
    ``None`` is the system itself (results flowing in from games)."""
    if user is None:
        return
    if user.pk == tournament.organiser_id or is_staff_admin(user):
        return
    raise Forbidden(_("only this tournament's organiser can do that"))


def runs(tournament: Tournament, user: Any) -> bool:
    """Whether ``user`` runs this tournament, as ``check_runs`` decides it."""
    try:
        check_runs(tournament, user)
    except Forbidden:
        return False
    return True
