"""Issue #27, finding 1: withdrawing or disqualifying a player from a running event is first
confirmed (what it costs, named), takes a reason for the audit, forfeits the player's open
matches at once, and can be undone until a match depending on it has started."""

import pytest
from django.test import Client

from hosting.core.errors import UserError
from tests.tournaments.builders import report_top_seed_wins, started, user
from tournaments import services
from tournaments.models import AuditEntry, Entrant

pytestmark = pytest.mark.django_db


def host(tournament) -> Client:
    client = Client()
    client.force_login(tournament.organiser)
    return client


def post(client: Client, tournament, data: dict) -> str:
    response = client.post(f"/tournaments/{tournament.slug}/manage/entrant", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def test_the_console_asks_first_naming_the_forfeit_then_withdraws_with_the_reason():
    tournament, stage, players = started("single_elimination", 4)
    worst = players[3]  # seed 4: W1.1 against p1
    client = host(tournament)
    page = post(client, tournament, {"entrant": worst.pk, "what": "withdraw"})
    assert 'id="removal-form"' in page and "Withdraw p4?" in page
    assert "W1.1" in page and "p1 wins by forfeit" in page
    worst.refresh_from_db()
    assert worst.status == Entrant.Status.REGISTERED  # nothing changed yet
    assert stage.matches.get(code="W1.1").status == "ready"

    refused = post(client, tournament, {"entrant": worst.pk, "what": "withdraw", "confirm": "yes"})
    assert "needs a reason" in refused
    worst.refresh_from_db()
    assert worst.status == Entrant.Status.REGISTERED

    data = {"entrant": worst.pk, "what": "withdraw", "confirm": "yes", "reason": "fell ill"}
    assert "p4 is withdrawn." in post(client, tournament, data)
    first = stage.matches.get(code="W1.1")
    assert first.status == "finished" and first.result_kind == "forfeit"
    assert first.winner_id == players[0].pk and first.loser_id == worst.pk
    entry = AuditEntry.objects.get(action="tournaments.entrant.withdrawn")
    assert entry.reason == "fell ill" and entry.data["forfeited"] == ["W1.1"]
    assert entry.actor == tournament.organiser
    # The public standings show them out at once.
    rows = services.standings(tournament=tournament)
    out = next(row for row in rows if row["name"] == "p4")
    assert out["eliminated_in"] and out["entry_ended"] == "withdrawn"
    board = Client().get(f"/tournaments/{tournament.slug}/board").content.decode()
    assert '<span class="badge danger">Withdrawn</span>' in board


def test_an_undo_before_the_next_match_starts_puts_the_player_back():
    tournament, stage, players = started("single_elimination", 4)
    worst = players[3]
    services.entrant_withdraw(entrant=worst, by=tournament.organiser, reason="misclick")
    report_top_seed_wins(stage, "W1.2")
    final = stage.matches.get(code="W2.1")
    assert final.status == "ready" and final.home_id == players[0].pk
    client = host(tournament)
    assert (
        "Undo the withdrawal of p4"
        in client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    )
    data = {"entrant": worst.pk, "what": "reinstate", "reason": "wrong player"}
    assert "p4 is back in the tournament." in post(client, tournament, data)
    worst.refresh_from_db()
    assert worst.status == Entrant.Status.REGISTERED
    first = stage.matches.get(code="W1.1")
    assert first.status == "ready" and {first.home_id, first.away_id} == {players[0].pk, worst.pk}
    final.refresh_from_db()
    assert final.status == "pending" and final.home_id is None
    assert AuditEntry.objects.filter(
        action="tournaments.entrant.reinstated", reason="wrong player"
    ).exists()


def test_no_undo_once_the_next_match_was_played():
    tournament, stage, players = started("single_elimination", 4)
    worst = players[3]
    services.entrant_withdraw(entrant=worst, by=tournament.organiser, reason="left")
    report_top_seed_wins(stage, "W1.2")
    report_top_seed_wins(stage, "W2.1")
    with pytest.raises(UserError, match=r"W2\.1 already started"):
        services.entrant_reinstate(entrant=worst, by=tournament.organiser, reason="back")
    assert services.undo_blockers(worst) == ["W2.1"]
    page = host(tournament).get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert "Undo the withdrawal of p4" not in page


def test_a_player_leaving_by_themselves_forfeits_too_and_an_organiser_names_a_reason():
    tournament, stage, players = started("double_elimination", 4)
    player = Client()
    player.force_login(players[3].user)
    response = player.post(
        f"/api/tournaments/{tournament.slug}/withdraw", {}, content_type="application/json"
    )
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    assert stage.matches.get(code="W1.1").result_kind == "forfeit"
    organiser = host(tournament)
    body = {"entrant": players[2].pk}
    refused = organiser.post(
        f"/api/tournaments/{tournament.slug}/withdraw", body, content_type="application/json"
    )
    assert refused.status_code == 400 and "needs a reason" in refused.json()["detail"]
    body["reason"] = "double-booked"
    done = organiser.post(
        f"/api/tournaments/{tournament.slug}/withdraw", body, content_type="application/json"
    )
    assert done.status_code == 200
    assert stage.matches.get(code="W1.2").loser_id == players[2].pk
    # The two withdrawn players meet in the losers' bracket: left to the organiser.
    assert Entrant.objects.filter(status="withdrawn").count() == 2


def test_the_admin_action_confirms_with_a_reason_through_the_same_service():
    _tournament, stage, players = started("single_elimination", 4)
    admin = user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client = Client()
    client.force_login(admin)
    url = "/admin/tournaments/entrant/"
    asked = client.post(url, {"action": "withdraw", "_selected_action": [players[3].pk]})
    assert asked.status_code == 200 and "W1.1" in asked.content.decode()
    players[3].refresh_from_db()
    assert players[3].status == "registered"
    client.post(
        url,
        {
            "action": "withdraw",
            "_selected_action": [players[3].pk],
            "confirm": "yes",
            "reason": "no-show",
        },
    )
    players[3].refresh_from_db()
    assert players[3].status == "withdrawn"
    assert stage.matches.get(code="W1.1").result_kind == "forfeit"
