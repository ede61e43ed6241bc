"""Disputes end to end on the services: filing, its window, withdrawing, pausing the clocks,
and every ruling, each applied atomically with its reason and audited."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import clocks, replays, verification
from games import services as game_services
from games.checks import game_problems
from games.models import GameSession
from hosting.core.errors import Conflict, Forbidden, UserError
from tests.tournaments.builders import report_top_seed_wins, staff_admin, started
from tournaments import checks
from tournaments.disputes import services as disputes
from tournaments.models import AuditEntry, Dispute, Match

pytestmark = pytest.mark.django_db


def assert_sound() -> None:
    assert [problems for _, problems in checks.all_problems()] == [[]]


def online_match(clock, **options):
    """A two-player final played online; a drawn game goes to the better seed (one game)."""
    options["ruleset"] = {"undecided": "higher_seed", **options.get("ruleset", {})}
    tournament, stage, players = started("single_elimination", 2, online=True, **options)
    match = stage.matches.get(code="W1.1")
    return tournament, match, match.match_games.get().game, players


def play(game_id: int, clock, seat_card=None) -> None:
    """The seat to move plays its lowest card, then the applause window closes."""
    game = GameSession.objects.get(pk=game_id)
    seat = game.state["turn"]
    card = min(game.state["hands"][seat])
    game_services.act(game_id=game_id, seat=seat, action={"type": "play", "card": card})
    clock.advance(1.5)
    game_services.enforce_deadline(game_id=game_id)


def test_a_party_files_within_the_window_and_withdraws_until_it_is_assigned():
    tournament, stage, players = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    match = stage.matches.get(code="W1.1")
    loser = match.loser.user
    loser.email = "p4@example.org"
    loser.save()
    with pytest.raises(Forbidden):
        disputes.dispute_file(match=match, by=players[1].user, reason="not my match")
    with pytest.raises(UserError, match="needs a reason"):
        disputes.dispute_file(match=match, by=loser, reason="  ")
    dispute = disputes.dispute_file(match=match, by=loser, reason="the score sheet is wrong")
    with pytest.raises(Conflict, match="already have a dispute open"):
        disputes.dispute_file(match=match, by=loser, reason="again")
    disputes.dispute_withdraw(dispute=dispute, by=loser)
    assert Dispute.objects.get(pk=dispute.pk).status == "withdrawn"
    again = disputes.dispute_file(match=match, by=loser, reason="second thoughts")
    referee = staff_admin()
    with pytest.raises(Forbidden):
        disputes.dispute_assign(dispute=again, by=tournament.organiser)
    disputes.dispute_assign(dispute=again, by=referee)
    with pytest.raises(Conflict, match="until an admin takes it"):
        disputes.dispute_withdraw(dispute=again, by=loser)
    Match.objects.filter(pk=match.pk).update(updated=timezone.now() - timedelta(hours=25))
    with pytest.raises(Conflict, match="closed 24 hours after it"):
        disputes.dispute_file(match=match, by=match.winner.user, reason="late")
    steps = list(
        AuditEntry.objects.filter(target=f"dispute:{dispute.pk}").values_list("action", flat=True)
    )
    assert sorted(steps) == ["disputes.filed", "disputes.withdrawn"]


def test_a_dispute_pauses_the_clocks_and_the_resume_gives_back_exactly_the_paused_time(
    clock, django_capture_on_commit_callbacks
):
    tournament, match, game, players = online_match(clock, dispute_pauses_clocks=True)
    clock.advance(3.25)
    before = game_services.fresh_game(game_id=game.pk)
    seat = before.state["turn"]
    had = before.clocks[str(seat)]
    with django_capture_on_commit_callbacks(execute=True):
        dispute = disputes.dispute_file(
            match=match, by=players[0].user, reason="my card vanished", pause=True
        )
    paused = GameSession.objects.get(pk=game.pk)
    assert paused.is_paused and paused.next_deadline is None
    assert game_problems(paused) == []  # check_games knows a paused game has no deadline
    clock.advance(500)  # far beyond the 10 s allowance: nothing runs out while paused
    assert game_services.enforce_deadline(game_id=game.pk) == 0
    card = min(paused.state["hands"][seat])
    with pytest.raises(Conflict, match="paused"):
        game_services.act(game_id=game.pk, seat=seat, action={"type": "play", "card": card})
    with pytest.raises(Forbidden):
        disputes.dispute_resume(dispute=dispute, by=tournament.organiser)
    seconds = disputes.dispute_resume(dispute=dispute, by=staff_admin())
    assert seconds == pytest.approx(500)
    resumed = GameSession.objects.get(pk=game.pk)
    now = game_services.now()
    left = clocks.remaining(resumed.control(_engine(resumed)), resumed.clocks[str(seat)], now)
    at_pause = clocks.remaining(resumed.control(_engine(resumed)), had, paused.paused_at)
    assert left["allowance"] == pytest.approx(at_pause["allowance"], abs=1e-6)
    assert left["allowance"] == pytest.approx(10 - 3.25, abs=1e-6)
    assert resumed.next_deadline.timestamp() == pytest.approx(now + 10 - 3.25, abs=1e-3)
    actions = AuditEntry.objects.filter(target=f"game:{game.pk}").order_by("pk")
    assert [a.action for a in actions] == ["games.clock.paused", "games.clock.resumed"]
    assert actions[1].after["paused_seconds"] == pytest.approx(500)


def _engine(game):
    from games import engines

    return engines.get(game.engine)


def test_dismiss_uphold_adjust_forfeit_and_disqualify_each_apply_with_their_reason():
    tournament, stage, _ = started("round_robin", 4)
    referee = staff_admin()
    codes = list(stage.matches.filter(status="ready").values_list("code", flat=True))
    for code in codes:
        report_top_seed_wins(stage, code)
    first, second = (stage.matches.get(code=code) for code in codes[:2])

    def filed(match):
        return disputes.dispute_file(match=match, by=match.loser.user, reason="contested")

    dismissed = filed(first)
    with pytest.raises(Forbidden):
        disputes.dispute_rule(
            dispute=dismissed, by=tournament.organiser, ruling="dismiss", reason="x"
        )
    with pytest.raises(UserError, match="written reason"):
        disputes.dispute_rule(dispute=dismissed, by=referee, ruling="dismiss", reason="")
    disputes.dispute_rule(dispute=dismissed, by=referee, ruling="dismiss", reason="no grounds")
    with pytest.raises(Conflict, match="already closed"):
        disputes.dispute_rule(dispute=dismissed, by=referee, ruling="uphold", reason="twice")
    upheld = filed(second)
    disputes.dispute_rule(dispute=upheld, by=referee, ruling="uphold", reason="sheet checked")
    assert Match.objects.get(pk=second.pk).winner_id == second.winner_id

    adjusted = filed(first)
    with pytest.raises(UserError, match="contradict"):
        disputes.dispute_rule(
            dispute=adjusted, by=referee, ruling="adjust", reason="x", home_score=0, away_score=1
        )
    disputes.dispute_rule(
        dispute=adjusted,
        by=referee,
        ruling="adjust",
        reason="half point",
        home_score=1,
        away_score=0.5,
    )
    assert Match.objects.get(pk=first.pk).away_score == 0.5
    entry = AuditEntry.objects.get(action="tournaments.match.scores_adjusted")
    assert (entry.before["away_score"], entry.after["away_score"]) == (0.0, 0.5)

    forfeited = filed(second)
    disputes.dispute_rule(
        dispute=forfeited, by=referee, ruling="forfeit", reason="no show", winner=second.loser
    )
    after = Match.objects.get(pk=second.pk)
    assert after.winner_id == second.loser_id and after.result_kind == "forfeit"

    disqualified = disputes.dispute_file(match=first, by=first.winner.user, reason="cheating")
    disputes.dispute_rule(
        dispute=disqualified,
        by=referee,
        ruling="disqualify",
        reason="colluded",
        entrant=first.loser,
    )
    first.loser.refresh_from_db()
    assert first.loser.status == "disqualified"
    ruled = AuditEntry.objects.filter(action="disputes.ruled").order_by("pk")
    assert [(e.data["ruling"], e.reason) for e in ruled] == [
        ("dismiss", "no grounds"),
        ("uphold", "sheet checked"),
        ("adjust", "half point"),
        ("forfeit", "no show"),
        ("disqualify", "colluded"),
    ]


def double_elimination_with_results(codes):
    tournament, stage, _ = started("double_elimination", 4)
    for code in codes:
        report_top_seed_wins(stage, code)
    return tournament, stage


def test_an_overturn_whose_next_match_had_not_started_repairs_the_bracket():
    _, stage = double_elimination_with_results(["W1.1", "W1.2"])
    w11 = stage.matches.get(code="W1.1")
    assert stage.matches.get(code="W2.1").status == "ready"  # entrants known, nothing played
    dispute = disputes.dispute_file(match=w11, by=w11.loser.user, reason="I won")
    referee = staff_admin()
    preview = disputes.dispute_preview(
        dispute=dispute, by=referee, ruling="overturn", winner=w11.loser
    )
    assert preview.resets == () and set(preview.refills) == {"W2.1", "L1.1"}
    disputes.dispute_rule(
        dispute=dispute,
        by=referee,
        ruling="overturn",
        reason="misread",
        winner=w11.loser,
        resets=[],
    )
    w21, l11 = stage.matches.get(code="W2.1"), stage.matches.get(code="L1.1")
    assert w11.loser_id in (w21.home_id, w21.away_id)
    assert w11.winner_id in (l11.home_id, l11.away_id)
    assert_sound()


def test_an_overturn_whose_next_match_had_started_lists_its_resets_then_applies_exactly_them():
    _, stage = double_elimination_with_results(["W1.1", "W1.2", "W2.1", "L1.1"])
    w11 = stage.matches.get(code="W1.1")
    dispute = disputes.dispute_file(match=w11, by=w11.loser.user, reason="I won")
    referee = staff_admin()
    preview = disputes.dispute_preview(
        dispute=dispute, by=referee, ruling="overturn", winner=w11.loser
    )
    assert preview.resets == ("W2.1", "L1.1")
    with pytest.raises(UserError, match="preview it first"):
        disputes.dispute_rule(
            dispute=dispute, by=referee, ruling="overturn", reason="misread", winner=w11.loser
        )
    with pytest.raises(Conflict, match=r"would now reset W2\.1, L1\.1"):
        disputes.dispute_rule(
            dispute=dispute,
            by=referee,
            ruling="overturn",
            reason="misread",
            winner=w11.loser,
            resets=["W2.1"],
        )
    assert Dispute.objects.get(pk=dispute.pk).status == "open"  # the refusal changed nothing
    disputes.dispute_rule(
        dispute=dispute,
        by=referee,
        ruling="overturn",
        reason="misread",
        winner=w11.loser,
        resets=list(preview.resets),
    )
    resets = AuditEntry.objects.filter(action="tournaments.match.reset").order_by("pk")
    assert [e.data["match"] for e in resets] == ["W2.1", "L1.1"]
    assert stage.matches.get(code="W2.1").status == "ready"
    ruled = AuditEntry.objects.get(action="disputes.ruled")
    assert ruled.data["resets"] == ["W2.1", "L1.1"] and ruled.reason == "misread"
    assert_sound()


def test_a_replay_is_a_new_game_with_the_same_pairing_and_a_fresh_seed(clock):
    _, match, game, players = online_match(clock)
    dispute = disputes.dispute_file(match=match, by=players[1].user, reason="lag")
    disputes.dispute_rule(dispute=dispute, by=staff_admin(), ruling="replay", reason="server lag")
    old = GameSession.objects.get(pk=game.pk)
    assert old.status == "aborted"
    new = Match.objects.get(pk=match.pk).match_games.get().game
    assert new.pk != old.pk and new.status == "running" and new.seed_sha256 != old.seed_sha256
    seats = lambda g: list(g.seats.order_by("number").values_list("user", flat=True))  # noqa: E731
    assert seats(new) == seats(old)
    assert Dispute.objects.get(pk=dispute.pk).ruling_data["new_game"] == new.pk


def test_a_rewind_continues_from_exactly_the_replayed_state_at_the_event(
    clock, django_capture_on_commit_callbacks
):
    _, match, game, players = online_match(clock, ruleset={"hand_size": 3})
    play(game.pk, clock)
    play(game.pk, clock)
    played = GameSession.objects.get(pk=game.pk)
    assert played.version == 4  # two plays, two applause windows closed
    dispute = disputes.dispute_file(match=match, by=players[0].user, reason="misclick", moves=[3])
    disputes.dispute_rule(
        dispute=dispute, by=staff_admin(), ruling="rewind", reason="misclick, replay from 2", seq=2
    )
    old = GameSession.objects.get(pk=game.pk)
    new = Match.objects.get(pk=match.pk).match_games.get().game
    rebuilt, _ = replays.state_at(old, 2)
    assert new.state == rebuilt  # High Card has nothing unseen to reshuffle
    assert new.origin == {"game": old.pk, "seq": 2} and new.status == "running"
    with django_capture_on_commit_callbacks(execute=True):
        while GameSession.objects.get(pk=new.pk).status == "running":
            clock.advance(11)
            game_services.enforce_deadline(game_id=new.pk)
    checked = verification.verify_game(GameSession.objects.get(pk=new.pk))
    assert checked["verified"] and checked["continued_from"] == {"game": old.pk, "seq": 2}
    assert game_problems(GameSession.objects.get(pk=new.pk)) == []  # replayed from its origin
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_the_parties_are_told_by_e_mail_and_the_webhooks_once_committed(
    mailoutbox, django_capture_on_commit_callbacks
):
    from tournaments.events import tournament_event

    _, stage, _ = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    match = stage.matches.get(code="W1.1")
    for entrant in (match.home, match.away):
        entrant.user.email = f"{entrant.user.username}@example.org"
        entrant.user.save()
    told = []

    def hear(sender, tournament_id, event, data, **kwargs):
        told.append((event, data["dispute"]))

    tournament_event.connect(hear)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            dispute = disputes.dispute_file(match=match, by=match.loser.user, reason="wrong")
        with django_capture_on_commit_callbacks(execute=True):
            disputes.dispute_rule(
                dispute=dispute, by=staff_admin(), ruling="uphold", reason="checked twice"
            )
    finally:
        tournament_event.disconnect(hear)
    assert told == [("dispute.filed", dispute.pk), ("dispute.ruled", dispute.pk)]
    ruled = mailoutbox[-1]
    assert sorted(ruled.to) == ["p1@example.org", "p4@example.org"]
    assert "W1.1" in ruled.subject and "checked twice" in ruled.body
    assert f"/disputes/{dispute.pk}/" in ruled.body


def test_a_drafting_trios_rewind_keeps_every_hand_and_view_and_redraws_the_decks(clock):
    from games import engines

    engine = engines.get("drafting_trios")
    _, match, game, players = online_match(clock, game="drafting_trios")
    rng = random.Random(3)
    while GameSession.objects.get(pk=game.pk).version < 3:
        state = GameSession.objects.get(pk=game.pk).state
        seat = next(s for s in (0, 1) if engine.legal_actions(state, s))
        game_services.act(
            game_id=game.pk, seat=seat, action=rng.choice(engine.legal_actions(state, seat))
        )
    dispute = disputes.dispute_file(match=match, by=players[0].user, reason="misclick")
    disputes.dispute_rule(dispute=dispute, by=staff_admin(), ruling="rewind", reason="redo", seq=2)
    new = Match.objects.get(pk=match.pk).match_games.get().game
    rebuilt, _ = replays.state_at(GameSession.objects.get(pk=game.pk), 2)
    assert {k: v for k, v in new.state.items() if k != "decks"} == {
        k: v for k, v in rebuilt.items() if k != "decks"
    }
    assert [sorted(d) for d in new.state["decks"]] == [sorted(d) for d in rebuilt["decks"]]
    assert new.state["decks"] != rebuilt["decks"]  # what nobody had seen comes from the new seed
    for seat in (None, 0, 1):
        assert engine.view(new.state, seat) == engine.view(rebuilt, seat)


def test_a_replay_of_a_decided_match_resets_the_started_match_it_fed_exactly_as_previewed(
    clock, django_capture_on_commit_callbacks
):
    # A drawn High Card game goes to the better seed: one game per match, whatever the deal.
    _, stage, _ = started(
        "single_elimination", 4, online=True, ruleset={"undecided": "higher_seed"}
    )
    for code in ("W1.1", "W1.2"):
        game = stage.matches.get(code=code).match_games.get().game
        with django_capture_on_commit_callbacks(execute=True):
            while GameSession.objects.get(pk=game.pk).status == "running":
                clock.advance(11)
                game_services.enforce_deadline(game_id=game.pk)
    final = stage.matches.get(code="W2.1")
    assert final.status == "live"
    final_game = final.match_games.get().game
    w11 = stage.matches.get(code="W1.1")
    disputed = w11.match_games.get().game
    dispute = disputes.dispute_file(match=w11, by=w11.loser.user, reason="the server lagged")
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="replay")
    assert preview.resets == ("W2.1",)
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="replay", reason="lag confirmed", resets=["W2.1"]
    )
    w11.refresh_from_db()
    assert (
        w11.status == "live" and w11.winner is None and (w11.home_score, w11.away_score) == (0, 0)
    )
    replayed = w11.match_games.get().game
    assert replayed.pk != disputed.pk and replayed.status == "running"
    assert disputed.pk in w11.extra["voided_games"]
    final.refresh_from_db()
    assert final.status == "pending" and final.home is None
    assert GameSession.objects.get(pk=final_game.pk).status == "aborted"
    assert_sound()
