"""The OpenAPI description: generated without a warning, complete, and served with its docs
page from the app's own static files."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from hosting.core import errors


def _api_paths(patterns: list, prefix: str = "") -> set[str]:
    """Every DRF endpoint's path template under /api/, as OpenAPI writes it."""
    found = set()
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found |= _api_paths(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
            path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
            if path.startswith("/api/") and pattern.callback is not errors.unknown_endpoint:
                found.add(path)
    return found


@pytest.fixture(scope="module")
def schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_generates_and_validates_with_no_warning(tmp_path):
    # The command's own checks: OpenAPI 3 validity, and every warning is a failure.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert (tmp_path / "s.yml").read_text().startswith("openapi: 3.")


def test_every_endpoint_is_described_with_bodies_errors_and_auth(schema):
    expected = _api_paths(get_resolver().url_patterns) - {"/api/schema/", "/api/docs/"}
    assert expected <= set(schema["paths"]), expected - set(schema["paths"])
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            answers = op["responses"]
            ok = [code for code in answers if code.startswith("2")]
            assert ok and "content" in answers[ok[0]], (method, path)
            refusals = [code for code in answers if code[0] == "4"]
            assert path == "/api/ping" or refusals, (method, path)
            for code in refusals:
                assert answers[code]["content"]["application/json"]["schema"] == error_ref
            schemes = {name for option in op["security"] for name in option}
            assert "cookieAuth" in schemes, (method, path)
            if path.startswith("/api/games/"):
                assert "seatToken" in schemes
            if method == "post":
                assert {"cookieAuth": [], "csrfToken": []} in op["security"]
    action = schema["paths"]["/api/games/{game_id}/actions"]["post"]
    assert action["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ActionInputRequest"
    )
    assert {"Error", "Game", "TournamentDetail"} <= set(schema["components"]["schemas"])
    assert "/live/games/<id>/" in schema["info"]["description"]  # the SSE streams, in words


@pytest.mark.django_db
def test_the_schema_and_docs_page_are_served_from_our_own_origin(client):
    answer = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    assert answer.json()["openapi"].startswith("3.")
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    # Swagger UI's files, and its start-up script served by the docs view itself (no inline
    # script under the Content-Security-Policy).
    assert assets and all(a.startswith(("/static/", "/api/docs/?script")) for a in assets), assets
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "http://" not in html.replace(" http://", "") and "https://" not in html
