"""Who may take, use and keep a seat: invites, reserved seats, guests' CSRF, leaving."""

import re

import pytest
from rest_framework.test import APIClient

from games.models import Seat
from tests.games.hosting_helpers import (
    bot_client,
    claim,
    create_game,
    invite,
    organiser_client,
    register_tiny,
)
from tests.tournaments.builders import started as started_tournament

pytestmark = pytest.mark.django_db


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


def started_pair(organiser) -> tuple[int, list]:
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    return game_id, players


def test_leaving_ends_the_seats_token_and_session(organiser, engine, clock):
    game_id, (leaver, other) = started_pair(organiser)
    by_token = bot_client(leaver.token)
    assert by_token.get(f"/api/games/{game_id}/").json()["view"]["hand"]
    assert leaver.client.post(f"/api/games/{game_id}/leave").status_code == 200
    card = {"type": "play", "card": 1}
    for client in (by_token, leaver.client):  # the token and the guest's session alike
        state = client.get(f"/api/games/{game_id}/").json()
        assert state["seat"] is None and "hand" not in state["view"] and "legal" not in state
        assert client.get(f"/api/games/{game_id}/legal").status_code == 403
        acted = client.post(f"/api/games/{game_id}/actions", {"action": card}, format="json")
        assert (
            acted.status_code == 403 and acted.json()["detail"] == "you hold no seat in this game"
        )
        assert client.post(f"/api/games/{game_id}/token").status_code == 403
        assert client.post(f"/api/games/{game_id}/leave").status_code == 403
    assert other.state(game_id)["seat"] == 1  # the other player plays on


def test_leaving_ends_a_signed_in_players_hold_on_the_seat(engine, clock, django_user_model):
    organiser = organiser_client(django_user_model)
    ann = signed_in(django_user_model, "ann")
    body = {"engine": "high_card", "seats": [{"user": "ann"}, {}]}
    game_id = organiser.post("/api/games/", body, format="json").json()["game"]
    claim(game_id, 1)
    organiser.post(f"/api/games/{game_id}/start")
    assert ann.get(f"/api/games/{game_id}/").json()["seat"] == 0
    assert ann.post(f"/api/games/{game_id}/leave").status_code == 200
    state = ann.get(f"/api/games/{game_id}/").json()
    assert state["seat"] is None and "hand" not in state["view"]
    assert Seat.objects.get(game_id=game_id, number=0).user.username == "ann"  # still recorded


@pytest.mark.django_db(transaction=True)
def test_a_leavers_open_stream_ends_with_the_seat(django_user_model):
    import asyncio

    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    register_tiny()
    game_id, (leaver, _) = started_pair(organiser_client(django_user_model))

    async def scenario() -> list[str]:
        headers = {"Authorization": f"Seat {leaver.token}"}
        response = await AsyncClient().get(f"/live/games/{game_id}/", headers=headers)
        stream = response.streaming_content.__aiter__()
        chunks = [await asyncio.wait_for(stream.__anext__(), 5) for _ in range(2)]
        left = await sync_to_async(bot_client(leaver.token).post)(f"/api/games/{game_id}/leave")
        assert left.status_code == 200, left.content
        try:
            while True:
                chunks.append(await asyncio.wait_for(stream.__anext__(), 5))
        except StopAsyncIteration:
            return [c.decode() if isinstance(c, bytes) else c for c in chunks]

    chunks = asyncio.run(scenario())
    assert '"seat":0' in chunks[1] and all('"hand"' not in c for c in chunks[2:])
