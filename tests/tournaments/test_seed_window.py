"""A tournament game's seed window: its players, whose seats are reserved, each send a client
seed before the deal (games.fairness), so neither the server nor the organiser alone decides
a match's shuffle. The game starts as soon as every player has sent one, or when the window
ends, by the server's clock (a Celery timer, the overdue sweep, any read)."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from games import fairness
from games import services as game_services
from games.engines.base import StepRng
from games.models import GameSession
from games.tasks import sweep_overdue
from tests.games.hosting_helpers import FakeClock, celery_worker, wait_for
from tests.tournaments.builders import started
from tournaments.models import Match

JSON = "application/json"


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


def as_player(user) -> APIClient:
    client = APIClient(enforce_csrf_checks=False)
    client.force_authenticate(user)
    return client


def match_game(stage) -> GameSession:
    return stage.matches.get(code="W1.1").match_games.get().game


def player_in_seat(game: GameSession, number: int):
    return game.seats.get(number=number).user


@pytest.mark.django_db
def test_a_match_game_deals_from_both_players_client_seeds(
    clock, client, django_capture_on_commit_callbacks
):
    # A level game (the server's random seed may deal one) goes to the better seed, so that
    # the one game decides the match.
    _, stage, _ = started(
        "single_elimination",
        2,
        online=True,
        seed_window_seconds=60,
        ruleset={"undecided": "higher_seed"},
    )
    game = match_game(stage)
    assert stage.matches.get(code="W1.1").status == Match.Status.LIVE
    # Waiting, its deal not yet made, the commitment and the window's end in every view.
    assert game.status == "waiting" and game.state is None and not game.effective_seed
    first, second = as_player(player_in_seat(game, 0)), as_player(player_in_seat(game, 1))
    shown = first.get(f"/api/games/{game.pk}/").json()
    assert shown["seed_sha256"] == game.seed_sha256 and shown["seat"] == 0
    assert shown["seed_window_ends"] == pytest.approx(clock() + 60, abs=0.01)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="seed-window"' in page and "seed_window_ends" in page

    url = f"/api/games/{game.pk}/client-seed"
    # Refusals change nothing: a bad seed, a spectator, an unknown game.
    assert first.post(url, {"client_seed": "two words"}, format="json").status_code == 400
    assert first.post(url, {}, format="json").status_code == 400
    assert client.post(url, {"client_seed": "abc"}, JSON).status_code == 403
    unknown = first.post("/api/games/999999/client-seed", {"client_seed": "a"}, format="json")
    assert unknown.status_code == 404

    with django_capture_on_commit_callbacks(execute=True):
        answer = first.post(url, {"client_seed": "first-3f9a0c1e"}, format="json")
        assert answer.status_code == 200 and answer.json()["status"] == "waiting"
        # A player may change theirs until the deal.
        first.post(url, {"client_seed": "first-77aa"}, format="json")
        assert GameSession.objects.get(pk=game.pk).status == "waiting"
        answer = second.post(url, {"client_seed": "second-b2c4"}, format="json")
    assert answer.status_code == 200
    started_game = answer.json()
    assert started_game["status"] == "running" and "seed_window_ends" not in started_game
    assert "view" in started_game  # the seat's own cards: the deal is made

    game = GameSession.objects.get(pk=game.pk)
    effective = fairness.effective_seed(bytes.fromhex(game.seed), ["first-77aa", "second-b2c4"])
    assert game.effective_seed == effective.hex()
    engine = game_services.engine_for(game.engine)
    assert game.state == engine.setup(game.config, 2, StepRng(effective, 0))
    assert game.next_deadline is not None  # now the clocks' deadline

    # The deal is fixed: no seed is sent or changed now (the claim path says the same).
    late = first.post(url, {"client_seed": "again"}, format="json")
    assert late.status_code == 409 and late.json()["error"] == "deal_fixed"
    claim = first.post(f"/api/games/{game.pk}/seats/0/claim", {"client_seed": "x"}, format="json")
    assert claim.status_code == 409 and claim.json()["error"] == "deal_fixed"

    with django_capture_on_commit_callbacks(execute=True):
        while GameSession.objects.get(pk=game.pk).status == "running":
            clock.advance(11)
            game_services.enforce_deadline(game_id=game.pk)
    report = client.get(f"/api/games/{game.pk}/verify").json()
    assert report["verified"] is True
    assert report["client_seed_message"] == '["first-77aa","second-b2c4"]'
    assert report["effective_seed"] == effective.hex()
    assert stage.matches.get(code="W1.1").status == Match.Status.FINISHED


@pytest.mark.django_db
def test_a_reserved_players_claim_sends_their_seed_too(clock):
    _, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=60)
    game = match_game(stage)
    for number in (0, 1):
        player = as_player(player_in_seat(game, number))
        claimed = player.post(
            f"/api/games/{game.pk}/seats/{number}/claim",
            {"client_seed": f"c{number}"},
            format="json",
        )
        assert claimed.status_code == 201
    assert claimed.json()["state"]["status"] == "running"
    game = GameSession.objects.get(pk=game.pk)
    seeds = ["c0", "c1"]
    assert game.effective_seed == fairness.effective_seed(bytes.fromhex(game.seed), seeds).hex()


@pytest.mark.django_db
def test_the_window_ends_by_the_server_clock_with_the_seeds_that_came(clock):
    _, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=30)
    game = match_game(stage)
    as_player(player_in_seat(game, 1)).post(
        f"/api/games/{game.pk}/client-seed", {"client_seed": "only-me"}, format="json"
    )
    clock.advance(29)
    assert game_services.enforce_deadline(game_id=game.pk) == 0
    assert GameSession.objects.get(pk=game.pk).status == "waiting"
    clock.advance(1.5)
    # A read finds the window over and deals: the absent player's part is "".
    assert game_services.fresh_game(game_id=game.pk).status == "running"
    game = GameSession.objects.get(pk=game.pk)
    seeds = ["", "only-me"]
    assert game.effective_seed == fairness.effective_seed(bytes.fromhex(game.seed), seeds).hex()
    assert game_services.enforce_deadline(game_id=game.pk) == 0  # dealt once


@pytest.mark.django_db
def test_the_beat_sweep_deals_a_window_whose_timer_was_lost():
    _, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=1)
    game = match_game(stage)
    assert sweep_overdue() == 0  # not yet due
    time.sleep(max(0.0, game.next_deadline.timestamp() - time.time()) + 0.05)
    assert sweep_overdue() == 1
    game = GameSession.objects.get(pk=game.pk)
    assert game.status == "running"
    assert game.effective_seed == fairness.effective_seed(bytes.fromhex(game.seed), ["", ""]).hex()


@pytest.mark.django_db
def test_a_window_of_zero_deals_at_once():
    _, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=0)
    game = match_game(stage)
    assert game.status == "running" and game.effective_seed


@pytest.mark.django_db(transaction=True)
def test_a_game_whose_player_never_comes_starts_at_the_windows_end_by_the_worker(
    redis_url, celery_queue
):
    with celery_worker(celery_queue):
        _, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=1)
        game = match_game(stage)
        window_ends = game.next_deadline
        as_player(player_in_seat(game, 0)).post(
            f"/api/games/{game.pk}/client-seed", {"client_seed": "here-early"}, format="json"
        )
        # Nobody calls the server: the ETA task the window armed deals on time.
        assert wait_for(lambda: GameSession.objects.get(pk=game.pk).status == "running", 5)
    game = GameSession.objects.get(pk=game.pk)
    assert 0 <= (game.started - window_ends).total_seconds() < 1.0
    seeds = ["here-early", ""]
    assert game.effective_seed == fairness.effective_seed(bytes.fromhex(game.seed), seeds).hex()
