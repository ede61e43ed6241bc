"""The public log and the refusals said in words by code: every code has its sentence in
every language, a page shows the whole log from the first move, and the log's entries carry
only what everyone may see."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from games import engines, public_log, services
from games.engines.refusals import MESSAGES
from tests.catalogues import compile_catalogues
from tests.games.hosting_helpers import claim, create_game

LANGUAGES = ("pt-br", "ru")


@pytest.fixture(scope="module")
def catalogues():
    compile_catalogues()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_and_log_line_has_a_translation(catalogues, language):
    with translation.override("en"):
        english = {key: public_log.wording(key) for key in public_log.LINES}
    with translation.override(language):
        said = {key: public_log.wording(key) for key in public_log.LINES}
    assert set(said["dropmix"]["refusals"]) == set(MESSAGES)
    untranslated = [
        (key, part, code)
        for key, wording in said.items()
        for part in ("lines", "refusals", "words")
        for code, text in wording[part].items()
        if text == english[key][part][code]
    ]
    assert untranslated == []


def test_every_engine_words_each_public_event_it_emits():
    for key in ("color_clash", "drafting_trios", "dropmix"):
        engine = engines.get(key)
        fields = engine.public_events.__func__.__globals__["PUBLIC_EVENTS"]
        assert set(fields) <= {line.split(".")[0] for line in public_log.LINES[key]}, key


@pytest.mark.django_db
def test_the_public_log_runs_from_the_first_move_in_the_page_the_stream_and_the_api(
    organiser, engine, clock
):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    cards = []
    for player in players:
        card = player.legal(game_id)[0]
        cards.append(card["card"])
        result = services.act(game_id=game_id, seat=player.seat, action=card)
        # the commit's payloads carry its entries, for every audience alike
        for text in result.payloads.values():
            assert json.loads(text)["log"][-1]["seq"] == result.version
        clock.advance(1.01)  # the applause window closes on the next act
    played = [
        {"type": "played", "seat": seat, "card": card, "line": "played"}
        for seat, card in enumerate(cards)
    ]
    log = Client().get(f"/api/games/{game_id}/public-log").json()
    assert [e for entry in log["log"] for e in entry["events"]][:2] == played
    assert log["log"][0]["seq"] == 1 and log["version"] == len(log["log"])
    # a page opened later still shows the first move (and what its read applied: the window
    # that closed meanwhile)
    page = Client().get(f"/games/{game_id}/").content.decode()
    embedded = page.split('<script type="application/json" id="game-log">')[1].split("</script>")
    assert json.loads(embedded[0])[: len(log["log"])] == log["log"]
    wording = page.split('id="game-wording">')[1].split("</script>")[0]
    assert json.loads(wording)["refusals"]["not_your_turn"] == "it is not your turn"


def test_public_events_keep_only_the_fields_listed_for_their_type():
    events = [
        {"type": "drew", "seat": 1, "count": 1, "card": "R5"},  # "card" is not public
        {"type": "window_opened", "name": "last_card", "seat": 1},  # not listed: left out
    ]
    assert engines.get("color_clash").public_events(events) == [
        {"type": "drew", "seat": 1, "count": 1}
    ]
