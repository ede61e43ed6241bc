"""Who may steer a game (start it, void it, pause or resume it): the one rule every write path
that changes a game from outside checks, with the acting user ``by``.

Its creator, the organisers of the tournament it is played for, or a staff admin; nobody else,
whatever other role they hold. ``by=None`` is the server itself acting on rules already checked
above it (a room dealing its next round, a tournament's own schedule, a dispute's filing).
Which tournament a game belongs to is known only above the games app: it is asked through the
``runs_game_tournament`` signal that tournaments answers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import GameSession
from games.signals import runs_game_tournament
from hosting.core.errors import Forbidden
from hosting.core.roles import is_staff_admin


def steers(game: GameSession, by: Any) -> bool:
    """Whether ``by`` may steer ``game`` (``None``: the server itself)."""
    if by is None:
        return True
    if not getattr(by, "is_authenticated", False):
        return False
    if game.created_by_id is not None and by.pk == game.created_by_id:
        return True
    answers = runs_game_tournament.send(sender=GameSession, game=game, by=by)
    return any(answer is True for _receiver, answer in answers) or is_staff_admin(by)


def check_steers(game: GameSession, by: Any) -> None:
    """Refuse (403) unless ``by`` may steer ``game``."""
    if not steers(game, by):
        raise Forbidden(
            _(
                "only the game's creator, the organisers of its tournament or a staff admin "
                "can do that"
            )
        )
