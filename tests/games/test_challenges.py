"""Challenges: a signed-in player invites another by name to any of the three games; the
invitee accepts (a new game seats them both, its deal waiting for their seeds) or declines;
an unanswered challenge expires. Through the JSON API and the pages, one write path."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.challenges import services as challenges
from games.challenges.models import Challenge
from games.models import GameSession
from hosting.core.errors import Forbidden

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-alice-12345")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("Bob", password="pw-bob-12345")


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def send(client: APIClient, username: str, game: str = "drafting_trios", status: int = 201):
    answer = client.post("/api/challenges/", {"username": username, "game": game}, format="json")
    assert answer.status_code == status, answer.content
    return answer.json()


@pytest.mark.parametrize("game", ["color_clash", "drafting_trios", "dropmix"])
def test_an_accepted_challenge_seats_both_players_in_a_new_game(alice, bob, game):
    sent = send(api(alice), "bob", game)  # the name is found whatever its case
    assert (sent["challenger"], sent["challenged"], sent["status"]) == ("alice", "Bob", "pending")
    assert sent["game_name"] in ("Color Clash", "Drafting Trios", "DropMix Clash")
    listed = api(bob).get("/api/challenges/").json()
    assert [c["id"] for c in listed["received"]] == [sent["id"]] and listed["sent"] == []
    assert api(alice).post(f"/api/challenges/{sent['id']}/accept").status_code == 403
    accepted = api(bob).post(f"/api/challenges/{sent['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    body = accepted.json()
    assert body["status"] == "accepted" and body["game_url"].endswith(f"/games/{body['game_id']}/")
    created = GameSession.objects.get(pk=body["game_id"])
    assert created.engine == game and created.status == GameSession.Status.WAITING
    assert created.next_deadline is not None  # the seed window: both browsers send their seeds
    seats = list(created.seats.order_by("number"))
    assert [s.user.username for s in seats] == ["alice", "Bob"]
    again = api(bob).post(f"/api/challenges/{sent['id']}/accept")
    assert again.status_code == 409 and "already answered" in again.json()["detail"]
    assert api(bob).get("/api/challenges/").json()["received"] == []


def test_bad_challenges_are_refused_with_a_readable_reason(alice, bob):
    client = api(alice)
    unknown = send(client, "nobody-here", status=404)
    assert "no player is called nobody-here" in unknown["detail"]
    assert "yourself" in send(client, "alice", status=400)["detail"]
    assert send(client, "bob", game="chess", status=400)["error"]
    send(client, "bob", game="color_clash")
    duplicate = send(client, "bob", game="color_clash", status=409)
    assert "already an open challenge" in duplicate["detail"]
    assert "already an open challenge" in send(api(bob), "alice", "color_clash", 409)["detail"]
    send(client, "bob", game="dropmix")  # another game is another challenge
    anonymous = APIClient().post("/api/challenges/", {"username": "bob", "game": "dropmix"})
    assert anonymous.status_code in (401, 403)
    assert Challenge.objects.count() == 2


def test_an_expired_challenge_cannot_be_accepted(alice, bob):
    sent = send(api(alice), "bob")
    Challenge.objects.filter(pk=sent["id"]).update(expires=timezone.now() - timedelta(seconds=1))
    refused = api(bob).post(f"/api/challenges/{sent['id']}/accept")
    assert refused.status_code == 409 and "expired" in refused.json()["detail"]
    assert GameSession.objects.count() == 0
    assert api(bob).get("/api/challenges/").json()["received"] == []
    send(api(alice), "bob")  # an expired one is no duplicate


def test_a_declined_or_withdrawn_challenge_is_over(alice, bob, django_user_model):
    first = send(api(alice), "bob")
    assert api(bob).post(f"/api/challenges/{first['id']}/decline").json()["status"] == "declined"
    assert api(bob).post(f"/api/challenges/{first['id']}/accept").status_code == 409
    second = send(api(alice), "bob")
    carol = django_user_model.objects.create_user("carol", password="pw-carol-12345")
    assert api(carol).post(f"/api/challenges/{second['id']}/decline").status_code == 403
    withdrawn = api(alice).post(f"/api/challenges/{second['id']}/decline").json()
    assert withdrawn["status"] == "withdrawn"
    assert api(bob).post("/api/challenges/999999/accept").status_code == 404


def test_a_challenge_by_the_page_shows_on_the_home_page_and_accepting_goes_to_the_game(alice, bob):
    sender, invitee = Client(), Client()
    sender.force_login(alice)
    invitee.force_login(bob)
    sent = sender.post("/challenges/", {"username": "Bob", "game": "dropmix", "next": "/"})
    assert sent.status_code == 302 and sent["Location"] == "/"
    assert "Challenge sent to Bob" in sender.get("/").content.decode()
    home = invitee.get("/").content.decode()
    challenge = Challenge.objects.get()
    assert "challenges you to DropMix Clash" in home
    assert f'action="/challenges/{challenge.pk}/accept"' in home
    profile = invitee.get("/u/Bob/").content.decode()
    assert f'action="/challenges/{challenge.pk}/accept"' in profile
    accepted = invitee.post(f"/challenges/{challenge.pk}/accept", {"next": "/"})
    game = GameSession.objects.get()
    assert accepted.status_code == 302 and accepted["Location"] == f"/games/{game.pk}/"
    assert '"seat":1' in invitee.get(accepted["Location"]).content.decode()
    # Both now see the game among their games in progress.
    assert f'href="/games/{game.pk}/"' in sender.get("/").content.decode()
    wrong = sender.post("/challenges/", {"username": "alice", "game": "dropmix"})
    assert wrong.status_code == 200 and "cannot challenge yourself" in wrong.content.decode()


def test_the_services_refuse_a_signed_out_challenger(bob):
    with pytest.raises(Forbidden):
        challenges.challenge_send(challenger=AnonymousUser(), username="Bob", engine="dropmix")
