"""The dispute pages: filing from the game's page, the staff stepper, a ruling previewed then
confirmed with exactly its resets, and the decision shown on the tournament's page."""

import pytest
from django.test import Client

from games.models import GameSession
from tests.disputes.test_rulings import online_match, play
from tests.tournaments.builders import report_top_seed_wins, staff_admin, started
from tournaments.disputes import services as disputes
from tournaments.models import AuditEntry, Dispute

pytestmark = pytest.mark.django_db


def client_for(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_a_party_files_from_the_game_page_and_staff_step_through_the_log(clock):
    tournament, _, game, players = online_match(clock)
    play(game.pk, clock)
    play(game.pk, clock)
    party = client_for(players[0].user)
    board = party.get(f"/games/{game.pk}/").content.decode()
    filing = f"/disputes/new/{tournament.slug}/W1.1"
    assert filing in board
    form = party.get(filing).content.decode()
    assert 'name="moves" value="3"' in form
    answer = party.post(filing, {"reason": "my card vanished", "moves": ["3"]}, follow=True)
    assert "Your dispute is filed." in answer.content.decode()
    dispute = Dispute.objects.get()
    assert dispute.moves == [3] and dispute.game_id == game.pk
    referee = client_for(staff_admin())
    queue = referee.get("/admin/disputes/").content.decode()
    assert f"/admin/disputes/{dispute.pk}/" in queue and "Take it" in queue
    html = referee.get(f"/admin/disputes/{dispute.pk}/?step=3").content.decode()
    assert "Step 3 of 4" in html and "disputed" in html and "Full state" in html
    steps = referee.get(f"/api/disputes/{dispute.pk}/steps").json()["steps"]
    assert steps[3]["disputed"] and steps[3]["seat"] is not None
    hands = steps[3]["state"]["hands"]  # every hand, for staff only
    assert hands == GameSession.objects.get(pk=game.pk).state["hands"]
    assert f"&quot;hands&quot;: [\n  [\n   {hands[0][0]}," in html
    assert "Full state" not in party.get(f"/disputes/{dispute.pk}/").content.decode()


def test_an_overturn_on_the_page_shows_its_resets_first_then_applies_exactly_them():
    tournament, stage, _ = started("double_elimination", 4)
    for code in ("W1.1", "W1.2", "W2.1", "L1.1"):
        report_top_seed_wins(stage, code)
    w11 = stage.matches.get(code="W1.1")
    loser = w11.loser
    dispute = disputes.dispute_file(match=w11, by=loser.user, reason="I won")
    referee = client_for(staff_admin())
    action = f"/disputes/{dispute.pk}/rule"
    body = {"ruling": "overturn", "winner": str(loser.pk), "reason": "sheet misread"}
    preview = referee.post(action, body, follow=True).content.decode()
    assert "This ruling resets these matches" in preview
    assert "<li><code>W2.1</code></li><li><code>L1.1</code></li>" in preview
    assert Dispute.objects.get(pk=dispute.pk).status == "open"  # the preview changed nothing
    confirmed = referee.post(
        action, {**body, "confirmed": "yes", "resets": "W2.1,L1.1"}, follow=True
    ).content.decode()
    assert "The ruling is recorded." in confirmed
    ruled = Dispute.objects.get(pk=dispute.pk)
    assert ruled.status == "ruled" and ruled.ruling_data["resets"] == ["W2.1", "L1.1"]
    assert AuditEntry.objects.filter(action="tournaments.match.reset").count() == 2
    notice = client_for(loser.user).get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Ruled: Result overturned" in notice and "sheet misread" in notice


def test_a_settled_death_match_is_overturned_from_the_page_and_the_api_with_its_resets():
    from tests.disputes.test_genius_rulings import filed, four_player_season
    from tests.tournaments.test_genius_season import play_episode
    from tournaments.models import Match
    from tournaments.seasons import services as seasons

    tournament, cast, episode = four_player_season()
    p1, p2, p3, p4 = cast
    match = play_episode(tournament, episode)  # p4 is out
    second = tournament.episodes.get(number=2)
    seasons.main_match_record(
        episode=second, by=tournament.organiser, winners=[p1.pk], losers=[p2.pk, p3.pk]
    )
    dispute = filed(match)
    person = staff_admin()
    api = client_for(person)
    path = f"/api/disputes/{dispute.pk}/ruling"
    body = {"ruling": "overturn", "winner": p4.pk, "reason": "p3 misplayed"}
    dry = api.post(path, {**body, "dry_run": True}, content_type="application/json")
    assert dry.status_code == 200 and dry.json()["resets"] == ["E2.MM"]
    stale = api.post(path, {**body, "resets": []}, content_type="application/json")
    assert stale.status_code == 409 and "E2.MM" in stale.json()["detail"]
    page = client_for(person)
    action = f"/disputes/{dispute.pk}/rule"
    form = {"ruling": "overturn", "winner": str(p4.pk), "reason": "p3 misplayed"}
    preview = page.post(action, form, follow=True).content.decode()
    assert "<li><code>E2.MM</code></li>" in preview and "E3.MM stands for" in preview
    confirmed = page.post(
        action, {**form, "confirmed": "yes", "resets": "E2.MM"}, follow=True
    ).content.decode()
    assert "The ruling is recorded." in confirmed
    assert Match.objects.get(code="E1.DM1").winner_id == p4.pk
    assert tournament.episodes.get(number=2).status == "main_match"
    board = Client().get(f"/tournaments/{tournament.slug}/").content.decode()
    cast_section = board[board.index('class="season-cast"') :]
    assert "Eliminated in episode 1" in cast_section.split("p3", 1)[1].split("</tr>", 1)[0]


def test_finding_10_the_ruling_page_never_says_no_game_was_played_for_a_match_that_had_one(
    clock,
):
    """A game that has not dealt yet (it waits for its players' seeds) is named as such, not
    as "no game was played"; "no game" is said only when none was played here, and then why.
    The ruling form names the fields each kind of ruling takes; the trail reads as sentences."""
    _tournament, match, game, players = online_match(clock, seed_window_seconds=60)
    assert game.state is None  # waiting for the seeds
    dispute = disputes.dispute_file(match=match, by=players[1].user, reason="it never dealt")
    referee = client_for(staff_admin())
    html = referee.get(f"/admin/disputes/{dispute.pk}/").content.decode()
    assert "No game" not in html and "No game was played" not in html
    assert f"Game {game.pk} has not started: nothing was dealt yet." in html
    form = html[html.index('class="rule-form"') :]
    form = form[: form.index("</form>")]
    for field in ("ruling-winner", "ruling-entrant", "ruling-home", "ruling-seq"):
        tag = form[: form.index(f'id="{field}"')]
        assert "data-rulings=" in tag[tag.rindex("<p") :], field
    assert "disputes.js" in html
    trail = html[html.index('id="trail-title"') :]
    assert "disputes.filed" not in trail and "filed a dispute on W1.1" in trail


def test_finding_10_no_game_is_said_with_why_for_a_result_entered_by_hand():
    _tournament, stage, _ = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    by_hand = stage.matches.get(code="W1.1")
    other = disputes.dispute_file(match=by_hand, by=by_hand.loser.user, reason="I won")
    html = client_for(staff_admin()).get(f"/admin/disputes/{other.pk}/").content.decode()
    assert "No game of this match was played here: its result was entered by hand." in html
