"""The home page is a lobby (the three games and their ways in, live games, tournaments
linked with their game's name, a player's turn and next matches first) and ``/u/<name>/``
a player's page (games per game, results with replays, tournaments with placements)."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services as game_services
from games.models import GameSession
from tests.tournaments.builders import open_tournament, started, user
from tests.tournaments.test_api import client_for, post
from tests.tournaments.test_standings_by_format import by_seed, play_out
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_home_page_offers_the_three_games_and_their_ways_in():
    page = Client().get("/").content.decode()
    for key, name in (
        ("color_clash", "Color Clash"),
        ("drafting_trios", "Drafting Trios"),
        ("dropmix", "DropMix Clash"),
    ):
        assert f'href="/play/?game={key}"' in page and f"Play {name}" in page
    assert "Quick match" in page
    assert 'href="/play/"' in page and 'href="/games/"' in page  # the header: play, watch
    assert 'href="/u/me/"' in page  # a guest's games of this browser
    assert "Organise" not in page and "Disputes" not in page


def test_tournaments_are_links_with_their_games_name_not_its_engine_key():
    register_open, _players = open_tournament("swiss", 4, game="drafting_trios")
    Tournament.objects.filter(pk=register_open.pk).update(visibility="public")
    page = Client().get("/").content.decode()
    assert f'href="/tournaments/{register_open.slug}/"' in page
    assert "Drafting Trios" in page and "· drafting_trios" not in page
    assert "Starting soon" in page


def test_a_players_turn_and_next_match_come_first(django_user_model):
    tournament, _stage, players = started("single_elimination", 4, online=True)
    player = players[0].user
    client = Client()
    client.force_login(player)
    page = client.get("/").content.decode()
    assert "Waiting for you" in page and "Your next matches" in page
    assert page.index("Waiting for you") < page.index("Play now")
    assert tournament.name in page
    # The organiser sees the organiser's and disputes' links in the header.
    host = Client()
    host.force_login(tournament.organiser)
    header = host.get("/").content.decode()
    assert 'href="/tournaments/mine/"' in header and 'href="/admin/disputes/"' in header


def test_a_running_game_on_the_home_page_says_whose_turn_it_is(django_user_model):
    alice = django_user_model.objects.create_user("alice")
    bob = django_user_model.objects.create_user("bob")
    game = game_services.game_create(
        engine_key="drafting_trios",
        seats=[game_services.SeatSpec(user=alice), game_services.SeatSpec(user=bob)],
    )
    game_services.game_start(by=None, game_id=game.pk)
    for person in (alice, bob):
        client = Client()
        client.force_login(person)
        page = client.get("/").content.decode()
        assert f'href="/games/{game.pk}/"' in page
        assert "Your turn" in page  # Trios drafts at the same time: both act
    watcher = Client().get("/").content.decode()
    assert "Watch live games" in watcher and f'href="/games/{game.pk}/"' in watcher


def test_a_profile_lists_games_per_game_results_and_placements():
    tournament, players = open_tournament("single_elimination", 4)
    Tournament.objects.filter(pk=tournament.pk).update(visibility="public")
    post(client_for(tournament.organiser), f"/api/tournaments/{tournament.slug}/start")
    play_out(tournament, by_seed(players))
    champion = players[0].user
    page = Client().get(f"/u/{champion.username}/").content.decode()
    assert f'href="/tournaments/{tournament.slug}/"' in page and "Placed 1" in page
    assert "Your games in progress" not in page  # the owner's part only


def test_a_profile_counts_finished_games_and_links_their_replays(django_user_model):
    alice = django_user_model.objects.create_user("alice")
    game = game_services.game_create(
        engine_key="color_clash",
        seats=[
            game_services.SeatSpec(user=alice),
            game_services.SeatSpec(kind="computer"),
        ],
    )
    game_services.game_start(by=None, game_id=game.pk)
    GameSession.objects.filter(pk=game.pk).update(
        status=GameSession.Status.FINISHED,
        outcome={"winners": [0], "ranking": [[0], [1]], "scores": {"0": 120, "1": 0}},
    )
    own = Client()
    own.force_login(alice)
    page = own.get("/u/alice/").content.decode()
    assert "Color Clash" in page and "1 game, 1 won" in page
    assert f'href="/games/{game.pk}/replay"' in page and "120 points" in page
    assert "Your games in progress" in page and "Challenges" in page
    assert own.get("/u/me/")["Location"] == "/u/alice/"
    assert Client().get("/u/nobody-at-all/").status_code == 404
    other = Client()
    other.force_login(user("carol"))
    assert 'id="send-challenge"' in other.get("/u/alice/").content.decode()


def test_a_guests_games_of_this_browser():
    guest = Client()
    response = guest.post("/play/practice", {"computers": "1"})
    game_id = int(response["Location"].split("/")[2])
    page = guest.get("/u/me/").content.decode()
    assert f'href="/games/{game_id}/"' in page
    assert f'href="/games/{game_id}/"' in guest.get("/").content.decode()
    assert f'href="/games/{game_id}/"' not in Client().get("/u/me/").content.decode()
