"""Issue 14, finding 2: every answer under /api/ and /live/ is JSON in the documented error
shape, whatever the status and whether DEBUG is on or off."""

import pytest
from rest_framework import exceptions
from rest_framework.test import APIClient

from games import api
from tests.games.hosting_helpers import claim, create_game, organiser_client, register_tiny

pytestmark = pytest.mark.django_db

TEN_MB = "[" + "1," * (5 * 1024 * 1024) + "1]"


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


@pytest.fixture
def organiser(django_user_model):
    register_tiny()
    return organiser_client(django_user_model)


@pytest.fixture
def game_id(organiser):
    return create_game(organiser, "high_card", 2)


def error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body = response.json()
    assert set(body) - {"fields"} == {"error", "detail"}, body
    assert body["error"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


def test_a_body_over_the_upload_limit_is_a_413(debug, organiser, game_id):
    anonymous = APIClient()
    claim_url = f"/api/games/{game_id}/seats/0/claim"
    body = error(
        anonymous.post(claim_url, TEN_MB, content_type="application/json"), 413, "payload_too_large"
    )
    assert "larger than" in body["detail"]
    error(
        organiser.post("/api/games/", TEN_MB, content_type="application/json"),
        413,
        "payload_too_large",
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/games/abc/"),
        ("post", "/api/games/{game}/seats/-1/claim"),
        ("post", "/api/games/{game}/seats/x/claim"),
        ("get", "/api/nothing/here"),
        ("post", "/api/nothing/here"),
        ("get", "/api/"),
        ("get", "/live/"),
        ("get", "/live/games/abc/"),
        ("get", "/api/tournaments/no-such-cup/"),
        ("delete", "/api/tournaments/bad%20slug/"),
    ],
)
def test_unknown_paths_and_rows_are_json_404s(debug, game_id, method, path):
    response = getattr(APIClient(), method)(path.format(game=game_id))
    error(response, 404, "not_found")


def test_a_path_missing_its_slash_is_a_404_that_says_so(debug):
    for method in ("get", "post"):
        body = error(getattr(APIClient(), method)("/api/games"), 404, "not_found")
        assert body["detail"] == "no endpoint at /api/games; did you mean /api/games/?"


def test_a_body_that_is_not_json_is_a_415(debug, game_id):
    client = APIClient()
    url = f"/api/games/{game_id}/seats/0/claim"
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        body = error(
            client.post(url, "a=b", content_type=content_type), 415, "unsupported_media_type"
        )
        assert content_type in body["detail"]


def test_a_method_an_endpoint_does_not_take_is_a_405(debug, game_id):
    error(APIClient().put("/api/games/", {}, format="json"), 405, "method_not_allowed")
    error(APIClient().delete(f"/api/games/{game_id}/"), 405, "method_not_allowed")
    response = APIClient().post(f"/live/games/{game_id}/")
    error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


def test_refusals_keep_their_codes(debug, organiser, game_id):
    anonymous = APIClient()
    body = error(anonymous.post("/api/games/", {}, format="json"), 403, "permission_denied")
    assert body["detail"] == "only organisers can create games"
    error(anonymous.post("/api/tournaments/", {}, format="json"), 403, "not_authenticated")
    claim_url = f"/api/games/{game_id}/seats/0/claim"
    error(anonymous.post(claim_url, "{oops", content_type="application/json"), 400, "parse_error")
    error(organiser.post("/api/games/", {"seats": []}, format="json"), 400, "invalid")
    error(organiser.post(f"/api/games/{game_id}/start"), 409, "conflict")


@pytest.mark.parametrize(
    ("raised", "status", "code"),
    [
        (exceptions.NotAuthenticated(), 403, "not_authenticated"),
        # 403, not 401: no authentication scheme of the API answers with a challenge
        (exceptions.AuthenticationFailed(), 403, "authentication_failed"),
        (exceptions.Throttled(wait=7), 429, "throttled"),
        (exceptions.NotAcceptable(), 406, "not_acceptable"),
        (exceptions.ValidationError("a bare message"), 400, "invalid"),
        (exceptions.ValidationError(["two", "messages"]), 400, "invalid"),
    ],
    ids=lambda value: getattr(value, "default_code", value),
)
def test_every_drf_refusal_has_the_documented_shape(monkeypatch, game_id, raised, status, code):
    def refuse(self, request, game_id):
        raise raised

    monkeypatch.setattr(api.GameDetailView, "get", refuse)
    response = APIClient().get(f"/api/games/{game_id}/")
    body = error(response, status, code)
    if status == 429:
        assert response["Retry-After"] == "7" and "7 seconds" in body["detail"]


def test_a_bug_is_a_json_500_without_debug_and_a_traceback_with_it(monkeypatch, settings, game_id):
    def broken(self, request, game_id):
        raise RuntimeError("a bug, with internal detail")

    monkeypatch.setattr(api.GameDetailView, "get", broken)
    client = APIClient(raise_request_exception=False)
    settings.DEBUG = False
    body = error(client.get(f"/api/games/{game_id}/"), 500, "server_error")
    assert "internal detail" not in body["detail"]
    settings.DEBUG = True  # `make run` (on loopback only: see test_debug_bind.py)
    response = client.get(f"/api/games/{game_id}/")
    assert response.status_code == 500 and b"internal detail" in response.content


def test_a_guest_move_without_its_csrf_token_is_a_json_403(game_id):
    player = claim(game_id, 0, APIClient(enforce_csrf_checks=True))
    response = player.act(game_id, {"type": "play", "card": 1})
    body = error(response, 403, "permission_denied")
    assert "CSRF" in body["detail"]


def test_what_django_itself_refuses_is_json_too(settings):
    settings.DEBUG = False
    response = APIClient().get("/api/tournaments/", HTTP_HOST="evil.example")
    error(response, 400, "invalid")
    assert APIClient().get("/", HTTP_HOST="evil.example")["Content-Type"].startswith("text/html")
