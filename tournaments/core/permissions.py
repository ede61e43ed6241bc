"""Who runs a tournament: its organiser or a staff admin; ``None`` is the system itself. And
whether a user organises the tournament a hosted game is played for (``games.signals``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from hosting.core.errors import Forbidden
from hosting.core.roles import is_staff_admin
from tournaments.models import Episode, MatchGame, Tournament


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


def organises_game(sender: object, game: Any, by: Any, **kwargs: object) -> bool:
    """``games.signals.runs_game_tournament``: whether ``by`` organises the tournament whose
    match or season main match ``game`` is (a staff admin the games app knows already)."""
    of_match = MatchGame.objects.filter(game_id=game.pk).values("match__stage__tournament_id")
    of_episode = Episode.objects.filter(mm_game_id=game.pk).values("tournament_id")
    return (
        Tournament.objects.filter(organiser_id=by.pk)
        .filter(Q(pk__in=of_match) | Q(pk__in=of_episode))
        .exists()
    )
