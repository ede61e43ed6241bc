"""The hooks: where a lower layer of tournaments calls into one built on it, without importing it.

Imports in tournaments run one way: ``core`` <- ``services`` <- ``seasons`` / ``disputes``.
Where the write layer (``tournaments.services``) needs a season (a Genius tournament's rules,
a Death Match decided), it calls a hook declared here; the season connects its function to it
once, at start-up. Every hook has exactly one receiver, connected in ``tournaments.receivers``
(imported by ``TournamentsConfig.ready``), so what a hook runs is read in one place.

Hooks (who calls -> who is connected):

- ``check_season_rules(tournament)``: a Genius tournament's ``format_options`` checked as
  season rules when it is created or edited; refuses with a ``TournamentUserError``.
  Called by ``services.registration`` -> ``seasons.services.rules_for``.
- ``season_match_decided(match)``: a Death Match or a season's final was decided (from its
  games or by the organiser): the season settles it (an elimination, the next episode, the
  champion). Called by ``services.results`` -> ``seasons.services.match_decided``.

Signals from outside tournaments, connected in the same place (``tournaments.receivers``):

- ``games.signals.game_finished`` (a hosted game ended) -> a season's main match
  (``seasons.services.main_match_game_finished``) or a match's game
  (``services.results.game_result_recorded``).
- ``games.signals.runs_game_tournament`` (who may steer a game: does this user organise its
  tournament?) -> ``core.permissions.organises_game``.
- ``hosting.core.roles.role_changed`` (a role granted or revoked) -> the audit log
  (``core.audit.record_role_change``): the shared core imports no app.
- ``tournaments.events.tournament_event`` (after the commit) -> the webhooks
  (``webhooks.services.on_tournament_event``); model saves -> the live pages (``live``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    """One call from a lower layer into the single function an upper layer connected."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._receiver: Callable[..., Any] | None = None

    def connect(self, receiver: Callable[..., Any]) -> None:
        if self._receiver is not None and self._receiver is not receiver:
            raise RuntimeError(f"the hook {self.name} is already connected to {self._receiver}")
        self._receiver = receiver

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._receiver is None:
            raise RuntimeError(f"nothing is connected to the hook {self.name}")
        return self._receiver(*args, **kwargs)


check_season_rules = Hook("check_season_rules")
season_match_decided = Hook("season_match_decided")
