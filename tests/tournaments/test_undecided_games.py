"""A drawn or double-timeout game does not decide an elimination match: the ruleset says what
does (another game by default, or the better seed). "Ties go to the DMO" is a rule of Genius
Death Matches only. Hosted Drafting Trios games, whose clocks run out by hand."""

import pytest

from games import engines
from games import services as game_services
from games.models import GameSession
from tests.games.hosting_helpers import FakeClock
from tests.tournaments.builders import open_tournament, started
from tests.tournaments.test_api import client_for
from tournaments import services
from tournaments.models import AuditEntry, Match, Tournament
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db

ENGINE = engines.get("drafting_trios")
BOTH_RESERVES = 60 + 300 + 1  # a draft pick's allowance, then the whole reserve


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


@pytest.fixture
def run_out(clock, django_capture_on_commit_callbacks):
    """Let the clocks of ``game`` run out; ``mover`` (a seat) acts first and so stops its own
    clock: the other seat then times out alone. Results flow on to the tournament."""

    def run(game: GameSession, mover: int | None = None) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            if mover is not None:
                state = GameSession.objects.get(pk=game.pk).state
                action = ENGINE.legal_actions(state, mover)[0]
                game_services.act(game_id=game.pk, seat=mover, action=action)
            clock.advance(BOTH_RESERVES)
            game_services.enforce_deadline(game_id=game.pk)

    return run


def games_of(match: Match) -> list[GameSession]:
    return [link.game for link in match.match_games.order_by("number")]


def knockout(**ruleset):
    return started("single_elimination", 2, online=True, game="drafting_trios", ruleset=ruleset)


def test_a_double_timeout_is_replayed_in_a_knockout_by_default(run_out):
    tournament, stage, _ = knockout()
    final = stage.matches.get(code="W1.1")
    (first,) = games_of(final)
    run_out(first)
    assert GameSession.objects.get(pk=first.pk).outcome["details"]["decided_by"] == (
        "timeout_tie_dmo"
    )
    final.refresh_from_db()
    # The engine gave the game to seat 1 by the Death Match rule; here it settles nothing.
    assert final.status == "live" and (final.home_score, final.away_score) == (0.5, 0.5)
    first_game, replay = games_of(final)
    assert first_game == first
    # In the replay the home entrant sits in seat 1 (seats alternate); seat 1 moves first,
    # so seat 0, the away entrant, runs out of time and loses.
    link = final.match_games.get(game=replay)
    assert link.home_seat == 1
    run_out(replay, mover=1)
    final.refresh_from_db()
    assert final.status == "finished" and final.winner == final.home
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert services.standings(tournament=tournament)[0]["entrant"] == final.home_id


def test_the_ruleset_may_send_a_level_match_to_the_better_seed(run_out):
    _, stage, _ = knockout(undecided="higher_seed")
    final = stage.matches.get(code="W1.1")
    run_out(games_of(final)[0])
    final.refresh_from_db()
    assert final.status == "finished" and final.match_games.count() == 1
    assert final.winner.seed == 1 and final.extra["decided_by"] == "higher_seed"
    entry = AuditEntry.objects.get(action="tournaments.match.result_from_games")
    assert entry.data == {"match": "W1.1", "by": "higher_seed"}


def test_in_a_swiss_a_double_timeout_is_a_draw_for_both(run_out):
    tournament, stage, _ = started(
        "swiss", 2, online=True, game="drafting_trios", format_options={"rounds": 1}
    )
    match = stage.matches.get(code="S1.1")
    run_out(games_of(match)[0])
    match.refresh_from_db()
    assert match.result_kind == "draw" and match.winner is None
    assert [row["points"] for row in services.standings(tournament=tournament)] == [0.5, 0.5]


def test_a_genius_death_match_still_goes_to_the_dmo_but_the_final_is_replayed(run_out):
    tournament, cast = open_tournament(
        "genius", 3, online=True, game="drafting_trios", format_options={"final_best_of": 1}
    )
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    seasons.main_match_record(
        episode=episode, by=host, winners=[cast[0].pk, cast[1].pk], losers=[cast[2].pk]
    )
    seasons.opponent_choose(episode=episode, by=host, ec=cast[2].pk, dmo=cast[1].pk)
    death_match = Match.objects.get(code="E1.DM1")
    run_out(games_of(death_match)[0])
    death_match.refresh_from_db()
    assert death_match.winner_id == cast[1].pk  # the DMO wins the tie
    final = Match.objects.get(code="FINAL")
    run_out(games_of(final)[0])
    final.refresh_from_db()
    assert final.status == "live" and final.match_games.count() == 2  # no DMO in the final


def test_an_unknown_undecided_rule_is_refused_and_nothing_is_created():
    from hosting.core.roles import ORGANISER
    from tests.tournaments.builders import user

    host = client_for(user("host", ORGANISER))
    body = {
        "name": "K",
        "slug": "k",
        "game": "drafting_trios",
        "format": "single_elimination",
        "ruleset": {"undecided": "coin_toss"},
    }
    response = host.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "ruleset: undecided must be one of replay, higher_seed, got 'coin_toss'"
    )
    assert not Tournament.objects.exists()
