"""Issue #27: results are reported on the match card in every format (Swiss, round robin and a
season's Death Match too, not only on a bracket), and a phone reaches the bracket's final."""

import pytest
from django.test import Client

from tests.tournaments.builders import open_tournament, started
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import Episode, Match
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def card(page: str, code: str) -> str:
    found = page[page.index(f'id="match-{code}"') :]
    return found[: found.index("</article>")]


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_a_pairing_is_reported_on_its_card_and_answered_there(fmt):
    tournament, stage, _players = started(fmt, 4)
    client = signed_in(tournament.organiser)
    code = stage.matches.filter(status="ready").order_by("code").first().code
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    shown = card(page, code)
    assert f'id="card-{code}"' in shown and "Who won?" in shown and ">Draw<" in shown
    assert "selected" not in shown
    match = stage.matches.get(code=code)
    answered = client.post(
        f"/tournaments/{tournament.slug}/manage/result",
        {"match": code, "winner": str(match.away_id)},
        headers={"HX-Request": "true", "HX-Trigger": f"card-{code}"},
    ).content.decode()
    assert f"The result of {code} is recorded." in card(answered, code)
    match.refresh_from_db()
    assert match.winner_id == match.away_id


def test_the_phone_bracket_offers_a_jump_to_the_final():
    tournament, _stage, _players = started("single_elimination", 8)
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    assert 'href="#bracket-main-last"' in board and "Go to: Final" in board
    final = board[board.index('id="bracket-main-last"') :]
    assert 'id="match-W3.1"' in final[: final.index("</li>")]


def test_a_seasons_death_match_is_reported_on_its_card():
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    seasons.main_match_record(
        episode=episode, by=host, winners=[cast[0].pk], losers=[p.pk for p in cast[1:]]
    )
    seasons.candidates_choose(episode=episode, by=host, chosen=[cast[5].pk])
    episode.refresh_from_db()
    seasons.token_give(episode=episode, by=host, giver=cast[0].pk, receiver=cast[1].pk)
    episode.refresh_from_db()
    seasons.opponent_choose(episode=episode, by=host, ec=cast[5].pk, dmo=cast[2].pk)
    death_match = Match.objects.get(stage__tournament=tournament, status="ready")
    client = signed_in(host)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    shown = card(page, death_match.code)
    assert f'id="card-{death_match.code}"' in shown and "p6 won" in shown and "p3 won" in shown
    answered = client.post(
        f"/tournaments/{tournament.slug}/manage/result",
        {"match": death_match.code, "winner": str(cast[2].pk)},
        headers={"HX-Request": "true", "HX-Trigger": f"card-{death_match.code}"},
    ).content.decode()
    assert f"The result of {death_match.code} is recorded." in card(answered, death_match.code)
    episode.refresh_from_db()
    assert episode.status != Episode.Status.DEATH_MATCH


def test_finding_10_an_open_tournament_says_what_happens_next():
    tournament, _players = open_tournament("genius", 4, format_options=RULES)
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    assert "Registration is open: register in “Your entry” above" in board


def test_finding_11_byes_are_drawn_light():
    tournament, _stage, _players = started("single_elimination", 3)
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    bye = board[board.index('id="match-W1.1"') - 60 :]
    assert "is-bye" in bye[: bye.index('id="match-W1.1"')]


def test_finding_10_the_console_is_in_sections_and_a_preview_opens_beside_its_result():
    tournament, stage, _players = started("single_elimination", 4)
    host = tournament.organiser
    for code in ("W1.1", "W1.2"):
        match = stage.matches.get(code=code)
        services.match_report_result(match=match, by=host, winner=match.home)
    client = signed_in(host)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    nav = page[page.index('class="manage-sections"') :]
    nav = nav[: nav.index("</nav>")]
    for section in ("Next steps", "Bracket", "Entrants and check-in", "Results", "Webhooks"):
        assert section in nav, section
    first = stage.matches.get(code="W1.1")
    answered = client.post(
        f"/tournaments/{tournament.slug}/manage/result",
        {"match": "W1.2", "winner": str(stage.matches.get(code="W1.2").away_id)},
        headers={"HX-Request": "true", "HX-Trigger": "result-W1.2"},
    ).content.decode()
    # The preview follows the W1.2 row it corrects, not the top of the results (W1.1 first).
    assert answered.index('id="result-W1.1"') < answered.index('id="result-W1.2"')
    assert answered.index('id="result-W1.2"') < answered.index('id="preview-form"')
    assert first.winner_id == first.home_id
