"""Issue #27: where the organiser allows it, the players report their own result on their match
card and the opponent confirms it; a disagreement waits for the organiser. Page, API, audit."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from hosting.core.errors import Conflict, Forbidden
from tests.tournaments.builders import started, user
from tournaments import services
from tournaments.core import audit_sentences
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_a_report_waits_for_the_opponent_and_the_same_report_records_it():
    tournament, stage, _players = started("single_elimination", 4, players_report=True)
    first = stage.matches.get(code="W1.1")  # p1 against p4
    home, away = first.home, first.away
    said = services.match_claim_result(match=first, by=home.user, winner=away)
    assert said == "claimed"
    first.refresh_from_db()
    assert first.status == "ready" and first.extra["claim"] == {"by": home.pk, "winner": away.pk}
    # A player changes their own report before the opponent answers.
    assert services.match_claim_result(match=first, by=home.user, winner=home) == "claimed"
    assert services.match_claim_result(match=first, by=away.user, winner=home) == "confirmed"
    first.refresh_from_db()
    assert (first.status, first.winner_id) == ("finished", home.pk)
    assert "claim" not in first.extra
    second = stage.matches.get(code="W1.2")
    services.match_report_result(match=second, by=tournament.organiser, winner=second.home)
    assert stage.matches.get(code="W2.1").home_id == home.pk  # the bracket moved on
    entries = list(AuditEntry.objects.filter(action__startswith="tournaments.match.result_c"))
    said = [e.sentence for e in audit_sentences.sentences(entries)]
    assert "p1 reported W1.1: p4 wins" in said
    assert "p4 confirmed p1's report of W1.1: p1 wins" in said


def test_a_disagreement_is_left_to_the_organiser_on_the_match_card():
    tournament, stage, _players = started("swiss", 4, players_report=True)
    match = stage.matches.get(code="S1.1")
    home, away = match.home, match.away
    services.match_claim_result(match=match, by=home.user, winner=home)
    assert services.match_claim_result(match=match, by=away.user, winner=None) == "contested"
    match.refresh_from_db()
    assert match.status == "ready" and len(match.extra["contested"]) == 2
    entry = AuditEntry.objects.get(action="tournaments.match.result_contested")
    assert audit_sentences.sentences([entry])[0].sentence == (
        f"{away.display_name} disputed {home.display_name}'s report of S1.1: a draw, not "
        f"{home.display_name} wins; the organiser decides"
    )
    page = signed_in(tournament.organiser).get(f"/tournaments/{tournament.slug}/manage/")
    card = page.content.decode()
    card = card[card.index('id="match-S1.1"') :]
    card = card[: card.index("</article>")]
    assert "The players disagree" in card and f"{home.display_name} reports: " in card
    told = signed_in(home.user).get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "You and your opponent reported different results: the organiser decides." in told
    assert f"/disputes/new/{tournament.slug}/S1.1" in told
    # The organiser decides as always; the claims are settled with the result.
    services.match_report_result(match=match, by=tournament.organiser, winner=away)
    match.refresh_from_db()
    assert "contested" not in match.extra and match.winner_id == away.pk


def test_only_the_players_report_and_only_where_the_organiser_allows():
    tournament, stage, _players = started("single_elimination", 4)
    first = stage.matches.get(code="W1.1")
    with pytest.raises(Forbidden, match="the organiser reports the results"):
        services.match_claim_result(match=first, by=first.home.user, winner=first.home)
    tournament.players_report = True
    tournament.save()
    other = stage.matches.get(code="W1.2")
    with pytest.raises(Forbidden, match=r"Only the two players of W1\.2"):
        services.match_claim_result(match=other, by=first.home.user, winner=other.home)
    services.match_report_result(match=first, by=tournament.organiser, winner=first.home)
    with pytest.raises(Conflict, match="not waiting for a result"):
        services.match_claim_result(match=first, by=first.away.user, winner=first.away)


def test_the_player_reports_on_their_card_and_the_api_confirms():
    tournament, stage, _players = started("single_elimination", 4, players_report=True)
    first = stage.matches.get(code="W1.1")
    home, away = first.home, first.away
    player = signed_in(home.user)
    page = player.get(f"/tournaments/{tournament.slug}/").content.decode()
    form = page[page.index('id="report-form"') :]
    form = form[: form.index("</form>")]
    assert "Who won?" in form and f"{away.display_name} won" in form and "selected" not in form
    answered = player.post(
        f"/tournaments/{tournament.slug}/report",
        {"match": "W1.1", "winner": str(home.pk)},
        headers={"HX-Request": "true", "HX-Trigger": "report-form"},
    ).content.decode()
    form = answered[answered.index('id="report-form"') :]
    assert "W1.1 waits for your opponent to confirm it" in form[: form.index("</form>")]
    opponent = signed_in(away.user).get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f"Your opponent reports: {home.display_name} won. Is that right?" in opponent
    api = APIClient()
    api.force_authenticate(away.user)
    answer = api.post(
        f"/api/tournaments/{tournament.slug}/matches/W1.1/claim",
        {"winner": home.pk},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["outcome"] == "confirmed"
    assert answer.json()["match"]["winner"] == home.pk
    refused = api.post(
        f"/api/tournaments/{tournament.slug}/matches/W1.1/claim", {"winner": "x"}, format="json"
    )
    assert refused.status_code == 400


def test_the_organiser_allows_it_with_a_toggle_of_the_form():
    host = Client()
    host.force_login(user("host", "organiser"))
    form = {"name": "Cup", "slug": "cup", "game": "color_clash", "format": "swiss"}
    assert host.post("/tournaments/new/", form | {"players_report": "on"}).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert cup.players_report
    page = host.get("/tournaments/cup/manage/edit").content.decode()
    toggle = page[page.index('id="f-players-report"') :]
    assert "checked" in toggle[: toggle.index(">")]
    assert host.post("/tournaments/cup/manage/edit", form).status_code == 302
    cup.refresh_from_db()
    assert not cup.players_report


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"match": "W1.1", "winner": ""}, "Choose who won W1.1."),
        ({"match": "W1.1", "winner": "abc"}, "Choose a player from the list."),
        ({"match": "Z9", "winner": "1"}, "no match"),
        ({"match": "W1.2", "winner": "p2"}, "Only the two players of W1.2"),
    ],
)
def test_the_card_refuses_bad_input_in_words(body, said):
    tournament, _stage, players = started("single_elimination", 4, players_report=True)
    if body["winner"] == "p2":
        body = {**body, "winner": str(players[1].pk)}
    answer = signed_in(players[0].user).post(
        f"/tournaments/{tournament.slug}/report",
        body,
        headers={"HX-Request": "true", "HX-Trigger": "report-form"},
    )
    assert answer.status_code in (400, 403, 404)
    assert said in answer.content.decode().replace("&#x27;", "'")
