"""Who may take, use and keep a seat: invites, reserved seats, guests' CSRF, leaving."""

import re

import pytest
from rest_framework.test import APIClient

from games.models import Seat
from tests.games.hosting_helpers import (
    FakeClock,
    claim,
    create_game,
    invite,
    organiser_client,
    register_tiny,
)
from tests.tournaments.builders import started as started_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.now", fake)
    return fake


@pytest.fixture
def engine():
    return register_tiny()


@pytest.fixture
def organiser(django_user_model):
    return organiser_client(django_user_model)


def signed_in(django_user_model, username: str) -> APIClient:
    client = APIClient()
    client.force_login(django_user_model.objects.create_user(username, password="pw-12345-xyz"))
    return client


def claim_url(game_id: int, seat: int) -> str:
    return f"/api/games/{game_id}/seats/{seat}/claim"


def test_the_creator_alone_gets_the_invite_and_its_link(organiser, engine, django_user_model):
    created = organiser.post(
        "/api/games/", {"engine": "high_card", "seats": [{}, {}]}, format="json"
    ).json()
    game_id, secret = created["game"], created["invite"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", secret)  # URL-safe, 256 bits
    assert created["invite_url"] == f"http://testserver/games/{game_id}/?invite={secret}"
    # The creator can be shown the link again; nobody else ever sees it.
    assert organiser.get(f"/api/games/{game_id}/").json()["invite"] == secret
    other = organiser_client(django_user_model, "other-organiser")
    for client in (APIClient(), other):
        shown = client.get(f"/api/games/{game_id}/").json()
        assert "invite" not in shown and "invite_url" not in shown
        assert secret not in str(shown)
    # Nothing stored in the row is the invite itself.
    assert secret not in str(list(Seat.objects.filter(game_id=game_id).values()))


def test_an_open_seat_needs_the_games_invite(organiser, engine, clock):
    game_id = create_game(organiser, "high_card", 2)
    squatter = APIClient()
    for body in (
        {},
        {"invite": "guessed"},
        {"invite": invite(create_game(organiser, "high_card", 2))},
    ):
        refused = squatter.post(claim_url(game_id, 0), body, format="json")
        assert refused.status_code == 403, refused.content
        assert refused.json()["error"] == "permission_denied"
    bad = squatter.post(claim_url(game_id, 0), {"invite": 7}, format="json")
    assert bad.status_code == 400 and "invite" in bad.json()["fields"]
    seats = APIClient().get(f"/api/games/{game_id}/").json()["seats"]
    assert [s["claimed"] for s in seats] == [False, False]  # the seat stays free
    assert Seat.objects.get(game_id=game_id, number=0).guest_id == ""
    with_invite = squatter.post(claim_url(game_id, 0), {"invite": invite(game_id)}, format="json")
    assert with_invite.status_code == 201


def test_a_seat_named_for_a_player_is_theirs_alone(organiser, engine, clock, django_user_model):
    ann = signed_in(django_user_model, "ann")
    bob = signed_in(django_user_model, "bob")
    body = {"engine": "high_card", "seats": [{"user": "ann"}, {}]}
    created = organiser.post("/api/games/", body, format="json").json()
    game_id = created["game"]
    assert created["seats"][0]["name"] == "ann" and created["seats"][0]["claimed"]
    # Not bob, not a guest, not even with the invite.
    for client in (bob, APIClient()):
        refused = client.post(claim_url(game_id, 0), {"invite": created["invite"]}, format="json")
        assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"
    assert Seat.objects.get(game_id=game_id, number=0).user.username == "ann"
    # Ann holds it already (her session plays it); claiming it gives her a bot token.
    assert ann.get(f"/api/games/{game_id}/").json()["seat"] == 0
    token = ann.post(claim_url(game_id, 0), {}, format="json")
    assert token.status_code == 201 and token.json()["seat"] == 0 and token.json()["token"]


def test_a_seat_for_an_unknown_player_or_a_computer_is_refused(organiser, engine):
    unknown = organiser.post(
        "/api/games/", {"engine": "high_card", "seats": [{"user": "nobody"}, {}]}, format="json"
    )
    assert unknown.status_code == 400 and "seats" in unknown.json()["fields"]


def test_a_tournament_games_seats_are_its_players_alone(clock, django_user_model):
    register_tiny()
    _, stage, _ = started_tournament("single_elimination", 2, online=True)
    game = stage.matches.get(code="W1.1").match_games.get().game
    intruder = signed_in(django_user_model, "intruder")
    for client in (intruder, APIClient()):
        refused = client.post(claim_url(game.pk, 0), {"invite": invite(game.pk)}, format="json")
        assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"


def test_a_guest_who_claims_by_session_can_play_with_the_csrf_cookie(organiser, engine, clock):
    game_id = create_game(organiser, "high_card", 2)
    guest = APIClient(enforce_csrf_checks=True)
    claimed = guest.post(claim_url(game_id, 0), {"invite": invite(game_id)}, format="json")
    assert claimed.status_code == 201
    assert "sessionid" in claimed.cookies and "csrftoken" in claimed.cookies
    claim(game_id, 1)
    organiser.post(f"/api/games/{game_id}/start")
    card = guest.get(f"/api/games/{game_id}/legal").json()["actions"][0]
    url = f"/api/games/{game_id}/actions"
    forged = guest.post(url, {"action": card}, format="json")  # no token: a cross-site post
    assert forged.status_code == 403
    csrf = guest.cookies["csrftoken"].value
    moved = guest.post(url, {"action": card}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert moved.status_code == 200, moved.content
    assert moved.json()["version"] == 1


def test_a_refused_claim_leaves_no_session_and_a_bot_needs_no_csrf(organiser, engine, clock):
    from django.contrib.sessions.models import Session

    game_id = create_game(organiser, "high_card", 2)
    sessions = Session.objects.count()
    refused = APIClient().post(claim_url(game_id, 0), {}, format="json")
    assert refused.status_code == 403 and Session.objects.count() == sessions
    body = {"invite": invite(game_id), "credential": "token"}
    bot = APIClient(enforce_csrf_checks=True).post(claim_url(game_id, 0), body, format="json")
    assert bot.status_code == 201 and "csrftoken" not in bot.cookies
    assert Session.objects.count() == sessions
