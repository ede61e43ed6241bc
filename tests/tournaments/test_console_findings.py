"""Issue #27, findings 4 to 7: the console offers only what the rules accept and records only
what someone chose; the bracket names who is waiting; refusals name players."""

import pytest
from django.test import Client

from hosting.core.errors import Forbidden
from tests.tournaments.builders import open_tournament, started, user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import AuditEntry, Episode
from tournaments.seasons import services as seasons
from tournaments.templatetags.tournament_pages import points

pytestmark = pytest.mark.django_db


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_finding_5_the_result_form_preselects_no_winner_and_an_empty_choice_records_nothing():
    tournament, stage, _ = started("swiss", 4)
    client = signed_in(tournament.organiser)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    form = page[page.index('id="result-S1.1"') :]
    form = form[: form.index("</form>")]
    assert '<option value="" selected>Who won?</option>' in form
    assert "required" in form[form.index("<select") : form.index(">", form.index("<select"))]
    answer = client.post(
        f"/tournaments/{tournament.slug}/manage/result",
        {"match": "S1.1", "winner": ""},
        follow=True,
    ).content.decode()
    assert "Choose who won S1.1." in answer
    # A Swiss scores draws: an empty choice used to be taken for one.
    assert stage.matches.get(code="S1.1").status == "ready"


def test_finding_6_a_bye_winner_waits_in_round_two_by_name():
    tournament, _stage, players = started("single_elimination", 3)
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    second = board[board.index('id="match-W2.1"') :]
    second = second[: second.index("</article>")]
    assert players[0].display_name in second and "Seed 1" not in second


def test_finding_7_the_host_is_offered_no_protected_opponent_and_refusals_name_players():
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
    assert episode.status == Episode.Status.OPPONENTS
    page = signed_in(host).get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    offered = page[page.index('id="dmo-dmo"') :]
    offered = offered[: offered.index("</select>")]
    assert f'value="{cast[2].pk}"' in offered
    assert f'value="{cast[1].pk}"' not in offered  # holds a Token of Life
    assert f'value="{cast[0].pk}"' not in offered  # holds one too (the MM winner's own)
    with pytest.raises(services.TournamentUserError) as refused:
        seasons.opponent_choose(episode=episode, by=host, ec=cast[5].pk, dmo=cast[1].pk)
    assert "p2 holds a Token of Life" in refused.value.message
    assert str(cast[1].pk) not in refused.value.message.replace("p2", "")


def test_finding_4_the_start_names_who_did_not_check_in_and_audits_each():
    tournament, players = open_tournament("single_elimination", 4)
    host = tournament.organiser
    services.check_in_open(tournament=tournament, by=host)
    for player in players[:3]:
        services.entrant_check_in(entrant=player, by=player.user)
    client = signed_in(host)
    url = f"/tournaments/{tournament.slug}/manage/start"
    asked = client.post(url, follow=True).content.decode()
    assert "Start without those who did not check in?" in asked
    listed = asked[asked.index('id="start-confirm-form"') :]
    assert "<li>p4</li>" in listed[: listed.index("</form>")]
    tournament.refresh_from_db()
    assert tournament.status == "check_in"  # nothing happened yet
    client.post(url, {"confirm": "yes"}, follow=True)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    entry = AuditEntry.objects.get(action="tournaments.entrant.no_show_withdrawn")
    assert entry.target == f"entrant:{players[3].pk}" and entry.actor == host
    assert entry.before == {"status": "registered", "seed": 4}


def test_finding_3_the_entrants_list_is_served_alone_for_the_live_pages():
    tournament, players = open_tournament("single_elimination", 2)
    services.check_in_open(tournament=tournament, by=tournament.organiser)
    page = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    assert f'data-entrants-url="/tournaments/{tournament.slug}/entrants"' in page
    console = signed_in(tournament.organiser).get(f"/tournaments/{tournament.slug}/manage/")
    assert f'data-live-url="/live/tournaments/{tournament.slug}/"' in console.content.decode()
    services.entrant_check_in(entrant=players[0], by=players[0].user)
    listed = Client().get(f"/tournaments/{tournament.slug}/entrants").content.decode()
    assert 'id="t-entrants"' in listed and "Checked in" in listed


def test_a_decided_matchs_winner_waits_in_the_next_match_by_name():
    tournament, stage, players = started("single_elimination", 4)
    services.match_report_result(
        match=stage.matches.get(code="W1.1"), by=tournament.organiser, winner=players[0]
    )
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    final = board[board.index('id="match-W2.1"') :]
    final = final[: final.index("</article>")]
    assert "p1" in final and "Winner of W1.1" not in final and "Winner of W1.2" in final


def test_finding_2_an_organiser_corrects_a_finished_early_result_after_the_preview():
    tournament, stage, players = started(
        "single_elimination", 4, format_options={"third_place": True}
    )
    host = tournament.organiser
    for code in ("W1.1", "W1.2", "W2.1", "P3"):
        match = stage.matches.get(code=code)
        services.match_report_result(match=match, by=host, winner=match.home)
    client = signed_in(host)
    url = f"/tournaments/{tournament.slug}/manage/result"
    first = stage.matches.get(code="W1.1")
    body = {"match": "W1.1", "winner": str(first.away_id)}
    preview = client.post(url, body, follow=True).content.decode()
    shown = preview[preview.index('id="preview-form"') :]
    shown = shown[: shown.index("</form>")]
    assert "<strong>W2.1</strong>" in shown and "<strong>P3</strong>" in shown
    assert "p1 won" in shown  # the reset match is named with its result
    first.refresh_from_db()
    assert first.winner_id == first.home_id  # the preview changed nothing
    confirm = body | {"confirm": "yes", "force": "on", "resets": ["W2.1", "P3"]}
    refused = client.post(url, confirm, follow=True).content.decode()
    assert "needs a reason" in refused
    done = client.post(url, confirm | {"reason": "score sheet misread"}, follow=True)
    assert "The result of W1.1 is recorded." in done.content.decode()
    first.refresh_from_db()
    assert first.winner_id == players[3].pk
    entry = AuditEntry.objects.get(action="tournaments.match.result_corrected")
    assert entry.actor == host and entry.reason == "score sheet misread"
    assert entry.data["resets"] == ["W2.1", "P3"]


def test_finding_2_a_game_under_way_still_takes_a_staff_admin():
    tournament, stage, _ = started("single_elimination", 4)
    host = tournament.organiser
    for code in ("W1.1", "W1.2"):
        match = stage.matches.get(code=code)
        services.match_report_result(match=match, by=host, winner=match.home)
    stage.matches.filter(code="W2.1").update(status="live")
    first = stage.matches.get(code="W1.1")
    with pytest.raises(Forbidden, match="staff admin"):
        services.correction_preview(match=first, by=host, winner=first.away)


def test_the_organiser_reports_a_result_on_the_match_card_and_is_answered_there():
    tournament, stage, players = started("single_elimination", 4)
    client = signed_in(tournament.organiser)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    card = page[page.index('<article class="match status-ready" id="match-W1.1">') :]
    card = card[: card.index("</article>")]
    assert 'id="card-W1.1"' in card and "Who won?" in card
    assert f'value="{players[0].pk}"' in card and "p1 won" in card and "p4 won" in card
    assert "selected" not in card
    # The public board, cached for everyone, offers no such form.
    public = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    assert "card-report" not in public
    headers = {"HX-Request": "true", "HX-Trigger": "card-W1.1"}
    answered = client.post(
        f"/tournaments/{tournament.slug}/manage/result",
        {"match": "W1.1", "winner": str(players[3].pk)},
        headers=headers,
    ).content.decode()
    card = answered[answered.index('id="match-W1.1"') :]
    card = card[: card.index("</article>")]
    assert "The result of W1.1 is recorded." in card  # beside what was pressed
    assert stage.matches.get(code="W1.1").winner_id == players[3].pk


def test_finding_11_card_game_wording_one_number_format_and_one_winner_line():
    assert [points(v) for v in (2.25, 2.5, 0.5, 3, 2.75, 0.25)] == ["2¼", "2½", "½", "3", "2¾", "¼"]
    tournament, stage, _ = started("round_robin", 4)
    while stage.matches.filter(status="ready").exists():
        for match in stage.matches.filter(status="ready"):
            services.match_report_result(match=match, by=tournament.organiser, winner=None)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    assert board.count("Winner:") == 0 and board.count("Tied for first:") == 1
    assert "white" not in board.lower() and "FIDE" not in board
    assert "to be played in round" not in board  # the legend knows the event ended


def test_finding_10_waitlist_message_next_step_hint_and_a_styled_403():
    tournament, _players = open_tournament("single_elimination", 2, capacity=2)
    late = Client()
    late.force_login(user("late"))
    told = late.post(f"/tournaments/{tournament.slug}/register", follow=True).content.decode()
    assert "you are number 1 on the waitlist" in told
    assert "Your registration is recorded." not in told
    console = signed_in(tournament.organiser).get(f"/tournaments/{tournament.slug}/manage/")
    hint = console.content.decode()
    assert 'id="next-hint"' in hint and "Open check-in to confirm who is here" in hint
    refused = late.get(f"/tournaments/{tournament.slug}/manage/")
    assert refused.status_code == 403
    page = refused.content.decode()
    assert "You may not open this page" in page and 'class="brand"' in page
    assert "Back to the home page" in page
    missing = late.get("/tournaments/no-such-cup/")
    assert missing.status_code == 404 and 'class="brand"' in missing.content.decode()
