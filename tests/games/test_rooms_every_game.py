"""Rooms and practice for Drafting Trios and DropMix Clash beside Color Clash: the game's
options checked with readable refusals, who may sit, DropMix's sides chosen in the lobby and
seated as the engine reads them, labelled computers, and another round; through the JSON API
as clients use it."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import GameSession, Room, RoomRound, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _deal_at_once(settings):
    """These tests are about the rooms themselves: their games deal at the start, without
    waiting for browsers' seeds (the seed window is tests/games/test_casual_seeds.py's)."""
    settings.CASUAL_SEED_WINDOW_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def make_room(host: APIClient, status: int = 201, **body) -> dict:
    response = host.post("/api/rooms/", body, format="json")
    assert response.status_code == status, response.content
    return response.json()


def post(client: APIClient, path: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(path, body or {}, format="json")
    assert response.status_code == status, response.content
    return response.json()


def ready_all(code: str, clients: list[APIClient]) -> None:
    for client in clients:
        post(client, f"/api/rooms/{code}/ready", {"ready": True})


def test_a_drafting_trios_room_seats_exactly_two_and_plays_rounds():
    host, friend, third = APIClient(), APIClient(), APIClient()
    room = make_room(host, engine="drafting_trios")
    code = room["code"]
    assert (room["engine"], room["max_players"]) == ("drafting_trios", 2)
    refused = host.post(f"/api/rooms/{code}/start")
    assert refused.status_code == 409 and "exactly two" in refused.json()["detail"]
    post(friend, f"/api/rooms/{code}/join")
    full = third.post(f"/api/rooms/{code}/join")
    assert full.status_code == 409 and "2 players" in full.json()["detail"]
    ready_all(code, [friend])
    started = post(host, f"/api/rooms/{code}/start")
    game = GameSession.objects.get(pk=started["game"])
    assert game.engine == "drafting_trios" and game.status == GameSession.Status.RUNNING
    seats = list(game.seats.order_by("number"))
    assert [s.kind for s in seats] == [Seat.Kind.HUMAN, Seat.Kind.HUMAN]
    names = [m["name"] for m in started["members"]]
    assert [s.display_name for s in seats] == names
    services.game_void(by=None, game_id=game.pk, reason="test: end the round")
    ready_all(code, [friend])
    again = post(host, f"/api/rooms/{code}/start")
    assert again["game"] != game.pk and [r["number"] for r in again["rounds"]] == [1, 2]


def test_dropmix_people_choose_sides_and_sit_as_the_engine_reads_them():
    people = [APIClient() for _ in range(4)]
    room = make_room(people[0], engine="dropmix", format="2v2", target=15, turn_seconds=15)
    code = room["code"]
    assert room["options"] == {"format": "2v2", "target": 15} and room["turn_seconds"] == 15
    assert room["max_players"] == 4 and room["members"][0]["side"] == 0
    sides = [post(p, f"/api/rooms/{code}/join")["members"][-1]["side"] for p in people[1:]]
    assert sides == [0, 1, 1]  # each newcomer takes the first side with a free place
    full = people[1].post(f"/api/rooms/{code}/side", {"side": 1}, format="json")
    assert full.status_code == 409 and "full" in full.json()["detail"]
    # Side A's second player and side B's first swap places through a free one.
    post(people[3], f"/api/rooms/{code}/leave")
    post(people[1], f"/api/rooms/{code}/side", {"side": 1})
    refused = people[0].post(f"/api/rooms/{code}/start")
    assert refused.status_code == 409 and "2 against 2" in refused.json()["detail"]
    post(people[3], f"/api/rooms/{code}/join")
    lobby = post(people[3], f"/api/rooms/{code}/ready", {"ready": True})
    assert [m["side"] for m in lobby["members"]] == [0, 1, 1, 0]
    ready_all(code, people[1:3])
    started = post(people[0], f"/api/rooms/{code}/start")
    game = GameSession.objects.get(pk=started["game"])
    assert game.engine == "dropmix" and game.config["target"] == 15
    assert game.time_control["allowances"] == {"turn": 15}
    # 2v2: teams [0, 2] and [1, 3]; side A is the host and the fourth to come.
    held = RoomRound.objects.get(game=game).seats
    names = [m["name"] for m in started["members"]]
    assert [held[str(n)]["name"] for n in range(4)] == [names[0], names[1], names[3], names[2]]
    assert game.state["sides"] == [[0, 2], [1, 3]]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"engine": "chess"}, "engine"),
        ({"engine": "dropmix", "format": "3v3"}, "format"),
        ({"engine": "dropmix", "target": 30}, "target"),
        ({"engine": "dropmix", "turn_seconds": 45}, "15, 30, 60"),
        ({"engine": "color_clash", "turn_seconds": 15}, "30, 45, 60, 90"),
    ],
)
def test_room_options_are_checked_with_a_readable_refusal(body, words):
    refused = APIClient().post("/api/rooms/", body, format="json")
    assert refused.status_code == 400, refused.content
    assert words in str(refused.json())


def test_sides_are_for_dropmix_rooms_and_only_0_or_1():
    host = APIClient()
    trios = make_room(host, engine="drafting_trios")["code"]
    refused = post(host, f"/api/rooms/{trios}/side", {"side": 1}, status=400)
    assert "DropMix" in refused["detail"]
    dropmix = make_room(host, engine="dropmix")["code"]
    assert "side" in str(post(host, f"/api/rooms/{dropmix}/side", {"side": 2}, status=400))
    assert post(host, f"/api/rooms/{dropmix}/side", {"side": 1})["members"][0]["side"] == 1


@pytest.mark.parametrize(
    ("body", "kinds"),
    [
        ({"engine": "drafting_trios"}, ["human", "computer"]),
        ({"engine": "dropmix"}, ["human", "computer"]),
        ({"engine": "dropmix", "format": "1v2"}, ["human", "computer", "computer"]),
        ({"engine": "dropmix", "format": "2v2"}, ["human", "computer", "computer", "computer"]),
    ],
)
def test_practice_seats_the_person_against_labelled_computers_of_every_game(body, kinds):
    response = APIClient().post("/api/rooms/practice", body, format="json")
    assert response.status_code == 201, response.content
    game = GameSession.objects.get(pk=response.json()["game"])
    seats = list(game.seats.order_by("number"))
    assert game.engine == body["engine"] and [s.kind for s in seats] == kinds
    assert all(s.label().endswith("(Computer)") and s.bot == "computer" for s in seats[1:])
    assert game.status == GameSession.Status.RUNNING


# -- the pages' rough edges ------------------------------------------------------------------


def test_play_puts_the_chosen_game_first_and_each_form_makes_its_room():
    page = Client().get("/play/?game=dropmix").content.decode()
    order = [page.index(f'id="play-{key}"') for key in ("dropmix", "color_clash", "drafting_trios")]
    assert order == sorted(order) and 'class="card play-game selected" id="play-dropmix"' in page
    host = Client()
    response = host.post("/play/", {"game": "dropmix", "format": "1v2", "target": "15"})
    room = Room.objects.get(code=response["Location"].rsplit("/", 1)[1])
    assert (room.engine, room.options) == ("dropmix", {"format": "1v2", "target": 15})
    lobby = host.get(f"/r/{room.code}").content.decode()
    assert "DropMix Clash" in lobby and "1 against 2" in lobby and "Join side B" in lobby
    refused = host.post("/play/", {"game": "dropmix", "target": "30"}, follow=True)
    assert refused.redirect_chain[-1][0] == "/play/?game=dropmix"
    assert "Target must be 15 or 21." in refused.content.decode()


def test_a_code_with_letters_outside_the_alphabet_is_told_so():
    wrong_letters = Client().get("/play/?code=ZZZZZZ", follow=True).content.decode()
    assert "Room codes use only these letters" in wrong_letters
    too_short = Client().get("/play/?code=KFX", follow=True).content.decode()
    assert "six letters" in too_short


def test_leaving_says_so_and_a_removed_player_is_told_why():
    host, other = Client(), Client()
    code = host.post("/play/", {"game": "drafting_trios"})["Location"].rsplit("/", 1)[1]
    other.post(f"/r/{code}/join")
    member = Room.objects.get(code=code).members.exclude(is_host=True).get()
    host.post(f"/r/{code}/remove", {"member": member.pk})
    page = other.get(f"/r/{code}").content.decode()
    assert "The host removed you from this room" in page
    left = host.post(f"/r/{code}/leave", follow=True).content.decode()
    assert f"You left room {code}." in left


def test_computers_get_animal_names_labelled_computer():
    body = {"engine": "dropmix", "format": "2v2"}
    response = APIClient().post("/api/rooms/practice", body, format="json")
    assert response.status_code == 201, response.content
    game = GameSession.objects.get(pk=response.json()["game"])
    labels = [seat.label() for seat in game.seats.order_by("number")[1:]]
    assert all(re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+ \(Computer\)", label) for label in labels)


def test_a_seat_is_away_only_once_its_person_has_left_the_table_not_while_arriving():
    host, friend = APIClient(), APIClient()
    code = make_room(host, engine="drafting_trios")["code"]
    post(friend, f"/api/rooms/{code}/join")
    ready_all(code, [friend])
    game_id = post(host, f"/api/rooms/{code}/start")["game"]
    seats = host.get(f"/api/games/{game_id}/").json()["seats"]
    assert [s["away"] for s in seats] == [False, False]  # nobody's page has connected yet
    services.mark_connected(game_id=game_id, seat=1)
    services.mark_disconnected(game_id=game_id, seat=1)
    draft = host.get(f"/api/games/{game_id}/").json()["legal"][0]
    moved = host.post(f"/api/games/{game_id}/actions", {"action": draft}, format="json")
    assert moved.status_code == 200, moved.content
    seats = host.get(f"/api/games/{game_id}/").json()["seats"]
    assert [s["away"] for s in seats] == [False, True]
