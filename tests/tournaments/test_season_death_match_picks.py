"""Death Match variants: the game drawn by lottery from a pool, or left by bans of the ECs and
DMOs in turn (each a timed step), several ECs in one episode, and a DM Advantage (the first
seat) carried into the hosted game."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from hosting.core.errors import Conflict, Forbidden
from tests.tournaments.builders import open_tournament
from tests.tournaments.test_genius_season import RULES
from tournaments.models import AuditEntry, DeathMatchPick, Episode
from tournaments.seasons import death_match_picks as picks
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db
POOL = ["color_clash", "drafting_trios", "dropmix", "high_card"]


def _to_opponents(tournament, episode, *, ecs: int = 1):
    """The top seed wins the MM; the winners name the bottom seeds EC (no token to give)."""
    host = tournament.organiser
    players = list(tournament.entrants.filter(eliminated_in__isnull=True).order_by("seed"))
    winners = players[: len(players) - ecs - 1]
    losers = players[len(winners) :]
    seasons.main_match_record(
        episode=episode,
        by=host,
        winners=[p.pk for p in winners],
        losers=[p.pk for p in losers],
    )
    episode.refresh_from_db()
    if episode.status == Episode.Status.CANDIDATES:
        seasons.candidates_choose(episode=episode, by=host, chosen=[p.pk for p in players[-ecs:]])
    episode.refresh_from_db()
    return players


def test_a_lottery_draws_one_game_of_the_pool_and_the_board_says_so(client):
    tournament, _ = open_tournament("genius", 5, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    with pytest.raises(Forbidden):
        picks.pick_open(
            episode=episode, by=tournament.entrants.first().user, mode="lottery", pool=POOL
        )
    pick = picks.pick_open(episode=episode, by=tournament.organiser, mode="lottery", pool=POOL)
    episode.refresh_from_db()
    assert pick.chosen in POOL and episode.dm_engine == pick.chosen
    drawn = AuditEntry.objects.get(action="tournaments.season.dm_pick.drawn")
    assert drawn.data["pool"] == POOL and drawn.data["game"] == pick.chosen
    html = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "drawn by lottery from a pool of 4" in html


def test_two_ecs_ban_in_turn_with_their_dmos_and_a_late_step_is_banned_for_them():
    tournament, _ = open_tournament("genius", 7, format_options=RULES | {"ec_count": 2})
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    picks.pick_open(episode=episode, by=host, mode="bans", pool=POOL, step_seconds=60)
    players = _to_opponents(tournament, episode, ecs=2)
    ec1, ec2 = episode.ecs
    assert len(episode.ecs) == 2
    # The one loser left is unprotected; once picked, the ToL holders can be picked too.
    free = [p for p in players if p.pk not in episode.ecs]
    free.sort(key=lambda p: bool(episode.tokens.get(str(p.pk))))
    seasons.opponent_choose(episode=episode, by=host, ec=ec1, dmo=free[0].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.OPPONENTS  # the second EC has not picked yet
    seasons.opponent_choose(episode=episode, by=host, ec=ec2, dmo=free[1].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DM_PICK
    pick = DeathMatchPick.objects.get(episode=episode)
    assert pick.order == [ec1, free[0].pk, ec2, free[1].pk] and pick.banner == ec1
    assert not tournament.stages.get().matches.exists()  # no DM before the bans end
    with pytest.raises(Conflict, match="not this player's turn"):
        picks.ban(episode=episode, by=free[0].user, entrant=free[0].pk, game="dropmix")
    ec1_user = tournament.entrants.get(pk=ec1).user
    picks.ban(episode=episode, by=ec1_user, entrant=ec1, game="dropmix")
    # The DMO lets the step run out: a random game is banned for them.
    DeathMatchPick.objects.filter(pk=pick.pk).update(
        step_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert picks.ban_timeout(pick_id=pick.pk, step=1) is True
    assert picks.ban_timeout(pick_id=pick.pk, step=1) is False  # delivered twice: once only
    pick.refresh_from_db()
    assert pick.banned[1]["timed_out"] and pick.banner == ec2
    left = pick.remaining
    client = Client()
    client.force_login(tournament.entrants.get(pk=ec2).user)
    answer = client.post(
        f"/api/tournaments/{tournament.slug}/episodes/1/dm-ban",
        {"game": left[0]},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DEATH_MATCH
    assert episode.dm_engine == left[1]
    matches = tournament.stages.get().matches.order_by("code")
    assert [m.code for m in matches] == ["E1.DM1", "E1.DM2"]
    assert all(m.extra["game"]["engine"] == left[1] for m in matches)


def test_the_dm_advantage_seats_its_holder_first_in_the_hosted_game():
    tournament, _ = open_tournament("genius", 4, format_options=RULES, online=True)
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    picks.pick_open(
        episode=episode, by=host, mode="bans", pool=["high_card", "color_clash"], step_seconds=60
    )
    players = _to_opponents(tournament, episode)
    (ec,) = episode.ecs
    dmo = next(p for p in players if p.pk != ec and not episode.tokens.get(str(p.pk)))
    # The main match gave the DMO the DM Advantage: the first seat.
    picks.advantage_give(episode=episode, by=host, entrant=dmo.pk)
    seasons.opponent_choose(episode=episode, by=host, ec=ec, dmo=dmo.pk)
    episode.refresh_from_db()
    ec_user = tournament.entrants.get(pk=ec).user
    picks.ban(episode=episode, by=ec_user, entrant=ec, game="color_clash")
    match = tournament.stages.get().matches.get(code="E1.DM1")
    assert match.extra["first_seat"] == dmo.pk and match.home_id == ec
    game = match.match_games.get(number=1)
    assert game.home_seat == 1  # the EC (home) sits second: the DMO has seat 0
    seat_0 = game.game.seats.get(number=0)
    assert seat_0.user_id == dmo.user_id and game.game.engine == "high_card"
