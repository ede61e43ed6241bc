"""Casual Color Clash in the browser: a private room joined by code, by link and by the link
its QR code encodes (decoded here from the page's SVG with jsQR), a round played to the end
with one player back at the same hand and one replaced by a substitute; practice against
five computers to the end; Quick match seating four people under animal names."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

from django.db import transaction
from playwright.sync_api import expect

from games.engines.color_clash.cards import COLOR_INDEX, NOTATION
from games.models import GameSession, Room, Seat
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import sse_messages, sticking_out

JSQR = Path(__file__).resolve().parent / "vendor" / "jsqr" / "jsQR.js"
COLOURS = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}

# Draw the page's QR code (its SVG, as the browser has it) on a canvas and decode the pixels.
# The QR code's pixels as the page shows them (a PNG screenshot of it), read by jsQR. Decoded
# from a Blob, not loaded from a blob: URL, which the page's img-src 'self' refuses.
DECODE_QR = """async (png) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const image = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const found = jsQR(
    context.getImageData(0, 0, image.width, image.height).data, image.width, image.height
  );
  return found ? found.data : null;
}"""


def arrange(game_id: int, hands: dict[int, list[str]], top: str) -> None:
    """Deal these hands and this top card from the game's own cards (the rest stays the draw
    pile): a short round the test can follow. Under the game's lock, like every write."""
    with transaction.atomic():
        game = GameSession.objects.select_for_update().get(pk=game_id)
        state = game.state
        pool = [
            *state["draw_pile"],
            *state["discard_pile"],
            *(c for h in state["hands"] for c in h),
        ]

        def take(name: str) -> int:
            card = next(c for c in pool if NOTATION[c] == name)
            pool.remove(card)
            return card

        state["hands"] = [[take(name) for name in hands[seat]] for seat in range(len(hands))]
        state["discard_pile"] = [take(top)]
        state["draw_pile"] = pool
        state["color"] = COLOR_INDEX[COLOURS[top[0]]]
        state.update(drawn=None, choosing_color=False, window=None)
        state["called"] = [False] * len(hands)
        game.save(update_fields=["state"])


def hand_of(page) -> list[str]:
    return page.locator('[data-zone="hand"] [data-card]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )


def csrf(context) -> str:
    return next((c["value"] for c in context.cookies() if c["name"] == "csrftoken"), "")


def act_once(page, live_url: str, game_id: int) -> bool:
    """One move of this page's person, through the games API with the page's own session, as
    their board would send it: a colour, "Last card!" before the next-to-last card, a card
    that fits, else draw, else pass. Returns whether it moved."""
    state = page.request.get(f"{live_url}/api/games/{game_id}/").json()
    legal = state.get("legal") or []
    if state["status"] != "running" or not legal:
        return False
    hand = state["view"].get("hand", [])
    kinds = {a["type"]: a for a in legal}
    plays = [a for a in legal if a["type"] == "play"]
    if "choose_color" in kinds:
        action = kinds["choose_color"]
    elif "call_last_card" in kinds and ((len(hand) == 2 and plays) or state["view"]["window"]):
        action = kinds["call_last_card"]
    elif plays:
        action = plays[0]
    elif "draw" in kinds:
        action = kinds["draw"]
    elif "pass" in kinds:
        action = kinds["pass"]
    else:
        return False  # only a Catch: left to others
    response = page.request.post(
        f"{live_url}/api/games/{game_id}/actions",
        data=json.dumps({"action": action, "expected_version": state["version"]}),
        headers={"Content-Type": "application/json", "X-CSRFToken": csrf(page.context)},
    )
    assert response.status < 500, response.text()
    return response.ok


def wait_until(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def play_to_the_end(pages, live_url: str, game_id: int, seconds: float = 180) -> GameSession:
    """The people move until the game ends (the computers move through Celery; a computer's
    turn that a busy machine delays is drawn for by its 30 s timer, hence the long bound)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game = GameSession.objects.get(pk=game_id)
        if game.is_over:
            return game
        if not any(act_once(page, live_url, game_id) for page in pages):
            time.sleep(0.1)  # a computer's turn, or a window closing
    raise AssertionError("the game did not end")


def test_a_private_room_by_code_link_and_qr_plays_a_round_with_a_return_and_a_substitute(
    live_url, new_context, screenshot
):
    host = new_context().new_page()
    host.goto(f"{live_url}/play/")
    assert serious_violations(host) == []
    host.locator("#play-color_clash summary").first.click()  # the room options
    host.locator("#match").select_option("one_round")
    host.locator("#create-room").click()
    host.wait_for_url(f"{live_url}/r/*")
    code = host.locator("#room-code").text_content()
    link = host.locator("#share-url").input_value()
    assert link == f"{live_url}/r/{code}"

    by_code = new_context().new_page()
    by_code.goto(f"{live_url}/play/")
    by_code.locator("#code").fill(code.lower())
    by_code.locator("#join-code").click()
    by_code.get_by_role("button", name="Join the room").click()

    by_link = new_context().new_page()
    by_link.goto(link)
    by_link.get_by_role("button", name="Join the room").click()

    # The QR code as the host's page shows it, decoded from its pixels (once the host's lobby
    # has taken in both joins: each redraws it).
    expect(host.locator("#members li")).to_have_count(3)
    host.evaluate(JSQR.read_text())  # not a <script>: the CSP refuses inline ones
    png = base64.b64encode(host.locator("#room-qr svg").screenshot()).decode()
    decoded = host.evaluate(DECODE_QR, png)
    assert decoded == link
    by_qr = new_context(viewport={"width": 390, "height": 844}).new_page()
    by_qr.goto(decoded)
    by_qr.get_by_role("button", name="Join the room").click()

    guests = [by_code, by_link, by_qr]
    for page in guests:
        expect(page.locator("#lobby")).to_be_visible()
        page.get_by_role("button", name="I'm ready").click()
    # The host's lobby follows by itself: four players, all ready.
    expect(host.locator("#members li")).to_have_count(4)
    expect(host.locator("#members .badge.ready")).to_have_count(4)
    assert serious_violations(host) == []
    screenshot(host, "room-lobby")
    host.locator("#start").click()
    host.wait_for_url(f"{live_url}/games/*/")
    game_id = int(host.url.rstrip("/").rsplit("/", 1)[1])
    for page in guests:
        page.wait_for_url(f"{live_url}/games/{game_id}/")  # the lobbies went to the table

    # The deal waits for the players' seeds (the casual seed window): only then is a turn set.
    assert wait_until(lambda: "turn" in GameSession.objects.get(pk=game_id).state)
    first = GameSession.objects.get(pk=game_id).state["turn"]
    hands = {
        first: ["R1", "R2", "Y3"],
        (first + 1) % 4: ["R4", "Y5", "G6"],
        (first + 2) % 4: ["R7", "B8", "Y9"],
        (first + 3) % 4: ["G1", "B2", "Y4"],
    }
    arrange(game_id, hands, top="R5")
    for page in [host, *guests]:
        page.reload()
    pages = [host, *guests]  # seat numbers: the order they joined

    # A guest closes its page: the others see it reconnecting; reopening the room's link
    # within the 90 s returns the same seat and hand.
    guest_seats = [1, 2, 3]
    closer = next(seat for seat in guest_seats if seat != first)
    leaver = next(seat for seat in guest_seats if seat != closer)
    before = hand_of(pages[closer])
    assert sorted(before) == sorted(hands[closer])
    pages[closer].close()
    assert wait_until(lambda: not Seat.objects.get(game_id=game_id, number=closer).connected)
    away = host.locator(f'#clocks li[data-seat="{closer}"] .room-reconnecting')
    expect(away).to_have_text("reconnecting…")
    expect(pages[leaver].locator(f'#clocks li[data-seat="{closer}"]')).to_contain_text(
        "reconnecting…"
    )
    back = guests[closer - 1].context.new_page()
    back.goto(link)
    back.wait_for_url(f"{live_url}/games/{game_id}/")
    assert hand_of(back) == before
    pages[closer] = back

    # Another guest leaves: a labelled substitute finishes its seat.
    pages[leaver].locator("#leave-game").click()
    pages[leaver].wait_for_url(f"{live_url}/play/")
    seat_name = host.locator(f'#clocks li[data-seat="{leaver}"]')
    expect(seat_name).to_contain_text("Computer, substitute")
    expect(pages[leaver].locator(".messages")).to_contain_text(f"You left room {code}.")
    substituted = host.locator("#log li", has_text="is now played by a computer substitute")
    expect(substituted).to_have_count(1)  # said once, by the game's own log
    expect(away).to_have_count(0)  # the one who came back is back
    assert Seat.objects.get(game_id=game_id, number=leaver).kind == Seat.Kind.SUBSTITUTE

    people = [page for seat, page in enumerate(pages) if seat != leaver]
    game = play_to_the_end(people, live_url, game_id)
    scores = {int(seat): points for seat, points in game.outcome["scores"].items()}
    assert scores[leaver] == 0  # the substitute cannot score
    if game.state["rounds"][-1]["places"][0] == leaver:
        assert all(points == 0 for points in scores.values())  # nobody scores that round
    expect(host.locator("#end")).to_be_visible()
    expect(host.locator("#leave-game")).to_be_hidden()
    screenshot(host, "room-game-over")

    # Back in the room: the totals of the game, the one who left not among them.
    host.locator("#back-to-room").click()
    host.wait_for_url(f"{live_url}/r/{code}")
    expect(host.locator("#totals tbody tr")).to_have_count(3)
    expect(host.locator("#start")).to_have_text("Another round")
    host.set_viewport_size({"width": 360, "height": 740})
    assert sticking_out(host) == []


def test_practice_against_five_computers_runs_to_the_end(live_url, new_context, settings):
    settings.BOT_DELAY_SECONDS = (0.05, 0.15)  # the worker runs in this process
    page = new_context().new_page()
    page.goto(f"{live_url}/play/")
    page.locator("#play-color_clash summary").nth(1).click()  # the practice options
    page.locator("#computers").select_option("5")
    page.locator("#start-practice").click()
    page.wait_for_url(f"{live_url}/games/*/")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    # The game deals once the browser's seed is in (its seed window): the clocks follow.
    expect(page.locator("#clocks li .clock-name")).to_have_count(6, timeout=15_000)
    labels = page.locator("#clocks li .clock-name").all_text_contents()
    assert all("(Computer)" in label for label in labels[1:]), labels
    first = GameSession.objects.get(pk=game_id).state["turn"]
    numbers = ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
    colours = "RBYG"
    hands = {
        (first + n) % 6: [f"{colours[(n + k) % 4]}{numbers[(n + 2 * k) % 9]}" for k in range(3)]
        for n in range(6)
    }
    arrange(game_id, hands, top="R5")
    page.reload()
    game = play_to_the_end([page], live_url, game_id)
    assert game.status == GameSession.Status.FINISHED
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#back-to-room")).to_have_text("Practice again")


def test_quick_match_seats_four_people_under_animal_names(
    live_url, new_context, settings, sign_in, django_user_model
):
    settings.QUICK_MATCH_WAIT_SECONDS = 4
    user = django_user_model.objects.create_user("Realname", password="pw-real-12345")
    contexts = [new_context() for _ in range(4)]
    sign_in(contexts[0], live_url, user)
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.goto(f"{live_url}/play/quick")
    for page in pages:
        page.locator("#quick-match").click()
    for page in pages:
        page.wait_for_url(f"{live_url}/games/*/", timeout=15_000)
    urls = {page.url for page in pages}
    assert len(urls) == 1
    game_id = int(next(iter(urls)).rstrip("/").rsplit("/", 1)[1])
    room = Room.objects.get(game_id=game_id)
    assert room.kind == Room.Kind.QUICK
    seats = list(Seat.objects.filter(game_id=game_id))
    assert len(seats) == 4 and all(s.kind == Seat.Kind.HUMAN for s in seats)
    names = [s.display_name for s in seats]
    assert all(len(name.split()) == 2 for name in names) and "Realname" not in names
    for page in pages:
        expect(page.locator("#clocks li")).to_have_count(4)
        texts = [page.locator("#game-state").text_content(), *sse_messages(page)]
        assert not any("Realname" in text or f'"user":{user.pk}' in text for text in texts)
    for page in pages[1:]:  # the signed-in person's own header names them; nobody else's page
        assert "Realname" not in page.content()
