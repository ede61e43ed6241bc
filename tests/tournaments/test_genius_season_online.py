"""The whole Genius season again, with every Death Match and the final played as hosted
Drafting Trios games whose results flow back by themselves."""

import random

import pytest

from games import engines
from games import services as game_services
from games.models import GameSession
from tests.games.hosting_helpers import FakeClock
from tests.tournaments.builders import open_tournament
from tournaments.models import AuditEntry, Entrant, Match
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db(transaction=True)

RULES = {"ec_rule": "chosen_by_winners", "final_best_of": 3}
ENGINE = engines.get("drafting_trios")


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


def live_game(match: Match) -> GameSession:
    return match.match_games.order_by("-number").first().game


def both_clocks_run_out(game: GameSession, clock: FakeClock) -> None:
    """Nobody moves: both reserves hit zero at the same instant, which the DMO wins."""
    clock.advance(60 + 300 + 1)
    game_services.enforce_deadline(game_id=game.pk)


def play_randomly(game: GameSession, seed: int) -> None:
    rng = random.Random(seed)
    while (current := GameSession.objects.get(pk=game.pk)).status == "running":
        seat = rng.choice([s for s in (0, 1) if ENGINE.legal_actions(current.state, s)])
        action = rng.choice(ENGINE.legal_actions(current.state, seat))
        game_services.act(game_id=game.pk, seat=seat, action=action)


def still_in(tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(eliminated_in__isnull=True).order_by("seed"))


def test_a_six_player_season_with_drafting_trios_death_matches(clock):
    tournament, _ = open_tournament(
        "genius", 6, online=True, game="drafting_trios", format_options=RULES
    )
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    for number in (1, 2, 3, 4):
        episode = tournament.episodes.get(number=number)
        players = still_in(tournament)
        winner, ec = players[0], players[-1]
        seasons.main_match_record(
            episode=episode, by=host, winners=[winner.pk], losers=[p.pk for p in players[1:]]
        )
        seasons.candidates_choose(episode=episode, by=winner.user, chosen=[ec.pk])
        episode.refresh_from_db()
        if episode.status == "tokens":  # the sole winner's spare Token of Life protects #2
            seasons.token_give(
                episode=episode, by=winner.user, giver=winner.pk, receiver=players[1].pk
            )
            with pytest.raises(seasons.TournamentUserError, match="Token of Life"):
                seasons.opponent_choose(episode=episode, by=ec.user, ec=ec.pk, dmo=players[1].pk)
        dmo = players[2] if len(players) > 3 else players[1]
        seasons.opponent_choose(episode=episode, by=ec.user, ec=ec.pk, dmo=dmo.pk)
        match = Match.objects.get(code=f"E{number}.DM1")
        game = live_game(match)
        roles = {s.user_id: s.role for s in game.seats.all()}
        assert roles == {ec.user_id: "EC", dmo.user_id: "DMO"}
        if number == 1:
            both_clocks_run_out(game, clock)
        else:
            play_randomly(game, seed=number)
        match.refresh_from_db()
        assert match.status == "finished" and match.winner_id in (ec.pk, dmo.pk)
        assert Entrant.objects.get(pk=match.loser_id).eliminated_in == number

    tie = AuditEntry.objects.get(action="tournaments.season.eliminated", data__episode=1)
    assert tie.data["dmo_won_tie"] is True
    assert (
        GameSession.objects.get(pk=live_game(Match.objects.get(code="E1.DM1")).pk).outcome[
            "details"
        ]["decided_by"]
        == "timeout_tie_dmo"
    )

    final = Match.objects.get(code="FINAL")
    games_played = 0
    while Match.objects.get(pk=final.pk).status == "live":
        play_randomly(live_game(Match.objects.get(pk=final.pk)), seed=100 + games_played)
        games_played += 1
    final.refresh_from_db()
    assert final.status == "finished" and games_played >= 2
    assert max(final.home_score, final.away_score) == 2
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert still_in(tournament) == [final.winner]
    assert AuditEntry.objects.filter(action="tournaments.season.won").exists()
