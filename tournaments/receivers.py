"""Every receiver tournaments connects, in one place: the signals it listens to and the
hooks (``tournaments.core.hooks``, where each is described) through which its write layer
reaches the seasons. ``TournamentsConfig.ready`` calls ``connect`` once."""

from __future__ import annotations

from games.signals import game_finished, runs_game_tournament
from hosting.core.roles import role_changed
from notifications import services as notification_services
from tournaments import live, notices
from tournaments.core import audit, hooks, permissions
from tournaments.events import tournament_event
from tournaments.seasons import services as seasons
from tournaments.seasons.signals import rules_changed
from tournaments.services.results import game_result_recorded
from tournaments.webhooks import services as webhooks


def connect() -> None:
    hooks.check_season_rules.connect(seasons.rules_for)
    hooks.season_match_decided.connect(seasons.match_decided)
    game_finished.connect(on_game_finished, dispatch_uid="tournaments.game_finished")
    role_changed.connect(audit.record_role_change, dispatch_uid="tournaments.role_changed")
    runs_game_tournament.connect(permissions.organises_game, dispatch_uid="tournaments.organises")
    live.connect()
    webhooks.connect()
    tournament_event.connect(notices.on_tournament_event, dispatch_uid="tournaments.notices")
    notification_services.connect_discord(notices.post_to_discord)
    rules_changed.connect(notices.on_rules_changed, dispatch_uid="tournaments.rules_notices")


def on_game_finished(sender: object, game_id: int, **kwargs: object) -> None:
    """A hosted game ended: a season's main match, or one of a match's games."""
    if not seasons.main_match_game_finished(game_id=game_id):
        game_result_recorded(game_id=game_id)
