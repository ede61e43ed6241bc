"""Disconnects, the grace period, substitutes and leaving."""

import pytest

from games import services
from games.models import GameSession, Seat
from tests.games.hosting_helpers import claim, create_game, organiser_client, register_tiny

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_id(django_user_model):
    register_tiny()
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, "high_card", 2)
    claim(game_id, 0)
    claim(game_id, 1)
    organiser.post(f"/api/games/{game_id}/start")
    return game_id


def seat(game_id: int, number: int) -> Seat:
    return Seat.objects.get(game_id=game_id, number=number)


def test_a_seat_back_within_the_grace_keeps_its_place_and_cards(game_id):
    services.mark_connected(game_id=game_id, seat=0)
    services.mark_disconnected(game_id=game_id, seat=0)
    since = seat(game_id, 0).disconnected_at.timestamp()
    services.mark_connected(game_id=game_id, seat=0)
    assert services.substitute_if_still_away(game_id=game_id, seat=0, since=since) is False
    assert seat(game_id, 0).kind == Seat.Kind.HUMAN


def test_a_seat_away_past_the_grace_is_taken_by_a_labelled_substitute(game_id):
    hand = GameSession.objects.get(pk=game_id).state["hands"][0]
    services.mark_connected(game_id=game_id, seat=0)
    services.mark_disconnected(game_id=game_id, seat=0)
    since = seat(game_id, 0).disconnected_at.timestamp()
    assert services.substitute_if_still_away(game_id=game_id, seat=0, since=since) is True
    substitute = seat(game_id, 0)
    assert substitute.kind == Seat.Kind.SUBSTITUTE and substitute.bot == "lowest"
    assert substitute.label().endswith("(Computer, substitute)")
    assert GameSession.objects.get(pk=game_id).state["hands"][0] == hand
    assert services.bot_act(game_id=game_id, seat=0, version=0) is True  # it plays on


def test_one_of_two_tabs_closing_is_not_a_disconnect(game_id):
    services.mark_connected(game_id=game_id, seat=1)
    services.mark_connected(game_id=game_id, seat=1)
    services.mark_disconnected(game_id=game_id, seat=1)
    assert seat(game_id, 1).connected


def test_every_closed_stream_is_counted_and_the_last_one_disconnects(game_id, monkeypatch):
    graces = []
    monkeypatch.setattr("games.services.commit.schedule_grace", lambda *args: graces.append(args))
    for _ in range(2):
        services.mark_connected(game_id=game_id, seat=1)
    services.mark_disconnected(game_id=game_id, seat=1)
    assert (seat(game_id, 1).connections, graces) == (1, [])
    services.mark_disconnected(game_id=game_id, seat=1)
    away = seat(game_id, 1)
    assert (away.connections, away.connected) == (0, False)
    since = away.disconnected_at.timestamp()
    assert graces == [(game_id, 1, since, since + 90)]
    services.mark_disconnected(game_id=game_id, seat=1)  # a stray close never goes below zero
    assert seat(game_id, 1).connections == 0


def test_streams_closing_after_the_end_schedule_no_substitute(game_id, monkeypatch):
    graces = []
    monkeypatch.setattr("games.services.commit.schedule_grace", lambda *args: graces.append(args))
    services.mark_connected(game_id=game_id, seat=0)
    GameSession.objects.filter(pk=game_id).update(status=GameSession.Status.FINISHED)
    services.mark_disconnected(game_id=game_id, seat=0)
    assert graces == [] and not seat(game_id, 0).connected


def test_leaving_hands_the_seat_to_a_substitute_at_once(game_id):
    player = Seat.objects.get(game_id=game_id, number=1)
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Seat nope")
    assert client.post(f"/api/games/{game_id}/leave").status_code == 403
    assert services.seat_leave(game_id=game_id, seat=player.number) is True
    assert seat(game_id, 1).kind == Seat.Kind.SUBSTITUTE
    assert services.seat_leave(game_id=game_id, seat=1) is False  # already substituted
