"""The OpenAPI document says what the API answers, errors included (issue 30, finding 7): a
substitute's seat is in the seat kinds' enum, a field the document calls a string takes only
strings, and every operation that reads a personal token documents the 401 an unknown one
gets (and every rate-limited one its 429)."""

from __future__ import annotations

import importlib
import inspect

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from games import services
from hosting.core.validation import StrictText
from tests.games.hosting_helpers import claim, create_game, organiser_client, register_tiny
from tests.tournaments.builders import report_top_seed_wins, started
from tournaments.disputes import services as disputes

pytestmark = pytest.mark.django_db

# Every module that declares the API's bodies.
API_MODULES = (
    "games.api",
    "games.serializers",
    "games.rooms.api",
    "games.challenges.api",
    "hosting.accounts.api",
    "hosting.api",
    "hosting.core.openapi",
    "tournaments.api.audit",
    "tournaments.api.entrants",
    "tournaments.api.inputs",
    "tournaments.api.matches",
    "tournaments.api.outputs",
    "tournaments.api.seasons",
    "tournaments.api.tournaments",
    "tournaments.disputes.api",
    "tournaments.exports.api",
    "tournaments.webhooks.api",
)


@pytest.fixture(scope="module")
def document() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def conforms(document: dict, method: str, path: str, response) -> None:
    """The answer's body is valid against the document's schema for its status."""
    described = document["paths"][path][method]["responses"][str(response.status_code)]
    body_schema = described["content"]["application/json"]["schema"]
    schema = _json_schema({**body_schema, "components": document["components"]})
    jsonschema.validate(response.json(), schema)


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's ``null`` type."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") and "type" in node:
        converted["type"] = [node["type"], "null"]
    return converted


def test_a_substitutes_seat_is_among_the_documented_kinds(document, organiser):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    organiser.post(f"/api/games/{game_id}/start")
    assert services.seat_leave(game_id=game_id, seat=players[1].seat)
    answer = players[0].client.get(f"/api/games/{game_id}/")
    assert [seat["kind"] for seat in answer.json()["seats"]] == ["human", "substitute"]
    conforms(document, "get", "/api/games/{game_id}/", answer)


def test_a_substitute_is_not_a_seat_one_creates(organiser):
    body = {"engine": "high_card", "seats": [{"kind": "human"}, {"kind": "substitute"}]}
    refused = organiser.post("/api/games/", body, format="json")
    assert refused.status_code == 400 and "kind" in refused.json()["fields"]["seats"]["1"]


def test_a_comment_is_a_string_not_a_number():
    _tournament, stage, _players = started("single_elimination", 2)
    report_top_seed_wins(stage, "W1.1")
    match = stage.matches.get(code="W1.1")
    dispute = disputes.dispute_file(match=match, by=match.loser.user, reason="the sheet")
    filer = APIClient()
    filer.force_authenticate(match.loser.user)
    path = f"/api/disputes/{dispute.pk}/comments"
    for not_text in (0, 1.5, True, ["words"], {"text": "words"}):
        refused = filer.post(path, {"text": not_text}, format="json")
        assert refused.status_code == 400, (not_text, refused.content)
        assert refused.json()["fields"]["text"] == ["Not a valid string."]
    too_long = filer.post(path, {"text": "words" + "\r" * 5000}, format="json")
    assert too_long.status_code == 400 and "text" in too_long.json()["fields"]
    assert dispute.comments.count() == 0
    assert filer.post(path, {"text": "my statement"}, format="json").status_code == 201


def test_every_text_field_of_the_api_takes_only_strings():
    loose = []
    for name in API_MODULES:
        module = importlib.import_module(name)
        for label, kind in inspect.getmembers(module, inspect.isclass):
            if not issubclass(kind, serializers.Serializer) or kind.__module__ != name:
                continue
            for field_name, field in kind().fields.items():
                texts = [field, getattr(field, "child", None)]
                for text in texts:
                    if isinstance(text, serializers.CharField) and not isinstance(text, StrictText):
                        loose.append(f"{name}.{label}.{field_name}")
    assert not loose, loose


def test_every_operation_documents_the_401_of_an_unknown_token(document, client):
    methods = ("get", "post", "put", "patch", "delete")
    undocumented = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method in methods and "401" not in operation["responses"]
    ]
    assert not undocumented
    answer = client.get("/api/ping", HTTP_AUTHORIZATION="Bearer not-a-token")
    assert answer.status_code == 401 and answer.json()["error"] == "not_authenticated"
    conforms(document, "get", "/api/ping", answer)


def test_every_rate_limited_operation_documents_its_429(document):
    for path, method in (
        ("/api/games/{game_id}/seats/{number}/claim", "post"),
        ("/api/games/{game_id}/actions", "post"),
        ("/api/rooms/", "post"),
    ):
        assert "429" in document["paths"][path][method]["responses"], (method, path)


@pytest.fixture
def organiser(django_user_model) -> APIClient:
    register_tiny()
    return organiser_client(django_user_model)


def test_a_page_is_a_whole_number_from_one(client, document):
    for bad in ("", "true", "1.5", "-1", "0", "٣"):
        refused = client.get("/api/tournaments/", {"page": bad})
        assert refused.status_code == 404, (bad, refused.content)
        assert refused.json()["error"] == "not_found"
    assert client.get("/api/tournaments/", {"page": "1"}).status_code == 200
    conforms(document, "get", "/api/tournaments/", client.get("/api/tournaments/"))
    page = document["paths"]["/api/tournaments/"]["get"]["parameters"][0]
    assert page["name"] == "page" and page["schema"] == {"type": "integer", "minimum": 1}
