"""A three-player Death Match on Color Clash: the EC picks two DMOs, the hosted game seats all
three, and its last place is eliminated."""

import pytest
from django.test import Client

from games import engines
from games import services as game_services
from games.models import GameSession
from hosting.core.errors import Conflict
from tests.tournaments.builders import open_tournament
from tests.tournaments.test_genius_season import RULES
from tournaments import checks, services
from tournaments.core.errors import TournamentUserError
from tournaments.models import Entrant, Episode
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def play_out(game_id: int) -> GameSession:
    """Each seat to act takes its first legal move until the game ends."""
    engine = None
    for _ in range(20000):
        game = GameSession.objects.get(pk=game_id)
        if game.is_over:
            return game
        engine = engine or engines.get(game.engine)
        seat = sorted(engine.to_act(game.state))[0]
        game_services.act(
            game_id=game_id, seat=seat, action=engine.legal_actions(game.state, seat)[0]
        )
    raise AssertionError("the game did not end")


def test_a_three_player_death_match_on_color_clash_eliminates_its_last_place(
    django_capture_on_commit_callbacks,
):
    tournament, cast = open_tournament(
        "genius",
        5,
        online=True,
        game="color_clash",
        ruleset={"match": "one_round"},
        format_options=RULES | {"dm_players": 3},
    )
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    with pytest.raises(TournamentUserError, match="3-player game"):
        seasons.death_match_setup(episode=episode, by=host, engine="drafting_trios")
    seasons.death_match_setup(
        episode=episode, by=host, engine="color_clash", config={"match": "one_round"}
    )
    # p1 and p2 win the MM (a ToL each); p5 is named EC and picks p3, then p4.
    seasons.main_match_record(
        episode=episode,
        by=host,
        winners=[cast[0].pk, cast[1].pk],
        losers=[p.pk for p in cast[2:]],
    )
    seasons.candidates_choose(episode=episode, by=host, chosen=[cast[4].pk])
    episode.refresh_from_db()
    seasons.opponent_choose(episode=episode, by=cast[4].user, ec=cast[4].pk, dmo=cast[2].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.OPPONENTS  # one more DMO to pick
    assert seasons.opponents_left(tournament, episode, cast[4].pk) == [cast[3].pk]
    with pytest.raises(TournamentUserError, match="Token of Life"):
        seasons.opponent_choose(episode=episode, by=cast[4].user, ec=cast[4].pk, dmo=cast[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        seasons.opponent_choose(episode=episode, by=cast[4].user, ec=cast[4].pk, dmo=cast[3].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DEATH_MATCH
    match = tournament.stages.get().matches.get(code="E1.DM1")
    assert match.slots == [cast[4].pk, cast[2].pk, cast[3].pk]
    with pytest.raises(Conflict, match="three-player"):
        services.match_report_result(match=match, by=host, winner=cast[4])
    game = match.match_games.get().game
    assert game.engine == "color_clash" and game.seats.count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        finished = play_out(game.pk)
    match.refresh_from_db()
    assert match.status == "finished"
    last_seats = finished.outcome["ranking"][-1]
    seated = dict(finished.seats.values_list("number", "user_id"))
    losers = {Entrant.objects.get(tournament=tournament, user_id=seated[s]).pk for s in last_seats}
    assert match.loser_id in losers
    assert Entrant.objects.get(pk=match.loser_id).eliminated_in == 1
    assert tournament.episodes.filter(number=2).exists()
    assert [p for _, p in checks.all_problems()] == [[]]
    html = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Three players: p5, p3, p4; the last place is eliminated." in html
