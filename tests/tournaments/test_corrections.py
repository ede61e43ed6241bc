"""Corrections that repair the bracket: entrants move, matches holding a different pair reset."""

import pytest
from rest_framework.test import APIClient

from games.models import GameSession
from hosting.core.errors import Conflict
from tests.tournaments.builders import (
    open_tournament,
    report_top_seed_wins,
    staff_admin,
    started,
)
from tournaments import checks, services
from tournaments.models import AuditEntry
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def client_for(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def assert_sound() -> None:
    """What ``check_tournaments`` reports: nothing."""
    assert [problems for _, problems in checks.all_problems()] == [[]]


def seeds_of(stage, code: str) -> tuple:
    match = stage.matches.get(code=code)
    return (match.home and match.home.seed, match.away and match.away.seed, match.status)


def snapshot(stage) -> list:
    rows = stage.matches.order_by("code").values_list(
        "code", "status", "home", "away", "winner", "home_score", "away_score"
    )
    return [list(rows), AuditEntry.objects.count(), GameSession.objects.count()]


def test_a_correction_feeding_a_match_not_yet_played_moves_the_entrant_without_resets():
    tournament, stage, _ = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    report_top_seed_wins(stage, "W1.2")
    assert seeds_of(stage, "W2.1") == (1, 2, "ready")
    first = stage.matches.get(code="W1.1")
    services.match_report_result(match=first, by=tournament.organiser, winner=first.away)
    assert seeds_of(stage, "W2.1") == (4, 2, "ready")
    assert not AuditEntry.objects.filter(action="tournaments.match.reset").exists()
    assert_sound()


def play_double_elimination_to_the_end():
    tournament, stage, _ = started("double_elimination", 4, format_options={"grand_final": "reset"})
    for code in ["W1.1", "W1.2", "W2.1", "L1.1", "L2.1", "GF1"]:
        report_top_seed_wins(stage, code)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert stage.matches.get(code="GF2").status == "closed"  # the winners' champion won GF1
    return tournament, stage


def test_a_forced_correction_in_double_elimination_is_listed_then_repairs_both_brackets():
    tournament, stage = play_double_elimination_to_the_end()
    base = f"/api/tournaments/{tournament.slug}/matches/W1.1/result"
    upset = {"winner": stage.matches.get(code="W1.1").away_id}  # seed 4 beat seed 1 after all
    organiser, referee = client_for(tournament.organiser), client_for(staff_admin())
    before = snapshot(stage)

    refused = organiser.post(base, upset, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "W2.1, L1.1, L2.1, GF1 were already played; preview the correction (a dry run lists "
        "what it resets), then confirm it with a reason"
    )
    forced = upset | {"force": True, "reason": "score sheet misread"}
    # Those matches are over: the organiser previews it as a staff admin would (issue #27).
    own = organiser.post(base, forced | {"dry_run": True}, format="json")
    assert own.status_code == 200 and own.json()["resets"] == ["W2.1", "L1.1", "L2.1", "GF1"]
    preview = referee.post(base, forced | {"dry_run": True}, format="json")
    assert preview.status_code == 200, preview.content
    assert preview.json() == {
        "dry_run": True,
        "match": "W1.1",
        "resets": ["W2.1", "L1.1", "L2.1", "GF1"],
        "refills": ["GF2"],
        "later_rounds_kept": [],
    }
    assert snapshot(stage) == before  # the dry run changed nothing
    without_list = referee.post(base, forced, format="json")
    assert without_list.status_code == 400 and "dry_run" in without_list.json()["detail"]
    stale = referee.post(base, forced | {"resets": ["W2.1"]}, format="json")
    assert stale.status_code == 409
    assert stale.json()["detail"] == (
        "the correction would now reset W2.1, L1.1, L2.1, GF1, not W2.1; run the dry run again"
    )
    assert snapshot(stage) == before

    listed = preview.json()["resets"][::-1]  # the same matches, in any order
    applied = referee.post(base, forced | {"resets": listed}, format="json")
    assert applied.status_code == 200, applied.content
    assert seeds_of(stage, "W2.1") == (4, 2, "ready")
    assert seeds_of(stage, "L1.1") == (1, 3, "ready")  # seed 1 drops to the losers' bracket
    for code in ["L2.1", "GF1", "GF2"]:
        assert seeds_of(stage, code) == (None, None, "pending")
    resets = AuditEntry.objects.filter(action="tournaments.match.reset").order_by("pk")
    assert [e.data["match"] for e in resets] == ["W2.1", "L1.1", "L2.1", "GF1"]
    assert all(e.reason == "score sheet misread" and e.data["corrected"] == "W1.1" for e in resets)
    assert resets.get(data__match="W2.1").data["previous"]["winner"] is not None
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert AuditEntry.objects.filter(action="tournaments.tournament.reopened").exists()
    assert_sound()

    # The repaired bracket plays on to a champion again.
    for code in ["W2.1", "L1.1", "L2.1", "GF1"]:
        report_top_seed_wins(stage, code)
    assert stage.matches.get(code="GF1").winner.seed == 1  # through the losers' bracket
    assert seeds_of(stage, "GF2") == (1, 2, "ready")  # so the bracket reset is played
    report_top_seed_wins(stage, "GF2")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert_sound()


def test_correcting_the_grand_final_opens_or_resets_the_bracket_reset():
    tournament, stage = play_double_elimination_to_the_end()
    final = stage.matches.get(code="GF1")
    # GF2 was closed and nothing was played in it: opening it needs no force.
    services.match_report_result(match=final, by=tournament.organiser, winner=final.away)
    reset = stage.matches.get(code="GF2")
    assert reset.status == "ready" and (reset.home, reset.away) == (final.away, final.home)
    report_top_seed_wins(stage, "GF2")
    final.refresh_from_db()
    with pytest.raises(Conflict, match="GF2 was already played; preview the correction"):
        services.match_report_result(match=final, by=tournament.organiser, winner=final.home)
    # The organiser confirms it themselves (GF2 is over), with a reason and the list.
    services.match_report_result(
        match=final,
        by=tournament.organiser,
        winner=final.home,
        force=True,
        reason="the winners' champion won GF1",
        resets=["GF2"],
    )
    reset.refresh_from_db()
    assert reset.status == "closed" and reset.winner is None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert_sound()


def test_a_third_place_match_follows_a_corrected_semi_final():
    _, stage, _ = started("single_elimination", 4, format_options={"third_place": True})
    for code in ["W1.1", "W1.2", "W2.1", "P3"]:
        report_top_seed_wins(stage, code)
    semi, referee = stage.matches.get(code="W1.2"), staff_admin()
    plan = services.correction_preview(
        match=semi, by=referee, winner=semi.away, reason="wrong winner entered"
    )
    assert plan.resets == ("W2.1", "P3")
    services.match_report_result(
        match=semi,
        by=referee,
        winner=semi.away,
        force=True,
        reason="wrong winner entered",
        resets=list(plan.resets),
    )
    assert seeds_of(stage, "W2.1") == (1, 3, "ready")
    assert seeds_of(stage, "P3") == (4, 2, "ready")
    assert_sound()


def test_a_reset_match_voids_its_running_game_and_starts_one_for_the_new_pair():
    tournament, stage, _ = started("single_elimination", 4, online=True)
    for code in ["W1.1", "W1.2"]:
        match = stage.matches.get(code=code)
        services.match_report_result(match=match, by=tournament.organiser, winner=match.home)
    final = stage.matches.get(code="W2.1")
    running = final.match_games.get().game
    assert final.status == "live" and running.status == "running"
    first = stage.matches.get(code="W1.1")
    services.match_report_result(
        match=first,
        by=staff_admin(),
        winner=first.away,
        force=True,
        reason="seed 4 won",
        resets=["W2.1"],
    )
    running.refresh_from_db()
    assert running.status == "aborted" and running.outcome["voided"] is True
    final.refresh_from_db()
    assert final.status == "live" and final.extra["voided_games"] == [running.pk]
    replay = final.match_games.get().game
    assert replay.pk != running.pk and replay.status == "running"
    players = set(replay.seats.values_list("user__username", flat=True))
    assert players == {"p4", "p2"}
    entry = AuditEntry.objects.get(action="tournaments.match.reset")
    assert entry.data["voided_games"] == [running.pk]
    assert_sound()


def test_a_swiss_correction_before_later_rounds_is_refused_unless_forced():
    tournament, stage, _ = started("swiss", 4, format_options={"rounds": 3})
    for match in stage.matches.filter(round__number=1).exclude(code__endswith="bye"):
        services.match_report_result(match=match, by=tournament.organiser, winner=match.home)
    assert stage.matches.filter(round__number=2).exists()
    first = stage.matches.get(code="S1.1")
    with pytest.raises(Conflict, match="round 2 is already paired"):
        services.match_report_result(match=first, by=tournament.organiser, winner=first.away)
    referee = staff_admin()
    plan = services.correction_preview(
        match=first, by=referee, winner=first.away, reason="result swapped on the sheet"
    )
    assert plan.resets == () and plan.later_swiss == ("S2.1", "S2.2")
    services.match_report_result(
        match=first,
        by=referee,
        winner=first.away,
        force=True,
        reason="result swapped on the sheet",
        resets=[],
    )
    entry = AuditEntry.objects.get(action="tournaments.match.result_corrected")
    assert entry.data["later_rounds_kept"] == ["S2.1", "S2.2"]
    assert stage.matches.filter(round__number=2).count() == 2  # paired as they were
    assert_sound()


def test_a_round_robin_correction_changes_only_the_standings():
    tournament, stage, _ = started("round_robin", 4)
    report_top_seed_wins(stage, "R1.1")
    match = stage.matches.get(code="R1.1")
    services.match_report_result(match=match, by=tournament.organiser, winner=None)
    match.refresh_from_db()
    assert match.result_kind == "draw" and match.home_score == 0.5


def test_bad_corrections_are_4xx_and_change_nothing():
    tournament, stage = play_double_elimination_to_the_end()
    referee, organiser = client_for(staff_admin()), client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}/matches"
    upset = {"winner": stage.matches.get(code="W1.1").away_id, "force": True, "reason": "x"}
    resets = ["W2.1", "L1.1", "L2.1", "GF1"]
    before = snapshot(stage)
    cases = [
        (referee, "W9.9", upset | {"dry_run": True}, 404, "no match 'W9.9' in this tournament"),
        (organiser, "W1.1", upset | {"reason": "", "resets": resets}, 400, "needs a reason"),
        (referee, "W1.1", {**upset, "dry_run": True, "force": False}, 400, "dry run previews"),
        (referee, "W1.1", upset | {"resets": "W2.1"}, 400, "invalid input"),
        (referee, "W1.1", upset | {"resets": [{"code": 1}]}, 400, "invalid input"),
        (referee, "W1.1", upset | {"reason": "", "resets": resets}, 403, "a reason"),
    ]
    for client, code, body, status, detail in cases:
        response = client.post(f"{base}/{code}/result", body, format="json")
        assert response.status_code == status, (body, response.content)
        assert detail in response.content.decode()
    assert snapshot(stage) == before


def test_a_death_match_result_is_not_corrected_around_the_season():
    from tests.tournaments.test_genius_season import RULES, play_episode

    tournament, _ = open_tournament("genius", 4, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    match = play_episode(tournament, episode)
    eliminated = set(tournament.entrants.filter(eliminated_in=1).values_list("pk", flat=True))
    with pytest.raises(Conflict, match="dispute ruling"):
        services.match_report_result(match=match, by=tournament.organiser, winner=match.loser)
    assert set(tournament.entrants.filter(eliminated_in=1).values_list("pk", flat=True)) == (
        eliminated
    )
