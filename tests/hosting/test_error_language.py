"""The pure layers' refusals (time controls, format options, engine configs) answer in the
language the request asks for, through ``hosting.core.wording``; English stays the default."""

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from games.engines.messages import Message
from games.models import GameSession
from hosting.core.wording import say
from tests.catalogues import compile_catalogues
from tests.games.hosting_helpers import organiser_client, register_tiny
from tests.tournaments.builders import open_tournament, user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

RU = "ru-RU,ru;q=0.9"
PT = "pt-BR,pt;q=0.9"
BAD_POLICY = {"policy": "sudden_death"}
POLICIES = "lose, draw_and_pass, forfeit_turn, engine"


@pytest.fixture(autouse=True)
def catalogues() -> None:
    compile_catalogues()


@pytest.fixture
def organiser(django_user_model) -> APIClient:
    register_tiny()
    return organiser_client(django_user_model)


def refused(response, code: str) -> str:
    """The 400's message; the body keeps its shape in every language."""
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"error", "detail"} and body["error"] == code, body
    return body["detail"]


def new_game(client: APIClient, language: str | None, engine: str = "high_card", **body):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    game = {"engine": engine, "seats": [{"kind": "human"}] * 2, **body}
    return client.post("/api/games/", game, format="json", **headers)


def new_cup(client: APIClient, language: str, **fields):
    cup = {"name": "Cup", "slug": "cup", "game": "high_card", "format": "swiss", **fields}
    return client.post("/api/tournaments/", cup, format="json", HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (RU, f"policy — одно из: {POLICIES}"),
        (PT, f"policy é um de: {POLICIES}"),
        (None, f"policy is one of: {POLICIES}"),
    ],
    ids=["ru", "pt-BR", "default English"],
)
def test_a_bad_time_control_is_refused_in_the_requests_language(organiser, language, said):
    response = new_game(organiser, language, time_control=BAD_POLICY)
    assert refused(response, "invalid_config") == said
    assert not GameSession.objects.exists()


def test_a_bad_time_control_of_a_tournament_is_refused_in_russian(organiser):
    detail = refused(new_cup(organiser, RU, time_control=BAD_POLICY), "invalid")
    assert detail == f"policy — одно из: {POLICIES}"
    assert not Tournament.objects.exists()


def test_a_sentence_inside_a_sentence_is_translated_too(organiser):
    allowances = {"allowances": {"turn": -5}}
    detail = refused(new_game(organiser, RU, time_control=allowances), "invalid_config")
    assert detail == "время на фазу 'turn': должно быть числом секунд от 0 до 86400"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (RU, "mode должен быть 'classic' или 'family'"),
        (PT, "mode deve ser 'classic' ou 'family'"),
        (None, "mode must be 'classic' or 'family'"),
    ],
    ids=["ru", "pt-BR", "default English"],
)
def test_a_bad_engine_config_is_refused_in_the_requests_language(organiser, language, said):
    response = new_game(organiser, language, engine="color_clash", config={"mode": "chaos"})
    assert refused(response, "invalid_config") == said
    assert not GameSession.objects.exists()


def test_every_problem_of_a_dropmix_config_is_said_in_russian(organiser):
    config = {"target": 7, "clear_mode": "all"}
    detail = refused(new_game(organiser, RU, engine="dropmix", config=config), "invalid_config")
    assert detail.startswith("target должен быть 15 или 21; clear_mode должен быть одним из: ")
    english = refused(new_game(organiser, None, engine="dropmix", config=config), "invalid_config")
    assert english.startswith("target must be 15 or 21; clear_mode must be one of ")


def test_an_unknown_tie_break_is_refused_in_portuguese(organiser):
    detail = refused(new_cup(organiser, PT, tiebreaks=["buchholz", "luck"]), "invalid")
    assert detail.startswith("critério de desempate desconhecido 'luck'; escolha entre points")
    assert detail.endswith(" ou metric:<name>")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (RU, "гранд-финал должен быть одним из: none, single, reset; получено 'triple'"),
        ("en", "grand final must be one of none, single, reset; got 'triple'"),
    ],
    ids=["ru", "en"],
)
def test_bad_format_options_refuse_the_start_in_the_requests_language(language, said):
    tournament, _ = open_tournament(
        "double_elimination", 4, format_options={"grand_final": "triple"}
    )
    client = APIClient()
    client.force_authenticate(tournament.organiser)
    url = f"/api/tournaments/{tournament.slug}/start"
    response = client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert refused(response, "invalid") == said
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION and not tournament.stages.exists()


def test_the_create_page_shows_a_bad_time_control_in_the_chosen_language():
    register_tiny()
    client = Client()
    client.force_login(user("host", "organiser"))
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    form = {"name": "Cup", "slug": "cup", "game": "high_card", "format": "swiss"}
    page = client.post("/tournaments/new/", {**form, "allowances": '{"lunch": 30}'})
    assert page.status_code == 400
    assert "нет фазы &#x27;lunch&#x27;; фазы: turn" in page.content.decode()
    assert not Tournament.objects.exists()


def test_say_translates_joined_and_nested_messages_and_leaves_other_text_alone():
    seat = Message(
        "seat {seat}: {problem}", seat=1, problem=Message("unknown card {card!r}", card="x")
    )
    joined = Message.join("; ", [seat, Message("target must be 15 or 21")])
    with translation.override("ru"):
        assert say(joined) == "место 1: неизвестная карта 'x'; target должен быть 15 или 21"
        assert say("already in its final words") == "already in its final words"
    with translation.override("en"):
        assert say(joined) == "seat 1: unknown card 'x'; target must be 15 or 21"
