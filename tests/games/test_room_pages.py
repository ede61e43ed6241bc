"""The casual pages: /play/ makes rooms and practice games, /r/<code> joins, shows the lobby
with the share link and its QR code, and sends members back to their seat."""

import re

import pytest
import segno
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import GameSession, Room

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


def qr_matrix_from_svg(svg: str) -> list[list[bool]]:
    """The dark modules of segno's inline SVG (one path of horizontal runs: ``M x y`` moves
    absolutely, then ``h n`` draws n modules and ``m dx dy`` moves relative to the last
    point), read back without rendering it."""
    path = re.search(r'<path[^>]* d="([^"]+)"', svg).group(1)
    cells: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            cells.update((int(x) + i, int(y - 0.5)) for i in range(int(float(a))))
            x += float(a)
    # The quiet zone around the symbol is light: the finder patterns mark its corners.
    left = min(c for c, _ in cells)
    top = min(r for _, r in cells)
    size = max(c for c, _ in cells) - left + 1
    return [[(left + col, top + row) in cells for col in range(size)] for row in range(size)]


def test_play_makes_a_room_whose_page_shares_its_link_and_qr():
    host = Client()
    assert host.get("/play/").status_code == 200
    response = host.post("/play/", {"mode": "family"})
    assert response.status_code == 302
    code = response["Location"].rsplit("/", 1)[1]
    room = Room.objects.get(code=code)
    assert (room.mode, room.match, room.turn_seconds) == ("family", "three_rounds", 90)
    page = host.get(f"/r/{code}").content.decode()
    link = f"http://testserver/r/{code}"
    assert f'value="{link}"' in page and 'id="lobby"' in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    expected = segno.make(link, error="m").matrix
    assert qr_matrix_from_svg(svg) == [
        [bool(v) for v in row] for row in expected
    ]  # the QR encodes exactly the share link


def test_a_link_opens_a_join_form_then_the_lobby_and_the_game_returns_the_same_seat():
    host, friend = Client(), Client()
    code = host.post("/play/", {"match": "one_round"})["Location"].rsplit("/", 1)[1]
    page = friend.get(f"/r/{code}")
    assert page.status_code == 200 and b'id="join-room"' in page.content
    assert friend.post(f"/r/{code}/join").status_code == 302
    assert friend.post(f"/r/{code}/ready").status_code == 302
    fragment = friend.get(f"/r/{code}/lobby").content.decode()
    assert fragment.count('class="member-name"') == 2
    started = host.post(f"/r/{code}/start")
    game = GameSession.objects.get(pk=Room.objects.get(code=code).game_id)
    assert started["Location"] == f"/games/{game.pk}/"
    # Reopening the room's link while the game runs is the way back to one's own seat.
    back = friend.get(f"/r/{code}")
    assert back.status_code == 302 and back["Location"] == f"/games/{game.pk}/"
    seat_page = friend.get(back["Location"]).content.decode()
    assert '"seat":1' in seat_page
    late = Client().get(f"/r/{code}")
    assert late.status_code == 409 and b"already started" in late.content
    # The friend's stream drops: the others' pages mark the seat as reconnecting.
    assert host.get(f"/r/{code}/presence").json() == {"game": game.pk, "reconnecting": []}
    services.mark_connected(game_id=game.pk, seat=1)
    services.mark_disconnected(game_id=game.pk, seat=1)
    assert host.get(f"/r/{code}/presence").json()["reconnecting"] == [1]
    assert 'id="room-presence"' in host.get(f"/games/{game.pk}/").content.decode()


def test_practice_from_the_page_goes_straight_to_the_table():
    player = Client()
    response = player.post("/play/practice", {"computers": "2"})
    assert response.status_code == 302
    game = GameSession.objects.get(pk=int(response["Location"].split("/")[2]))
    assert game.seats.filter(kind="computer").count() == 2
    page = player.get(response["Location"]).content.decode()
    assert 'id="back-to-room"' in page


def test_an_unknown_code_is_a_404_page_and_a_typed_code_is_normalised():
    client = Client()
    assert client.get("/r/ACDEFG").status_code == 404
    typed = client.get("/play/", {"code": " acd efg "})
    assert typed.status_code == 302 and typed["Location"] == "/r/ACDEFG"
