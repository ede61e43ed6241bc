"""Rate limits: 429 with Retry-After in the API's error shape, per client and per account;
no HTTP Basic."""

import base64
import contextvars

import pytest
from django.core.cache import caches
from django.test import RequestFactory, override_settings
from rest_framework.test import APIClient

from hosting.core.throttles import retry_after
from tests.games.hosting_helpers import (
    claim,
    create_game,
    invite,
    organiser_client,
    register_tiny,
)

pytestmark = pytest.mark.django_db

# Daily windows: a test never straddles two (counters restart when a window does).
RATES = {
    "login.client": "3/d",
    "login.account": "2/d",
    "signup.client": "2/d",
    "create.client": "50/d",
    "create.account": "2/d",
    "claim.client": "2/d",
    "claim.account": "50/d",
    "action.client": "50/d",
    "action.account": "2/d",
}


def assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    assert response.json()["error"] == "throttled" and response.json()["detail"]
    assert 1 <= int(response["Retry-After"]) <= 86400


@override_settings(THROTTLE_RATES=RATES)
def test_log_in_is_limited_per_client_and_per_account(client, django_user_model):
    django_user_model.objects.create_user("ada", password="a-long-pass-phrase-42")
    wrong = {"username": "ada", "password": "guess"}
    for _ in range(2):
        assert client.post("/accounts/login/", wrong).status_code == 200  # the form again
    # A third guess at ada's password, even from elsewhere, is refused before it is checked.
    assert_throttled(client.post("/accounts/login/", wrong, REMOTE_ADDR="10.0.0.9"))
    # Other accounts from the same client: its own limit (3) is the next to go.
    assert client.post("/accounts/login/", {"username": "bob", "password": "x"}).status_code == 200
    assert_throttled(client.post("/accounts/login/", {"username": "cy", "password": "x"}))
    assert client.get("/accounts/login/").status_code == 200  # only attempts are counted


@override_settings(THROTTLE_RATES=RATES)
def test_sign_up_is_limited_per_client(client):
    for number in range(2):
        form = {"username": f"p{number}", "password1": "x", "password2": "y"}
        assert client.post("/accounts/signup/", form).status_code == 200
    assert_throttled(client.post("/accounts/signup/", {"username": "p3"}))


@override_settings(THROTTLE_RATES=RATES)
def test_game_creation_is_limited_per_account(django_user_model):
    register_tiny()
    organiser = organiser_client(django_user_model)
    body = {"engine": "high_card", "seats": [{}, {}]}
    for _ in range(2):
        assert organiser.post("/api/games/", body, format="json").status_code == 201
    assert_throttled(organiser.post("/api/games/", body, format="json"))
    other = organiser_client(django_user_model, "org2")  # same address, another account
    assert other.post("/api/games/", body, format="json").status_code == 201


@override_settings(THROTTLE_RATES=RATES)
def test_claims_are_limited_per_client(django_user_model):
    register_tiny()
    game_id = create_game(organiser_client(django_user_model), "high_card", 4)
    body = {"invite": invite(game_id)}
    url = f"/api/games/{game_id}/seats/{{}}/claim"
    for seat in range(2):
        assert APIClient().post(url.format(seat), body, format="json").status_code == 201
    assert_throttled(APIClient().post(url.format(2), body, format="json"))
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.7")
    assert elsewhere.post(url.format(2), body, format="json").status_code == 201


@override_settings(THROTTLE_RATES=RATES)
def test_actions_are_limited_per_seat(django_user_model):
    register_tiny()
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, "high_card", 2, config={"hand_size": 5})
    players = [claim(game_id, 0, REMOTE_ADDR="10.0.0.1"), claim(game_id, 1)]
    organiser.post(f"/api/games/{game_id}/start")
    bogus = {"type": "play", "card": -1}  # refused moves count too
    for _ in range(2):
        assert players[0].act(game_id, bogus).status_code == 400
    assert_throttled(players[0].act(game_id, bogus))
    assert players[1].act(game_id, bogus).status_code == 400  # the other seat is not held up


@override_settings(THROTTLE_RATES={**RATES, "action.account": "50/d", "action.client": "2/d"})
def test_actions_are_limited_per_client(django_user_model):
    register_tiny()
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    organiser.post(f"/api/games/{game_id}/start")
    bogus = {"type": "play", "card": -1}
    assert players[0].act(game_id, bogus).status_code == 400
    assert players[1].act(game_id, bogus).status_code == 400
    assert_throttled(players[0].act(game_id, bogus))


@override_settings(THROTTLE_RATES={"action.client": "5/d"})
def test_requests_in_their_own_contexts_count_on_one_redis_pool(redis_url):
    """Under ASGI each request runs in a context of its own, and Django keeps one cache object
    per context: the counters must still go through one pool per process, not open a Redis
    connection per request."""
    request = RequestFactory().post("/api/games/1/actions", REMOTE_ADDR="10.9.8.7")

    def one_request() -> tuple[object, int | None]:
        pool = caches["default"]._cache.get_client(write=True).connection_pool
        return pool, retry_after(request, "action", None)

    answers = [contextvars.Context().run(one_request) for _ in range(6)]
    assert len({id(pool) for pool, _ in answers}) == 1
    assert [wait is None for _, wait in answers] == [True] * 5 + [False]  # counted together


def test_http_basic_is_not_a_way_in(django_user_model):
    register_tiny()
    organiser_client(django_user_model)  # the account "org" exists, password known
    basic = base64.b64encode(b"org:pw-organiser-123").decode()
    client = APIClient(HTTP_AUTHORIZATION=f"Basic {basic}")
    body = {"engine": "high_card", "seats": [{}, {}]}
    refused = client.post("/api/games/", body, format="json")
    assert refused.status_code == 403 and "WWW-Authenticate" not in refused
