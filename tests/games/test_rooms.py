"""Casual rooms: private rooms by code, practice against computers, Quick match, leaving,
another round, expiry and the abuse limits; through the JSON API as clients use it."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import GameSession, Room, RoomMember, Seat
from games.rooms import codes as room_codes
from games.rooms import services as rooms

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _deal_at_once(settings):
    """These tests are about the rooms themselves: their games deal at the start, without
    waiting for browsers' seeds (the seed window is tests/games/test_casual_seeds.py's)."""
    settings.CASUAL_SEED_WINDOW_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()  # throttle counters and the queue's last-seen marks
    yield
    cache.clear()


def guest() -> APIClient:
    return APIClient()


def make_room(host: APIClient, **body) -> dict:
    response = host.post("/api/rooms/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def join(client: APIClient, code: str, status: int = 200) -> dict:
    response = client.post(f"/api/rooms/{code}/join", format="json")
    assert response.status_code == status, response.content
    return response.json()


def test_codes_are_six_unambiguous_letters_and_never_offensive():
    codes = {room_codes.new_code() for _ in range(500)}
    assert len(codes) > 490  # random, not counted up
    assert all(len(c) == 6 and set(c) <= set(room_codes.ALPHABET) for c in codes)
    assert not set("BILOSZ0123456789") & set(room_codes.ALPHABET)
    assert room_codes.is_offensive("XCUNTX") and room_codes.is_offensive("aFAGqq")
    assert not any(room_codes.is_offensive(c) for c in codes)
    assert room_codes.normalise(" kfx rtm ") == "KFXRTM"
    assert room_codes.normalise("KFXRT0") is None


def test_a_room_offers_its_modes_defaults():
    classic = make_room(guest())
    assert (classic["mode"], classic["match"], classic["turn_seconds"]) == ("classic", "to_500", 30)
    family = make_room(guest(), mode="family")
    assert (family["match"], family["turn_seconds"]) == ("three_rounds", 90)
    bad = guest().post("/api/rooms/", {"turn_seconds": 20}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid"


def test_players_join_ready_and_the_host_starts_a_seated_game():
    host, second, third = guest(), guest(), guest()
    room = make_room(host, match="one_round")
    code = room["code"]
    assert room["url"].endswith(f"/r/{code}") and room["members"][0]["host"]
    joined = join(second, code)
    assert "id" not in joined["members"][0]  # only the host sees member ids
    join(third, code)
    assert join(third, code)["players"] == 3  # joining twice keeps the one membership
    refused = host.post(f"/api/rooms/{code}/start")
    assert refused.status_code == 409 and "ready" in refused.json()["detail"]
    for client in (second, third):
        assert (
            client.post(f"/api/rooms/{code}/ready", {"ready": True}, format="json").status_code
            == 200
        )
    assert second.post(f"/api/rooms/{code}/start").status_code == 403  # not the host
    started = host.post(f"/api/rooms/{code}/start").json()
    assert started["status"] == "playing" and started["game_url"].endswith(
        f"/games/{started['game']}/"
    )
    game = GameSession.objects.get(pk=started["game"])
    assert game.status == GameSession.Status.RUNNING and game.config["match"] == "one_round"
    seats = list(game.seats.order_by("number"))
    names = [m["name"] for m in started["members"]]
    assert [s.display_name for s in seats] == names and all(s.guest_id for s in seats)
    # Each member holds their own seat: their moves go through the games API.
    state = second.get(f"/api/games/{game.pk}/").json()
    assert state["seat"] == 1 and "hand" in state["view"]
    assert "guest" not in str(started) and seats[0].guest_id not in str(started)
    late = join(guest(), code, status=409)
    assert "already started" in late["detail"]


def test_a_full_room_refuses_a_seventh_and_the_host_removes_before_the_start():
    host = guest()
    code = make_room(host)["code"]
    others = [guest() for _ in range(5)]
    for client in others:
        join(client, code)
    assert "full" in join(guest(), code, status=409)["detail"]
    members = host.get(f"/api/rooms/{code}/").json()["members"]
    target = next(m for m in members if not m["host"])
    assert (
        others[0]
        .post(f"/api/rooms/{code}/remove", {"member": target["id"]}, format="json")
        .status_code
        == 403
    )
    removed = host.post(f"/api/rooms/{code}/remove", {"member": target["id"]}, format="json")
    assert removed.status_code == 200 and removed.json()["players"] == 5


def test_wrong_codes_are_throttled_so_a_code_cannot_be_found_by_trying(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "room_code.client": "3/h"}
    code = make_room(guest())["code"]
    prober = guest()
    wrong = "".join(reversed(code)) if code[::-1] != code else "AAAAAA"
    for _ in range(3):
        assert prober.get(f"/api/rooms/{wrong}/").status_code == 404
    refused = prober.get(f"/api/rooms/{code}/")  # even the right code, now
    assert refused.status_code == 429 and refused.json()["error"] == "throttled"
    assert int(refused["Retry-After"]) > 0


def test_room_creation_is_throttled_per_client(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "room_create.client": "2/m"}
    client = guest()
    make_room(client)
    make_room(client)
    assert client.post("/api/rooms/", {}, format="json").status_code == 429


def test_practice_seats_the_person_against_labelled_computers():
    client = guest()
    response = client.post("/api/rooms/practice", {"computers": 5}, format="json")
    assert response.status_code == 201, response.content
    game = GameSession.objects.get(pk=response.json()["game"])
    kinds = [s.kind for s in game.seats.order_by("number")]
    assert kinds == [Seat.Kind.HUMAN] + [Seat.Kind.COMPUTER] * 5
    assert all(s.label().endswith("(Computer)") for s in game.seats.all()[1:])
    assert client.post("/api/rooms/practice", {"computers": 6}, format="json").status_code == 400


def test_quick_match_seats_only_people_under_animal_names(settings, django_user_model):
    settings.QUICK_MATCH_WAIT_SECONDS = 0
    user = django_user_model.objects.create_user("realname", password="pw-real-12345")
    signed_in = APIClient()
    signed_in.force_authenticate(user)
    guests = [guest() for _ in range(3)]
    first = guests[0].post("/api/rooms/quick").json()
    assert first["status"] == "open" and first["kind"] == "quick"
    # Alone, it never starts, whatever the wait.
    assert rooms.quick_check(Room.objects.get(code=first["code"]).pk) is False
    codes = {c.post("/api/rooms/quick").json()["code"] for c in [*guests[1:], signed_in]}
    assert codes == {first["code"]}
    seen = guests[1].get(f"/api/rooms/{first['code']}/").json()
    assert seen["status"] == "playing"
    game = GameSession.objects.get(pk=seen["game"])
    seats = list(game.seats.all())
    assert len(seats) == 4 and all(s.kind == Seat.Kind.HUMAN for s in seats)
    names = {s.display_name for s in seats}
    assert "realname" not in names and all(len(n.split()) == 2 for n in names)
    for client in (*guests, signed_in):
        text = client.get(f"/api/games/{game.pk}/").content.decode()
        assert "realname" not in text and str(user.pk) not in text.split('"seat"')[0][:0]
        assert "realname" not in str(client.get(f"/api/rooms/{first['code']}/").json())


def test_quick_match_drops_those_who_stopped_waiting(settings):
    settings.QUICK_MATCH_WAIT_SECONDS = 0
    a, b = guest(), guest()
    code = a.post("/api/rooms/quick").json()["code"]
    b.post("/api/rooms/quick")
    room = Room.objects.get(code=code)
    stale = RoomMember.objects.filter(room=room).last()
    RoomMember.objects.filter(pk=stale.pk).update(
        joined=timezone.now() - timedelta(seconds=rooms.QUEUE_SEEN_SECONDS + 5)
    )
    cache.delete(rooms.QueueSeen.key(stale.pk))
    assert rooms.quick_check(room.pk) is False and room.members.count() == 1


def test_leaving_a_game_hands_the_seat_to_a_substitute_and_another_round_follows():
    host, other = guest(), guest()
    code = make_room(host, match="one_round")["code"]
    join(other, code)
    other.post(f"/api/rooms/{code}/ready", {"ready": True}, format="json")
    game_id = host.post(f"/api/rooms/{code}/start").json()["game"]
    assert other.post(f"/api/rooms/{code}/leave").status_code == 200
    seat = Seat.objects.get(game_id=game_id, number=1)
    assert seat.kind == Seat.Kind.SUBSTITUTE and seat.label().endswith("(Computer, substitute)")
    assert 1 in GameSession.objects.get(pk=game_id).state["substitutes"]
    services.game_void(game_id=game_id, reason="test: end the round", by=None)
    lobby = host.get(f"/api/rooms/{code}/").json()
    assert lobby["status"] == "open" and lobby["players"] == 1
    assert [t["name"] for t in lobby["totals"]] == [lobby["members"][0]["name"]]
    newcomer = guest()
    join(newcomer, code)
    newcomer.post(f"/api/rooms/{code}/ready", {"ready": True}, format="json")
    again = host.post(f"/api/rooms/{code}/start").json()
    assert again["game"] != game_id and [r["number"] for r in again["rounds"]] == [1, 2]


def test_idle_rooms_close_and_their_games_stay(settings):
    host = guest()
    code = make_room(host)["code"]
    practice = host.post("/api/rooms/practice", {"computers": 1}, format="json").json()
    old = timezone.now() - timedelta(seconds=settings.ROOM_IDLE_SECONDS + 1)
    Room.objects.update(last_activity=old)
    assert rooms.rooms_sweep() == 1  # the practice game still runs: its room is not idle
    assert Room.objects.get(code=code).status == Room.Status.CLOSED
    assert host.get(f"/api/rooms/{code}/").status_code == 404
    assert Room.objects.get(code=practice["code"]).status == Room.Status.PLAYING
    assert GameSession.objects.filter(pk=practice["game"]).exists()


@pytest.mark.django_db(transaction=True)
def test_people_entering_the_queue_together_share_one_table():
    import threading

    from django.db import connections

    from hosting.core.identity import Guest

    barrier = threading.Barrier(4)
    codes = []

    def enter(number: int) -> None:
        barrier.wait()
        person = rooms.Person(guest=Guest(id=f"q{number}", name=f"Q{number}"))
        codes.append(rooms.quick_enter(person=person).code)
        connections.close_all()

    threads = [threading.Thread(target=enter, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(codes) == 4 and len(set(codes)) == 1
