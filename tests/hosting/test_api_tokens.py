"""Personal API tokens: made on the account page or by the API, shown once, stored hashed,
used as ``Authorization: Bearer`` with no CSRF token, acting only for their user, revocable."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Seat
from hosting.core.roles import ORGANISER
from hosting.models import PersonalToken
from tests.games.hosting_helpers import FakeClock, claim, register_tiny
from tests.tournaments.builders import user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def engine(monkeypatch):
    monkeypatch.setattr("games.services.core.now", FakeClock())
    return register_tiny()


def bearer(secret: str) -> APIClient:
    # A client that enforces CSRF like a browser's would: a session write without it fails.
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def page_token(person, name: str) -> str:
    """Make a token on the account page; the secret as the page shows it (once)."""
    browser = Client()
    browser.force_login(person)
    page = browser.post("/accounts/tokens/", {"name": name})
    assert page.status_code == 200
    secret = re.search(r"data-token>(ga_[\w-]+)<", page.content.decode()).group(1)
    again = browser.get("/accounts/tokens/").content.decode()
    assert secret not in again and name in again and secret[:10] in again
    return secret


def test_a_token_from_the_account_page_is_shown_once_stored_hashed_and_needs_no_csrf():
    ann = user("ann", ORGANISER)
    secret = page_token(ann, "league bot")
    stored = PersonalToken.objects.get(user=ann)
    assert stored.key_sha256 == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {stored.name, stored.prefix, stored.key_sha256}
    assert stored.last_used is None

    bot = bearer(secret)
    body = {"name": "Bot Cup", "slug": "bot-cup", "game": "high_card", "format": "round_robin"}
    created = bot.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["organiser"] == "ann"
    opened = bot.post("/api/tournaments/bot-cup/registration/open")
    assert opened.status_code == 200 and opened.json()["status"] == "registration"
    stored.refresh_from_db()
    assert stored.last_used is not None

    # The same write through a session cookie without the CSRF token is refused.
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(ann)
    refused = session.post("/api/tournaments/bot-cup/check-in/open")
    assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"


def test_a_revoked_or_unknown_token_is_a_401_in_the_json_error_shape():
    ann = user("ann")
    secret = page_token(ann, "old bot")
    assert bearer(secret).get("/api/tokens/").status_code == 200
    browser = Client()
    browser.force_login(ann)
    token = PersonalToken.objects.get(user=ann)
    revoked = browser.post(f"/accounts/tokens/{token.pk}/revoke", follow=True)
    assert "old bot" in revoked.content.decode() and "revoked" in revoked.content.decode()
    for credential in (secret, "ga_no-such-token"):
        answer = bearer(credential).get("/api/tournaments/")
        assert answer.status_code == 401
        assert answer.json() == {
            "error": "not_authenticated",
            "detail": "the API token is unknown or has been revoked",
        }
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_token_acts_only_for_its_user_and_seat_tokens_still_work():
    host = user("host", ORGANISER)
    ann, bob = user("ann"), user("bob")
    ann_bot, bob_bot = bearer(page_token(ann, "ann bot")), bearer(page_token(bob, "bob bot"))
    host_client = APIClient()
    host_client.force_authenticate(host)
    seats = {"engine": "high_card", "seats": [{"user": "ann"}, {}]}
    game_id = host_client.post("/api/games/", seats, format="json").json()["game"]
    guest = claim(game_id, 1)
    assert host_client.post(f"/api/games/{game_id}/start").status_code == 200
    to_act = Seat.objects.get(game_id=game_id, number=0)
    assert to_act.user == ann

    legal = ann_bot.get(f"/api/games/{game_id}/legal").json()
    assert legal["seat"] == 0
    # Bob's token holds no seat in Ann's game: he cannot read her choices or act for her.
    assert bob_bot.get(f"/api/games/{game_id}/").json()["seat"] is None
    for answer in (
        bob_bot.get(f"/api/games/{game_id}/legal"),
        bob_bot.post(
            f"/api/games/{game_id}/actions", {"action": legal["actions"][0]}, format="json"
        ),
    ):
        assert answer.status_code == 403 and answer.json()["error"] == "permission_denied"
    # Ann's token plays her seat, with no CSRF token.
    played = ann_bot.post(
        f"/api/games/{game_id}/actions", {"action": legal["actions"][0]}, format="json"
    )
    assert played.status_code == 200, played.content
    # The guest's seat token keeps working beside them.
    seat_bot = APIClient(enforce_csrf_checks=True)
    seat_bot.credentials(HTTP_AUTHORIZATION=f"Seat {guest.token}")
    assert seat_bot.get(f"/api/games/{game_id}/legal").json()["seat"] == 1

    # Someone else's tournament: refused, and nothing changes.
    body = {"name": "Host Cup", "slug": "host-cup", "game": "high_card", "format": "round_robin"}
    assert host_client.post("/api/tournaments/", body, format="json").status_code == 201
    assert bob_bot.get("/api/tournaments/host-cup/").status_code == 404  # a draft is private
    assert host_client.post("/api/tournaments/host-cup/registration/open").status_code == 200
    refused = bob_bot.post("/api/tournaments/host-cup/check-in/open")
    assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"
    assert host_client.get("/api/tournaments/host-cup/").json()["status"] == "registration"
    # What is his to do, his token does: his own entry.
    entry = bob_bot.post("/api/tournaments/host-cup/register", {}, format="json")
    assert entry.status_code == 201 and entry.json()["name"] == "bob"


def test_tokens_through_the_api_a_token_cannot_mint_another():
    ann, bob = user("ann"), user("bob")
    session = APIClient()
    session.force_authenticate(ann)
    made = session.post("/api/tokens/", {"name": "ci"}, format="json")
    assert made.status_code == 201
    secret = made.json()["token"]
    bot = bearer(secret)
    listed = bot.get("/api/tokens/").json()["tokens"]
    assert [(t["name"], t["prefix"]) for t in listed] == [("ci", secret[:10])]
    assert "token" not in listed[0]
    minted = bot.post("/api/tokens/", {"name": "successor"}, format="json")
    assert minted.status_code == 403 and minted.json()["error"] == "permission_denied"
    assert session.post("/api/tokens/", {"name": ""}, format="json").json()["fields"]["name"]

    bob_session = APIClient()
    bob_session.force_authenticate(bob)
    token_id = made.json()["id"]
    assert bob_session.delete(f"/api/tokens/{token_id}/").status_code == 404
    assert bot.get("/api/tokens/").status_code == 200  # still Ann's, still live
    revoked = bot.delete(f"/api/tokens/{token_id}/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert bot.get("/api/tokens/").status_code == 401
    assert APIClient().get("/api/tokens/").status_code == 403  # no credential at all


def test_the_admin_shows_tokens_without_their_hash_and_revokes_through_the_service(
    admin_client,
):
    ann = user("ann")
    secret = page_token(ann, "ann bot")
    token = PersonalToken.objects.get(user=ann)
    listing = admin_client.get("/admin/hosting/personaltoken/").content.decode()
    assert "ann bot" in listing and token.key_sha256 not in listing and secret not in listing
    found = admin_client.get("/admin/hosting/personaltoken/", {"key_sha256__startswith": "a"})
    assert found.status_code == 400  # no yes/no questions about the hash
    admin_client.post(
        "/admin/hosting/personaltoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert bearer(secret).get("/api/tokens/").status_code == 401


def test_revoking_someone_elses_token_on_the_page_is_a_404_that_revokes_nothing():
    """Issue 30, finding 3: DRF's NotFound raised inside a page view was a 500."""
    page_token(user("ann"), "ann bot")
    token = PersonalToken.objects.get(user__username="ann")
    browser = Client()
    browser.force_login(user("bob"))
    answer = browser.post(f"/accounts/tokens/{token.pk}/revoke")
    assert answer.status_code == 404 and "<html" in answer.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is None
