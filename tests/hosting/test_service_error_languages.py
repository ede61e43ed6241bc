"""A refusal from the games, rooms, tokens and webhooks services, or from the request parser,
reaches the client in the language it asked for (English when it asked for none)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.catalogues import compile_catalogues
from tests.games.hosting_helpers import organiser_client

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def catalogues():
    compile_catalogues()


def detail(response, status: int) -> str:
    assert response.status_code == status, response.content
    return response.json()["detail"]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "no room has that code"),
        ("pt-BR", "nenhuma sala tem esse código"),
        ("ru", "комнаты с таким кодом нет"),  # noqa: RUF001 (Russian, not a Latin c)
    ],
)
def test_a_room_refusal_speaks_the_clients_language(catalogues, language, expected):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    assert detail(client.get("/api/rooms/KTHXBZ/"), 404) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "no game 987654"),
        ("pt-BR", "não há partida 987654"),
        ("ru", "нет партии 987654"),
    ],
)
def test_a_missing_game_is_named_in_the_clients_language(catalogues, language, expected):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    assert detail(client.get("/api/games/987654/"), 404) == expected


def test_a_game_service_refusal_and_a_parse_error_in_russian(catalogues, django_user_model):
    client = organiser_client(django_user_model)
    client.credentials(HTTP_ACCEPT_LANGUAGE="ru")
    body = {"engine": "color_clash", "seats": [{}]}
    assert detail(client.post("/api/games/", body, format="json"), 400) == (
        "для игры Color Clash нужно от 2 до 6 мест"
    )
    broken = client.post("/api/games/", b'{"engine": ', content_type="application/json")
    assert detail(broken, 400).startswith("ошибка разбора JSON")


def test_a_webhook_refusal_in_portuguese(catalogues, django_user_model):
    from tests.tournaments.builders import user
    from tournaments import services

    host = user("hook-host", "organiser")
    services.tournament_create(
        organiser=host, name="Hooked", slug="hooked", game="color_clash", format="swiss"
    )
    client = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR")
    client.force_authenticate(host)
    answer = client.post(
        "/api/tournaments/hooked/webhooks",
        {"url": "ftp://example.org/hook", "events": ["match.ready"]},
        format="json",
    )
    assert detail(answer, 400) == (
        "url: uma URL de webhook começa com http:// ou https:// e indica um host"
    )
