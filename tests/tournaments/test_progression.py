"""Tournaments advance by themselves as results come in, in every format."""

import pytest

from hosting.core.errors import Conflict, Forbidden
from tests.tournaments.builders import report_top_seed_wins, staff_admin, started
from tournaments import services
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db


def codes(stage, status):
    return sorted(stage.matches.filter(status=status).values_list("code", flat=True))


def test_single_elimination_with_byes_runs_to_a_champion():
    tournament, stage, _ = started("single_elimination", 5)
    # 5 entrants in an 8 bracket: seeds 1, 2, 3 have byes, so 4 v 5 and, already, 2 v 3.
    assert codes(stage, "ready") == ["W1.2", "W2.2"]
    assert stage.matches.get(code="W1.1").result_kind == "bye"
    report_top_seed_wins(stage, "W1.2")
    assert codes(stage, "ready") == ["W2.1", "W2.2"]
    report_top_seed_wins(stage, "W2.1")
    report_top_seed_wins(stage, "W2.2")
    final = stage.matches.get(code="W3.1")
    assert {final.home.seed, final.away.seed} == {1, 2}
    report_top_seed_wins(stage, "W3.1")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert stage.matches.get(code="W3.1").winner.seed == 1


def test_a_correction_is_refused_once_a_later_match_started_unless_forced():
    tournament, stage, _ = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    first = stage.matches.get(code="W1.1")
    # Nothing depends on it yet that has started: a plain correction is fine.
    services.match_report_result(match=first, by=tournament.organiser, winner=first.away)
    assert stage.matches.get(code="W2.1").status == "pending"
    report_top_seed_wins(stage, "W1.2")
    Match.objects.filter(stage=stage, code="W2.1").update(status=Match.Status.LIVE)
    with pytest.raises(Conflict, match=r"W2\.1 already started"):
        services.match_report_result(match=first, by=tournament.organiser, winner=first.home)
    with pytest.raises(Forbidden, match=r"staff admin and a reason"):
        services.match_report_result(
            match=first, by=tournament.organiser, winner=first.home, force=True
        )
    referee = staff_admin()
    services.match_report_result(
        match=first,
        by=referee,
        winner=first.home,
        force=True,
        reason="score sheet misread",
        resets=["W2.1"],
    )
    entry = AuditEntry.objects.get(action="tournaments.match.result_corrected", data__forced=True)
    assert entry.actor == referee and entry.reason == "score sheet misread"


def test_double_elimination_reset_final_is_closed_when_the_winners_champion_wins():
    tournament, stage, _ = started("double_elimination", 4, format_options={"grand_final": "reset"})
    for code in ["W1.1", "W1.2", "W2.1", "L1.1", "L2.1", "GF1"]:
        report_top_seed_wins(stage, code)
    assert stage.matches.get(code="GF2").status == "closed"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_double_elimination_reset_final_is_played_when_the_losers_champion_wins():
    tournament, stage, _ = started("double_elimination", 4, format_options={"grand_final": "reset"})
    for code in ["W1.1", "W1.2", "W2.1", "L1.1", "L2.1"]:
        report_top_seed_wins(stage, code)
    final = stage.matches.get(code="GF1")
    services.match_report_result(match=final, by=tournament.organiser, winner=final.away)
    reset = stage.matches.get(code="GF2")
    assert reset.status == "ready"
    assert {reset.home, reset.away} == {final.home, final.away}


def test_round_robin_opens_one_round_at_a_time():
    tournament, stage, _ = started("round_robin", 4)
    assert codes(stage, "ready") == ["R1.1", "R1.2"]
    report_top_seed_wins(stage, "R1.1")
    assert codes(stage, "ready") == ["R1.2"]
    report_top_seed_wins(stage, "R1.2")
    assert codes(stage, "ready") == ["R2.1", "R2.2"]
    for code in ["R2.1", "R2.2", "R3.1", "R3.2"]:
        report_top_seed_wins(stage, code)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    table = services.standings(tournament=tournament)
    assert [row["points"] for row in table] == [3, 2, 1, 0]
    assert table[0]["name"] == "p1"


def test_swiss_pairs_each_round_when_the_last_one_ends_and_ranks_by_tiebreaks():
    tournament, stage, _ = started(
        "swiss", 7, format_options={"rounds": 3}, tiebreaks=["points", "buchholz", "wins"]
    )
    for number in (1, 2, 3):
        round_matches = stage.matches.filter(round__number=number)
        assert round_matches.filter(result_kind="bye").count() == 1  # 7 players: one bye
        for match in round_matches.filter(status="ready"):
            report_top_seed_wins(stage, match.code)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert stage.rounds.count() == 3
    table = services.standings(tournament=tournament)
    assert table[0]["name"] == "p1" and table[0]["points"] == 3
    assert set(table[0]["tiebreaks"]) == {"buchholz", "wins"}
    byes = stage.matches.filter(result_kind="bye").values_list("winner", flat=True)
    assert len(set(byes)) == 3  # nobody gets a second bye


def test_a_draw_is_refused_in_an_elimination_match():
    tournament, stage, _ = started("single_elimination", 2)
    match = stage.matches.get(code="W1.1")
    with pytest.raises(services.TournamentUserError, match="needs a winner"):
        services.match_report_result(match=match, by=tournament.organiser, winner=None)
