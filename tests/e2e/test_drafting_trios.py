"""A Drafting Trios Death Match in the browser: two players click it to the end while a
spectator follows; nothing hidden reaches a page that may not see it; a reload keeps the
seat and a dropped stream resumes."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import services
from games.invites import invite_for
from games.models import GameSession
from tests.catalogues import compile_catalogues
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import sse_messages, sticking_out
from tests.e2e.games import (
    DESKTOP_OPTIONS,
    PHONE_OPTIONS,
    check_table,
    claim_others,
    create_game,
    organiser,
    seated_page,
    version,
    wait_for_version,
)

# Short enough that idling drains the reserve within seconds; long enough that clicking
# through a step never does on a slow machine.
TIME_CONTROL = {"allowances": {"draft": 6, "play": 3, "choice": 6}, "reserve": 60}
# A click waits this long for its card: longer means the board was redrawn under it.
CLICK_MS = 3_000
PRIVATE = {"hand", "pile", "picks", "discards", "discard_pile", "named_card", "my_choice"}


@pytest.fixture
def catalogues() -> None:
    compile_catalogues()


def seat_players(bases, new_context, game):
    """Each player opens the invite link and takes a seat by clicking."""
    invite = invite_for(game)
    pages = []
    for number, base in enumerate(bases):
        page = new_context().new_page()
        page.goto(f"{base}/games/{game.pk}/?invite={invite}")
        page.get_by_role("button", name=f"Take seat {number + 1}").click()
        page.wait_for_url(f"{base}/games/{game.pk}/")
        assert "You play as" in page.locator("#you").inner_text()
        pages.append(page)
    return pages


def reserve_seconds(page, seat: int) -> int:
    minutes, seconds = (
        page.locator(f'.clock[data-seat="{seat}"] [data-part="reserve"]').inner_text().split(":")
    )
    return int(minutes) * 60 + int(seconds)


def select(buttons, indices: list[int]) -> None:
    """Click the cards at ``indices`` into the selection (a card already in it stays)."""
    for index in indices:
        button = buttons.nth(index)
        if button.get_attribute("aria-pressed") != "true":
            button.click(timeout=CLICK_MS)
        expect(buttons.nth(index)).to_have_attribute("aria-pressed", "true", timeout=CLICK_MS)


def act_if_asked(page) -> bool:
    """Make this seat's choice by clicking, if it owes one: the first legal draft or play.

    The other seat's move can redraw the board between reading it and clicking (a card
    detached, the pile passed on): the choice is then read again from the new board. The
    server takes only a decision the seat owes, so a retry never acts twice."""
    for _ in range(5):
        try:
            return _act_once(page)
        except (PlaywrightError, AssertionError):
            page.wait_for_timeout(100)
    return _act_once(page)


def _act_once(page) -> bool:
    if (
        page.locator(".dt-locked").count()
        or page.locator("#game").get_attribute("data-status") != "running"
    ):
        return False
    before = version(page)
    last = page.locator('[data-key="take-last"]')
    pile = page.locator('[data-zone="pile"] button')
    hand = page.locator('[data-zone="hand"] button')
    if last.count():
        last.click(timeout=CLICK_MS)
    elif pile.count() >= 2:
        select(pile, [0, 1])
        page.locator(".dt-confirm:enabled").click(timeout=CLICK_MS)
    elif hand.count() >= 3:
        cards = [
            hand.nth(i).locator("[data-card]").get_attribute("data-card")
            for i in range(hand.count())
        ]
        numbers = [i for i, card in enumerate(cards) if re.fullmatch(r"[RGBY][1-6]", card)]
        chosen = (numbers + [i for i in range(len(cards)) if i not in numbers])[:3]
        select(hand, chosen)
        page.locator(".dt-options button").first.click(timeout=CLICK_MS)
    elif page.locator('[data-key="pass"]').count():
        page.locator('[data-key="pass"]').click(timeout=CLICK_MS)
    elif page.locator('[data-key="name"]').count():
        page.locator('[data-key="name"]').click(timeout=CLICK_MS)
    elif page.locator('[data-key^="quake-"]').count():
        page.locator('[data-key^="quake-"]').first.click(timeout=CLICK_MS)
    else:
        return False
    wait_for_version(page, before)
    return True


def check_messages(page, seat: int | None) -> int:
    """Every payload the page got (embedded and streamed) is its own audience's: another
    seat's hidden zones never appear."""
    texts = [page.locator("#game-state").text_content(), *sse_messages(page)]
    for text in texts:
        payload = json.loads(text)
        assert payload["seat"] == seat
        view = payload.get("view") or {}
        if seat is None:
            assert not PRIVATE & set(view), "a spectator received hidden cards"
            assert "legal" not in payload
        elif view:
            assert view.get("you") == seat
    return len(texts)


def check_dom(page, seat: int | None) -> None:
    """The page shows hidden cards only of its own seat, and exactly those."""
    game = GameSession.objects.get(pk=int(page.locator("#game").get_attribute("data-game")))
    source = page.content()
    if seat is None:
        assert page.locator("[data-zone]").count() == 0
        assert '"hand"' not in source and '"pile"' not in source
        return
    state = game.state
    shown = page.locator('[data-zone="hand"] [data-card]').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert shown == sorted(state["hands"][seat])
    pile = page.locator('[data-zone="pile"] [data-card]').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert pile == sorted(state["piles"][seat])


def test_a_death_match_played_to_the_end_by_clicking(
    catalogues, live_url, new_context, sign_in, screenshot, django_user_model, dropping_proxy
):
    host = organiser(django_user_model)
    game = create_game(
        host, "drafting_trios", [{"role": "EC"}, {"role": "DMO"}], time_control=TIME_CONTROL
    )
    # The DMO's network drops later: it reaches the server through the proxy.
    players = seat_players([live_url, dropping_proxy.url], new_context, game)
    spectator_context = new_context()
    sign_in(spectator_context, live_url, host)
    spectator = spectator_context.new_page()
    spectator.goto(f"{live_url}/games/{game.pk}/")
    assert spectator.locator("#you").inner_text() == "You are watching as a spectator."
    screenshot(spectator, "game-lobby")
    spectator.get_by_role("button", name="Start the game").click()
    for page in (*players, spectator):
        # A function, not an expression: Playwright evaluates an expression with eval, which
        # the page's Content-Security-Policy refuses.
        page.wait_for_function("() => document.querySelector('#game').dataset.status === 'running'")
    ec, dmo = players
    assert ec.locator('[data-zone="pile"] button').count() == 10
    check_dom(ec, 0)
    check_dom(dmo, 1)
    check_dom(spectator, None)
    screenshot(ec, "drafting-trios-draft")
    assert serious_violations(ec) == []

    # The first drafting step: the EC chooses, the DMO's choice stays secret until it comes.
    act_if_asked(ec)
    expect(dmo.locator(".dt-chosen li").first).to_contain_text("chosen, secret until both")
    expect(spectator.locator(".dt-chosen li").first).to_contain_text("chosen, secret until both")
    expect(ec.locator(".dt-locked")).to_be_visible()
    act_if_asked(dmo)

    # Drafting runs to the playing phase; there the DMO idles past its allowance.
    while ec.locator('[data-zone="hand"] button').count() == 0:
        act_if_asked(ec) or act_if_asked(dmo) or ec.wait_for_timeout(50)
    act_if_asked(ec)
    start = reserve_seconds(dmo, 1)
    dmo.wait_for_selector('.clock[data-seat="1"].draining', timeout=8_000)
    dmo.wait_for_timeout(2_500)
    drained = reserve_seconds(dmo, 1)
    assert drained <= start - 2, (start, drained)
    assert reserve_seconds(spectator, 1) <= start - 1  # everyone sees it drain
    screenshot(dmo, "drafting-trios-play")
    assert serious_violations(dmo) == []
    check_dom(dmo, 1)
    act_if_asked(dmo)

    # A reload mid-game returns the same seat and the same cards.
    hand_before = ec.locator('[data-zone="hand"] [data-card]').evaluate_all(
        "e => e.map(x => x.dataset.card)"
    )
    ec.reload()
    assert "You play as" in ec.locator("#you").inner_text()
    assert (
        ec.locator('[data-zone="hand"] [data-card]').evaluate_all("e => e.map(x => x.dataset.card)")
        == hand_before
    )
    check_dom(ec, 0)

    # A dropped stream shows "reconnecting", then resumes where it stopped.
    seen = version(dmo)
    dropping_proxy.drop(3.0)
    dmo.locator("#connection").wait_for(state="visible", timeout=8_000)
    act_if_asked(ec)
    wait_for_version(dmo, seen, timeout=15_000)
    dmo.locator("#connection").wait_for(state="hidden")
    # (The waiting state and the start share version 0; after that each version comes once.)
    seen_states = [(p["version"], p["status"]) for p in map(json.loads, sse_messages(dmo))]
    assert len(seen_states) == len(set(seen_states)), "the resumed stream repeated a version"
    assert seen_states == sorted(seen_states, key=lambda s: s[0])

    rounds = 0
    while spectator.locator("#game").get_attribute("data-status") == "running" and rounds < 2000:
        if not (act_if_asked(ec) | act_if_asked(dmo)):
            ec.wait_for_timeout(50)
        rounds += 1
    for page in (*players, spectator):
        page.locator("#end").wait_for(state="visible")
    finished = GameSession.objects.get(pk=game.pk)
    assert finished.status == "finished" and finished.outcome["reason"] != "timeout"
    # the revealed seed, folded under the ending's "Revealed seed"
    assert finished.seed in spectator.locator("#end-seed").text_content()
    winner = finished.outcome["winners"][0]
    assert players[winner].locator("#end-outcome").inner_text().startswith("You won!")

    # The spectator followed every resolution without reloading.
    trios = finished.log.filter(action__type="trio").count()
    log_text = spectator.locator("#log").inner_text()
    assert len(re.findall(r" scored [\d.]+ points? in ", log_text)) == trios
    assert spectator.locator("#game").get_attribute("data-version") == str(finished.version)
    # Every page shows the whole log from the first move: the one reloaded mid-game (from the
    # page), the one whose stream dropped (the gap filled from the public log), the spectator.
    logs = [
        page.locator("#log li:not(.host-line)").all_inner_texts() for page in (*players, spectator)
    ]
    assert logs[0] == logs[1] == logs[2] and len(logs[0]) > 2 * trios
    assert check_messages(spectator, None) > 10
    check_messages(ec, 0)
    check_messages(dmo, 1)
    check_dom(spectator, None)
    for page in (ec, spectator):
        assert serious_violations(page) == []
    screenshot(spectator, "drafting-trios-end")

    # The same board in Portuguese and in Russian, strings from the script catalogue.
    for locale, words in (
        ("pt-BR", ("Fichas de pontos", "A partida terminou.")),
        ("ru", ("Листы очков", "Партия окончена.")),
    ):
        page = new_context(locale=locale).new_page()
        page.goto(f"{live_url}/games/{game.pk}/")
        expect(page.locator(".dt-sheets h2")).to_have_text(words[0])
        expect(page.locator("#turn")).to_have_text(words[1])
        assert serious_violations(page) == []
        screenshot(page, f"drafting-trios-end-{locale}")
    spectator.set_viewport_size({"width": 360, "height": 740})
    assert sticking_out(spectator) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_table_on_a_phone_and_a_desktop(live_url, new_context, django_user_model, size):
    """Seated at a Death Match: the pile to draft from and its buttons in the first screen
    of a phone, the aim and the EC / DMO roles said in words, the scoresheet whole."""
    host = organiser(django_user_model)
    game = create_game(host, "drafting_trios", [{"role": "EC"}, {"role": "DMO"}])
    options = PHONE_OPTIONS if size == "phone" else DESKTOP_OPTIONS
    page = seated_page(new_context, live_url, game, 0, **options)
    claim_others(game, [1])
    services.game_start(by=None, game_id=game.pk)
    page.reload()
    expect(page.locator('[data-zone="pile"] .dt-pick')).to_have_count(10)
    expect(page.locator(".dt-status")).to_contain_text("Elimination Candidate")
    expect(page.locator(".dt-aim")).to_be_visible()
    check_table(page, live_url, "drafting-trios-table", size, ".dt-mine button")
    sheet = page.locator(".dt-sheet").bounding_box()
    assert sheet["x"] + sheet["width"] <= page.viewport_size["width"]
    assert page.console_errors == []
