"""Matches played as hosted games: results flow back from finished games by themselves."""

import pytest

from games import services as game_services
from games.models import GameSession
from tests.games.hosting_helpers import FakeClock
from tests.tournaments.builders import started
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


def play_out(game: GameSession, clock: FakeClock, callbacks) -> None:
    """Let every clock run out until the game ends (each timeout plays the lowest card)."""
    with callbacks(execute=True):
        while GameSession.objects.get(pk=game.pk).status == "running":
            clock.advance(11)
            game_services.enforce_deadline(game_id=game.pk)


def test_a_best_of_three_final_is_played_as_games_and_decides_the_tournament(
    clock, django_capture_on_commit_callbacks
):
    # Three level High Card games (a deal can make them) go to the better seed: at most three.
    ruleset = {"undecided": "higher_seed"}
    tournament, stage, _ = started("single_elimination", 2, online=True, best_of=3, ruleset=ruleset)
    match = stage.matches.get(code="W1.1")
    assert match.status == Match.Status.LIVE
    first = match.match_games.get().game
    assert first.status == "running"
    assert sorted(first.seats.values_list("user__username", flat=True)) == ["p1", "p2"]
    played = 0
    while Match.objects.get(pk=match.pk).status == Match.Status.LIVE:
        game = Match.objects.get(pk=match.pk).match_games.order_by("-number").first().game
        play_out(game, clock, django_capture_on_commit_callbacks)
        played += 1
    match.refresh_from_db()
    assert 2 <= played <= 3 and match.status == Match.Status.FINISHED
    # a High Card draw counts half
    decided_by_seed = match.extra.get("decided_by") == "higher_seed"
    assert max(match.home_score, match.away_score) >= 2 or decided_by_seed
    assert match.metrics["scores"][0] + match.metrics["scores"][1] > 0
    homes = list(match.match_games.values_list("home_seat", flat=True))
    assert homes[:2] == [0, 1]  # sides alternate between games
    tournament.refresh_from_db()
    assert tournament.status == "finished"
