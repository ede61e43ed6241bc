"""How an episode's Death Match game is chosen, besides the host's own choice
(``services.death_match_setup``): by **lottery** from a pool, or from a pool by **bans**
(vetoes) of the ECs and DMOs in turn, each ban a timed step (a Celery task bans at random for
whoever lets the step's time run out). And the **DM Advantage** a main match may give: its
holder takes the first seat (who moves first) in game one of the Death Match they play.

Several ECs in one episode (``ec_count``) each pick their DMO; with bans, every EC and DMO
bans in turn (EC1, DMO1, EC2, DMO2, …) and the one game left is every Death Match's game.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engines
from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_episode
from tournaments.core.permissions import check_runs, runs
from tournaments.models import DeathMatchPick, Entrant, Episode
from tournaments.seasons import services as seasons
from tournaments.services.matches import engine_config

Status = Episode.Status


def _checked_pool(pool: list[str], seats: int) -> list[str]:
    games = list(dict.fromkeys(pool))
    if len(games) < 2:
        raise TournamentUserError(_("a pool holds at least two different games"))
    for key in games:
        if key not in engines.known_keys():
            raise TournamentUserError(
                _("unknown game %(game)r; games: %(games)s")
                % {"game": key, "games": ", ".join(engines.known_keys())}
            )
        played = engines.get(key)
        if not played.min_seats <= seats <= played.max_seats:
            raise TournamentUserError(
                _("this season's Death Match is a %(seats)s-player game; %(game)s is not")
                % {"seats": seats, "game": played.name}
            )
    return games


def pick_open(
    *, episode: Episode, by: Any, mode: str, pool: list[str], step_seconds: int = 300
) -> DeathMatchPick:
    """The host sets how this episode's DM game is chosen. A lottery draws at once; bans
    start when every DMO is picked."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.kind == Episode.Kind.FINAL or episode.status not in seasons.DM_SETUP_STATUSES:
            raise Conflict(_("this episode's Death Match has begun; its settings stay as they are"))
        if mode not in DeathMatchPick.Mode.values:
            raise TournamentUserError(
                _("a pick is one of: %(modes)s") % {"modes": ", ".join(DeathMatchPick.Mode.values)}
            )
        if not 10 <= step_seconds <= 7 * 24 * 3600:
            raise TournamentUserError(_("a ban step lasts from 10 seconds to a week"))
        games = _checked_pool(pool, seasons.rules_for(tournament).dm_players)
        DeathMatchPick.objects.filter(episode=episode).delete()
        pick = DeathMatchPick.objects.create(
            episode=episode, mode=mode, pool=games, step_seconds=step_seconds
        )
        if mode == DeathMatchPick.Mode.LOTTERY:
            pick.chosen = secrets.choice(games)
            pick.save(update_fields=["chosen"])
            _use(episode, pick.chosen)
            audit.log(
                tournament,
                by,
                "season.dm_pick.drawn",
                episode=episode.number,
                pool=games,
                game=pick.chosen,
            )
        else:
            audit.log(
                tournament, by, "season.dm_pick.bans_opened", episode=episode.number, pool=games
            )
        return pick


def _use(episode: Episode, game: str) -> None:
    """The chosen game, played with the season's own config when it is the season's game."""
    tournament = episode.tournament
    config = engine_config(tournament.ruleset) if game == tournament.game else {}
    episode.dm_engine, episode.dm_ruleset = game, config
    episode.save(update_fields=["dm_engine", "dm_ruleset"])


def ban(*, episode: Episode, by: Any, entrant: int, game: str) -> DeathMatchPick:
    """The EC or DMO whose turn it is bans one game (the host may ban for them)."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        pick = DeathMatchPick.objects.select_for_update().filter(episode=episode).first()
        if pick is None or episode.status != Status.DM_PICK:
            raise Conflict(_("no Death Match game is being banned now"))
        if pick.banner != entrant:
            raise Conflict(_("it is not this player's turn to ban"))
        owner = Entrant.objects.get(pk=entrant)
        if getattr(by, "pk", None) != owner.user_id and not runs(tournament, by):
            raise Forbidden(_("players ban for themselves"))
        if game not in pick.remaining:
            raise TournamentUserError(
                _("%(game)r is not left in the pool; left: %(left)s")
                % {"game": game, "left": ", ".join(pick.remaining)}
            )
        _banned(tournament, episode, pick, by, entrant, game, timed_out=False)
        return pick


def ban_timeout(*, pick_id: int, step: int) -> bool:
    """The step's time ran out: a random game is banned for the player whose turn it was."""
    with transaction.atomic():
        pick = DeathMatchPick.objects.filter(pk=pick_id).first()
        if pick is None:
            return False
        tournament, episode = lock_episode(pick.episode)
        pick = DeathMatchPick.objects.select_for_update().get(pk=pick_id)
        if (
            episode.status != Status.DM_PICK
            or pick.chosen
            or len(pick.banned) != step
            or pick.step_deadline is None
            or timezone.now() < pick.step_deadline
        ):
            return False
        game = secrets.choice(pick.remaining)
        _banned(tournament, episode, pick, None, pick.banner, game, timed_out=True)
        return True


def _banned(tournament, episode, pick, by, entrant, game, *, timed_out: bool) -> None:  # type: ignore[no-untyped-def]
    pick.banned = [*pick.banned, {"by": entrant, "game": game, "timed_out": timed_out}]
    audit.log(
        tournament,
        by,
        "season.dm_pick.banned",
        episode=episode.number,
        entrant=entrant,
        game=game,
        timed_out=timed_out,
    )
    left = pick.remaining
    if len(left) == 1:
        pick.chosen, pick.step_deadline = left[0], None
        pick.save(update_fields=["banned", "chosen", "step_deadline"])
        _use(episode, pick.chosen)
        episode.status = Status.DEATH_MATCH
        episode.save(update_fields=["status"])
        audit.log(tournament, None, "season.dm_pick.chosen", episode=episode.number, game=left[0])
        seasons._create_death_matches(tournament, episode)
        return
    pick.step_deadline = timezone.now() + timedelta(seconds=pick.step_seconds)
    pick.save(update_fields=["banned", "step_deadline"])
    seasons.arm_ban_timeout(pick)


def advantage_give(*, episode: Episode, by: Any, entrant: int | None) -> None:
    """The host records the DM Advantage the main match gave (``None`` takes it away): its
    holder takes the first seat of game one in the Death Match they play this episode."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.kind == Episode.Kind.FINAL or episode.status not in seasons.DM_SETUP_STATUSES:
            raise Conflict(_("this episode's Death Match has begun; its settings stay as they are"))
        if entrant is not None and entrant not in seasons.season_for(tournament).players:
            raise TournamentUserError(_("only players still in the season take part"))
        episode.dm_advantage_id = entrant
        episode.save(update_fields=["dm_advantage"])
        audit.log(tournament, by, "season.dm_advantage", episode=episode.number, entrant=entrant)
