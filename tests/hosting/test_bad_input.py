"""Issue 14, finding 1: input that used to be a 500 is a 4xx that changes nothing.

Each case was found by a black-box fuzz of the running service; the causes are refused at the
edge (the JSON parser, the path converters, the serializers, the pure validators).
"""

import pytest
from rest_framework.test import APIClient

from games.models import GameEvent, GameSession
from tests.games.hosting_helpers import claim, create_game, organiser_client, register_tiny
from tests.tournaments.builders import started
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def organiser(django_user_model):
    register_tiny()
    return organiser_client(django_user_model)


@pytest.fixture
def running(organiser):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    return game_id, players


def refused(response, status: int = 400, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) - {"fields"} == {"error", "detail"} and body["detail"], body
    if code:
        assert body["error"] == code, body
    return body


def test_json_nested_a_thousand_deep_is_refused_before_any_view_runs(organiser):
    game_id = create_game(organiser, "high_card", 2)
    claim_url = f"/api/games/{game_id}/seats/0/claim"
    body = refused(APIClient().post(claim_url, DEEP, content_type="application/json"))
    assert body == {"error": "parse_error", "detail": "JSON may not nest deeper than 32 levels"}
    create = '{"engine": "high_card", "seats": [], "config": ' + DEEP + "}"
    refused(organiser.post("/api/games/", create, content_type="application/json"), 400)
    assert GameSession.objects.count() == 1
    assert not GameSession.objects.get().seats.exclude(guest_id="", user=None).exists()


def test_a_document_within_the_depth_limit_still_parses(organiser):
    nested = {"a": [[[[{"b": [[[1]]]}]]]]}  # 10 levels
    response = organiser.post(
        "/api/games/",
        {"engine": "color_clash", "seats": [{"kind": "human"}] * 2, "config": nested},
        format="json",
    )
    body = refused(response, 400, "invalid_config")  # parsed, then refused by the engine
    assert "unknown" in body["detail"]


@pytest.mark.parametrize(
    "where",
    [
        {"client_action_id": "a\u0000b"},
        {"action": {"type": "play", "card": "\u0000"}},
        {"action": {"type": "play", "\u0000": 1}},
    ],
    ids=["client_action_id", "action value", "action key"],
)
def test_a_nul_character_anywhere_in_a_move_is_refused(running, where):
    game_id, players = running
    body = {"action": {"type": "play", "card": 1}, **where}
    response = players[0].act(game_id, body.pop("action"), **body)
    refused(response, 400, "parse_error")
    assert "NUL" in response.json()["detail"]
    assert GameSession.objects.get(pk=game_id).version == 0
    assert not GameEvent.objects.exists()


def test_a_nul_character_in_config_or_format_options_is_refused(organiser, django_user_model):
    game = {"engine": "high_card", "seats": [{"kind": "human"}] * 2, "config": {"x\u0000": 1}}
    refused(organiser.post("/api/games/", game, format="json"), 400, "parse_error")
    cup = {
        "name": "Cup",
        "slug": "cup",
        "game": "high_card",
        "format": "swiss",
        "format_options": {"rounds": 3, "note": ["fine", "not\u0000fine"]},
    }
    refused(organiser.post("/api/tournaments/", cup, format="json"), 400, "parse_error")
    assert not GameSession.objects.exists() and not Tournament.objects.exists()


@pytest.mark.parametrize("allowances", [None, True, 0, "x", []], ids=repr)
def test_time_control_allowances_of_the_wrong_type_are_refused(organiser, allowances):
    game = {
        "engine": "high_card",
        "seats": [{"kind": "human"}] * 2,
        "time_control": {"allowances": allowances},
    }
    body = refused(organiser.post("/api/games/", game, format="json"), 400, "invalid_config")
    assert "allowances" in body["detail"]
    cup = {
        "name": "Cup",
        "slug": "cup",
        "game": "high_card",
        "format": "swiss",
        "time_control": {"allowances": allowances},
    }
    refused(organiser.post("/api/tournaments/", cup, format="json"), 400)
    assert not GameSession.objects.exists() and not Tournament.objects.exists()


def test_a_time_control_policy_must_be_a_known_name(organiser):
    game = {
        "engine": "high_card",
        "seats": [{"kind": "human"}] * 2,
        "time_control": {"policy": ["lose"]},
    }
    refused(organiser.post("/api/games/", game, format="json"), 400, "invalid_config")


@pytest.mark.parametrize("grace", [2147483648, 10**30, -1])
def test_grace_seconds_out_of_range_are_refused(organiser, grace):
    game = {"engine": "high_card", "seats": [{"kind": "human"}] * 2, "grace_seconds": grace}
    body = refused(organiser.post("/api/games/", game, format="json"), 400, "invalid")
    assert "grace_seconds" in body["fields"]
    assert not GameSession.objects.exists()


@pytest.mark.parametrize("match", [[], {}, ["one_round"]], ids=repr)
def test_color_clash_refuses_a_match_length_that_is_not_a_name(organiser, match):
    game = {"engine": "color_clash", "seats": [{"kind": "human"}] * 2, "config": {"match": match}}
    body = refused(organiser.post("/api/games/", game, format="json"), 400, "invalid_config")
    assert "match must be one of" in body["detail"]


@pytest.mark.parametrize(
    "path",
    [
        "",
        "seats/0/claim",
        "start",
        "actions",
        "token",
        "leave",
        "legal",
        "log",
        "verify",
    ],
)
def test_a_game_id_beyond_any_row_is_a_404(path):
    client = APIClient()
    for game_id in ("99999999999999999999999", str(2**63)):
        url = f"/api/games/{game_id}/{path}"
        assert client.get(url).status_code in (404, 405)
        assert client.post(url, {}, format="json").status_code in (404, 405)
    assert client.post("/api/games/1/seats/99999999/claim").status_code == 404
    assert client.get("/live/games/99999999999999999999999/").status_code == 404


def test_a_match_code_with_a_nul_character_is_a_400_and_an_overlong_one_a_404():
    """A NUL in a path segment is the request guard's 400 (issue 30), before any view runs."""
    tournament, _, _ = started("single_elimination", 4)
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    for code in ("%00", "W1.1%00"):
        url = f"{base}/matches/{code}/result"
        refused(client.post(url, {"winner": None}, format="json"), 400, "parse_error")
    url = f"{base}/matches/{'x' * 21}/result"
    assert client.post(url, {"winner": None}, format="json").status_code == 404
    assert client.get(f"{base}/episodes/99999999999999999999999/submissions").status_code == 404
    assert client.post(f"{base}/matches/W1.1/result", {}, format="json").status_code == 400


@pytest.mark.parametrize("last_event_id", ["9" * 5000, "²", "1²", "-1", "0x10", "1" * 19])
def test_a_last_event_id_that_is_no_version_is_a_400(organiser, last_event_id):
    game_id = create_game(organiser, "high_card", 2)
    response = APIClient().get(f"/live/games/{game_id}/", HTTP_LAST_EVENT_ID=last_event_id)
    refused(response, 400, "invalid")
    assert "Last-Event-ID" in response.json()["detail"]


@pytest.mark.parametrize(
    "cookie",
    ['sessionid="\\000\\000\\000\\000\\000\\000\\000\\000"', "sessionid=" + "a" * 41],
    ids=["nul", "too-long"],
)
def test_a_session_cookie_no_server_could_have_set_is_no_session(cookie):
    response = APIClient(HTTP_COOKIE=cookie).get("/api/tournaments/")
    assert response.status_code == 200
    client = APIClient()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/api/tournaments/").status_code == 200
