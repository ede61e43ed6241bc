"""Dispute rulings on Genius Death Matches (and the final) already settled into the season:
the eliminations swap or wait for the new game, the ledger is compensated by new entries,
and what came after is undone exactly as the preview listed, or refused with the reason."""

import pytest
from django.test import Client

from games import services as game_services
from games.models import GameSession
from hosting.core.errors import Conflict
from hosting.core.roles import STAFF_ADMIN
from tests.disputes.test_rulings import assert_sound
from tests.tournaments.builders import open_tournament, staff_admin, user
from tests.tournaments.test_genius_season import RULES, play_episode
from tests.tournaments.test_pages import page, section, texts
from tournaments import services
from tournaments.disputes import services as disputes
from tournaments.formats import ledger
from tournaments.models import AuditEntry, Dispute, Entrant, Episode, LedgerEntry, Match
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def four_player_season(**fields):
    """p1..p4; p3 and p4 hold garnets. Episode 1 (played by ``play_episode``): p1 wins the
    MM, names p4, whose DMO is p3 (p2 holds the spare token); the better seed wins."""
    tournament, cast = open_tournament("genius", 4, format_options=RULES, **fields)
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    for entrant, amount in ((cast[3], 5), (cast[2], 2)):
        seasons.ledger_record(
            tournament=tournament, by=host, kind="award", entrant=entrant.pk, amount=amount,
            reason="MM prize",
        )  # fmt: skip
    return tournament, cast, episode


def filed(match: Match) -> Dispute:
    match.refresh_from_db()
    return disputes.dispute_file(match=match, by=match.loser.user, reason="the result is wrong")


def entrant(pk: int) -> Entrant:
    return Entrant.objects.get(pk=pk)


def test_an_overturned_death_match_swaps_the_eliminations_and_compensates_the_ledger(client):
    tournament, cast, episode = four_player_season()
    p1, p2, p3, p4 = cast
    awards = seasons.ledger_for(tournament)
    match = play_episode(tournament, episode)
    assert entrant(p4.pk).eliminated_in == 1 and seasons.balances(tournament)[p3.pk] == 7
    dispute = filed(match)
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="overturn", winner=p4)
    assert (preview.resets, preview.refills) == ((), ())  # episode 2 has not begun
    entries = LedgerEntry.objects.count()
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="overturn", winner=p4, reason="p3 misplayed", resets=[]
    )
    match.refresh_from_db()
    assert match.winner_id == p4.pk and match.loser_id == p3.pk
    assert entrant(p4.pk).eliminated_in is None and entrant(p3.pk).eliminated_in == 1
    # Append-only: the settlement is paid back, then the new loser's is settled.
    assert LedgerEntry.objects.count() == entries + 2
    from_the_start = ledger.settle_elimination(awards, p3.pk, p4.pk, "to_dm_winner", episode=1)
    assert seasons.balances(tournament) == ledger.balances(from_the_start)
    assert seasons.balances(tournament) == {p3.pk: 0, p4.pk: 7}
    actions = list(
        AuditEntry.objects.filter(action__startswith="tournaments.season.")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["tournaments.season.reinstated", "tournaments.season.eliminated"]
    assert tournament.episodes.get(number=2).status == Episode.Status.MAIN_MATCH
    html = page(Client(), f"/tournaments/{tournament.slug}/")
    rows = {r.split()[0]: r for r in texts(section(html, 'class="season-cast"'), "tr")[1:]}
    assert rows["p3"] == "p3 Eliminated in episode 1 0 0 0 0 0"  # ToL held, won, given, used
    assert rows["p4"].startswith("p4 In") and rows["p4"].endswith(" 7")
    assert_sound()
    # The season plays on with the new cast.
    play_episode(tournament, tournament.episodes.get(number=2))
    assert set(Match.objects.get(code="FINAL").slots) <= {p1.pk, p2.pk, p4.pk}
    assert_sound()


def test_an_overturn_after_the_next_episode_progressed_resets_exactly_what_it_listed():
    tournament, cast, episode = four_player_season()
    p1, p2, p3, p4 = cast
    match = play_episode(tournament, episode)
    host = tournament.organiser
    second = tournament.episodes.get(number=2)
    seasons.main_match_record(episode=second, by=host, winners=[p1.pk], losers=[p2.pk, p3.pk])
    seasons.candidates_choose(episode=second, by=p1.user, chosen=[p3.pk])
    seasons.opponent_choose(episode=second, by=p3.user, ec=p3.pk, dmo=p2.pk)
    assert Match.objects.get(code="E2.DM1").status == Match.Status.READY
    dispute = filed(match)
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="overturn", winner=p4)
    assert preview.resets == ("E2.MM", "E2.DM1")
    with pytest.raises(Conflict, match=r"would now reset E2\.MM, E2\.DM1"):
        disputes.dispute_rule(
            dispute=dispute, by=referee, ruling="overturn", winner=p4, reason="x", resets=[]
        )
    disputes.dispute_rule(
        dispute=dispute,
        by=referee,
        ruling="overturn",
        winner=p4,
        reason="p3 misplayed",
        resets=["E2.MM", "E2.DM1"],
    )
    second.refresh_from_db()
    assert second.status == Episode.Status.MAIN_MATCH and not second.winners and not second.dmos
    assert not Match.objects.filter(code="E2.DM1").exists()
    assert entrant(p3.pk).eliminated_in == 1 and entrant(p4.pk).eliminated_in is None
    reset = AuditEntry.objects.get(action="tournaments.season.episode_reset")
    assert reset.data["resets"] == ["E2.MM", "E2.DM1"]
    assert Dispute.objects.get(pk=dispute.pk).ruling_data["resets"] == ["E2.MM", "E2.DM1"]
    assert_sound()
    # Episode 2 is played again by p1, p2 and p4: the final follows.
    play_episode(tournament, second)
    assert Match.objects.get(code="FINAL").status == Match.Status.READY
    assert_sound()


def test_an_overturn_is_refused_once_the_next_episode_eliminated_someone():
    tournament, cast, episode = four_player_season()
    match = play_episode(tournament, episode)
    play_episode(tournament, tournament.episodes.get(number=2))
    dispute = filed(match)
    with pytest.raises(Conflict, match=r"episode 2 has already settled E2\.DM1"):
        disputes.dispute_preview(
            dispute=dispute, by=user("ref2", STAFF_ADMIN), ruling="overturn", winner=cast[3]
        )
    assert entrant(cast[3].pk).eliminated_in == 1
    # A forfeit to the player who won it leaves the same player out: only the result changes.
    referee = staff_admin()
    preview = disputes.dispute_preview(
        dispute=dispute, by=referee, ruling="forfeit", winner=cast[2]
    )
    assert (preview.resets, preview.refills) == ((), ())
    entries = LedgerEntry.objects.count()
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="forfeit", winner=cast[2], reason="p4 left", resets=[]
    )
    match.refresh_from_db()
    assert match.result_kind == Match.ResultKind.FORFEIT and match.winner_id == cast[2].pk
    assert LedgerEntry.objects.count() == entries and entrant(cast[3].pk).eliminated_in == 1
    assert_sound()


def test_the_final_follows_an_overturn_of_the_death_match_before_it():
    tournament, cast, episode = four_player_season()
    p1, p2, p3, _ = cast
    play_episode(tournament, episode)
    last = play_episode(tournament, tournament.episodes.get(number=2))  # p3 loses to p2
    final = Match.objects.get(code="FINAL")
    assert (final.home_id, final.away_id) == (p1.pk, p2.pk)
    dispute = filed(last)
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="overturn", winner=p3)
    assert (preview.resets, preview.refills) == ((), ("FINAL",))  # not started: re-paired
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="overturn", winner=p3, reason="p2 misplayed", resets=[]
    )
    final.refresh_from_db()
    assert final.slots == [p1.pk, p3.pk] and (final.home_id, final.away_id) == (p1.pk, p3.pk)
    assert final.status == Match.Status.READY
    assert entrant(p2.pk).eliminated_in == 2 and entrant(p3.pk).eliminated_in is None
    assert_sound()


@pytest.mark.parametrize("champion", [0, 1])
def test_an_overturn_before_a_decided_final_lists_the_final_and_starts_it_over(champion):
    tournament, cast, episode = four_player_season()
    p1, p2, p3, _ = cast
    play_episode(tournament, episode)
    last = play_episode(tournament, tournament.episodes.get(number=2))
    final = Match.objects.get(code="FINAL")
    # p2, the new loser, is the champion or the runner-up, whom the reset reinstates first.
    services.match_report_result(match=final, by=tournament.organiser, winner=cast[champion])
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    dispute = filed(last)
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="overturn", winner=p3)
    assert preview.resets == ("FINAL",)
    disputes.dispute_rule(
        dispute=dispute,
        by=referee,
        ruling="overturn",
        winner=p3,
        reason="p2 misplayed",
        resets=["FINAL"],
    )
    tournament.refresh_from_db()
    final.refresh_from_db()
    assert tournament.status == "running" and final.status == Match.Status.READY
    assert (final.home_id, final.away_id) == (p1.pk, p3.pk) and final.winner is None
    assert entrant(p1.pk).eliminated_in is None and entrant(p2.pk).eliminated_in == 2
    assert tournament.episodes.get(number=3).status == Episode.Status.DEATH_MATCH
    assert_sound()
    services.match_report_result(match=final, by=tournament.organiser, winner=p3)
    tournament.refresh_from_db()
    assert tournament.status == "finished" and entrant(p1.pk).eliminated_in == 3
    assert_sound()


def test_an_overturned_final_swaps_the_champion_and_the_runner_up():
    tournament, cast, episode = four_player_season()
    p1, p2, _, _ = cast
    play_episode(tournament, episode)
    play_episode(tournament, tournament.episodes.get(number=2))
    final = Match.objects.get(code="FINAL")
    services.match_report_result(match=final, by=tournament.organiser, winner=p1)
    dispute = filed(final)
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="overturn", winner=p2)
    assert (preview.resets, preview.refills) == ((), ())
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="overturn", winner=p2, reason="p1 cheated", resets=[]
    )
    final.refresh_from_db()
    tournament.refresh_from_db()
    assert final.winner_id == p2.pk and tournament.status == "finished"
    assert entrant(p2.pk).eliminated_in is None and entrant(p1.pk).eliminated_in == 3
    ranks = {row["entrant"]: row["rank"] for row in services.standings(tournament=tournament)}
    assert ranks[p2.pk] == 1 and ranks[p1.pk] == 2
    won = AuditEntry.objects.filter(action="tournaments.season.won").order_by("pk").last()
    assert won.data["winner"] == p2.pk and won.data["previous_winner"] == p1.pk
    html = page(Client(), f"/tournaments/{tournament.slug}/")
    rows = {r.split()[0]: r for r in texts(section(html, 'class="season-cast"'), "tr")[1:]}
    assert rows["p2"].startswith("p2 Champion") and "Eliminated in episode 3" in rows["p1"]
    assert_sound()


def test_reinstating_waits_while_the_dm_winner_no_longer_holds_what_they_won():
    tournament, cast, episode = four_player_season()
    p1, _, p3, p4 = cast
    match = play_episode(tournament, episode)
    seasons.ledger_record(
        tournament=tournament, by=p3.user, kind="transfer", entrant=p3.pk, to=p1.pk, amount=6,
        reason="a deal",
    )  # fmt: skip
    dispute = filed(match)
    with pytest.raises(Conflict, match="who holds only 1 now"):
        disputes.dispute_preview(dispute=dispute, by=staff_admin(), ruling="overturn", winner=p4)
    assert_sound()


# -- replays ----------------------------------------------------------------------------------


def finish(game_id: int, clock, capture) -> None:
    """Nobody plays: the clocks decide the High Card game, and its result flows back."""
    with capture(execute=True):
        while GameSession.objects.get(pk=game_id).status == "running":
            clock.advance(11)
            game_services.enforce_deadline(game_id=game_id)


def online_death_match(clock, capture):
    """Episode 1 of an online four-player season, its Death Match a High Card game played
    out by the clocks and settled."""
    tournament, cast, episode = four_player_season(online=True)
    p1, p2, p3, p4 = cast
    host = tournament.organiser
    seasons.main_match_record(
        episode=episode, by=host, winners=[p1.pk], losers=[p2.pk, p3.pk, p4.pk]
    )
    seasons.candidates_choose(episode=episode, by=p1.user, chosen=[p4.pk])
    seasons.token_give(episode=episode, by=p1.user, giver=p1.pk, receiver=p2.pk)
    seasons.opponent_choose(episode=episode, by=p4.user, ec=p4.pk, dmo=p3.pk)
    match = Match.objects.get(code="E1.DM1")
    game = match.match_games.get().game
    finish(game.pk, clock, capture)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return tournament, cast, match, game


def test_a_replayed_death_match_reinstates_its_loser_until_the_new_game_settles_it(
    clock, django_capture_on_commit_callbacks
):
    tournament, cast, match, game = online_death_match(clock, django_capture_on_commit_callbacks)
    loser = match.loser_id if match.loser_id else match.home_id
    assert entrant(loser).eliminated_in == 1 and tournament.episodes.filter(number=2).exists()
    balances = dict(seasons.balances(tournament))
    dispute = (
        filed(match)
        if match.loser_id
        else disputes.dispute_file(match=match, by=match.home.user, reason="the result is wrong")
    )
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="replay")
    assert preview.resets == ()  # episode 2 had not begun: it simply goes
    disputes.dispute_rule(dispute=dispute, by=referee, ruling="replay", reason="lag", resets=[])
    match.refresh_from_db()
    new = match.match_games.get().game
    assert new.pk != game.pk and new.status == "running" and match.status == Match.Status.LIVE
    assert game.pk in match.extra["voided_games"]  # it had ended: it stays as it ended
    assert entrant(loser).eliminated_in is None
    assert tournament.episodes.get(number=1).status == Episode.Status.DEATH_MATCH
    assert not tournament.episodes.filter(number=2).exists()
    assert seasons.balances(tournament) == {cast[3].pk: 5, cast[2].pk: 2}  # as before the DM
    assert_sound()
    finish(new.pk, clock, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    out = Entrant.objects.filter(tournament=tournament, eliminated_in=1)
    assert out.count() == 1 and out.get().pk in (cast[2].pk, cast[3].pk)
    assert tournament.episodes.get(number=1).status == Episode.Status.FINISHED
    assert tournament.episodes.get(number=2).status == Episode.Status.MAIN_MATCH
    assert sum(seasons.balances(tournament).values()) == sum(balances.values())
    assert_sound()


def test_a_replay_after_the_next_episode_began_lists_and_removes_it(
    clock, django_capture_on_commit_callbacks
):
    tournament, cast, match, _ = online_death_match(clock, django_capture_on_commit_callbacks)
    p1 = cast[0]
    second = tournament.episodes.get(number=2)
    still = [e.pk for e in tournament.entrants.filter(eliminated_in__isnull=True)]
    seasons.main_match_record(
        episode=second, by=tournament.organiser, winners=[p1.pk], losers=still[1:]
    )
    dispute = disputes.dispute_file(
        match=match, by=tournament.organiser, reason="the server lagged"
    )
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="replay")
    assert preview.resets == ("E2.MM",)
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="replay", reason="lag", resets=["E2.MM"]
    )
    assert not tournament.episodes.filter(number=2).exists()
    removed = AuditEntry.objects.get(action="tournaments.season.episode_removed")
    assert removed.data["episode"] == 2 and removed.data["resets"] == ["E2.MM"]
    assert Entrant.objects.filter(tournament=tournament, eliminated_in__isnull=True).count() == 4
    assert_sound()


def online_final(clock, capture):
    """The online four-player season played on to its final, decided by the clocks."""
    tournament, *_ = online_death_match(clock, capture)
    second = tournament.episodes.get(number=2)
    players = list(tournament.entrants.filter(eliminated_in__isnull=True).order_by("seed"))
    top, ec = players[0], players[-1]
    host = tournament.organiser
    seasons.main_match_record(
        episode=second, by=host, winners=[top.pk], losers=[p.pk for p in players[1:]]
    )
    seasons.candidates_choose(episode=second, by=top.user, chosen=[ec.pk])
    seasons.opponent_choose(episode=second, by=ec.user, ec=ec.pk, dmo=players[1].pk)
    finish(Match.objects.get(code="E2.DM1").match_games.get().game_id, clock, capture)
    final = Match.objects.get(code="FINAL")
    while Match.objects.get(pk=final.pk).status == Match.Status.LIVE:
        latest = Match.objects.get(pk=final.pk).match_games.order_by("-number").first()
        finish(latest.game_id, clock, capture)
    final.refresh_from_db()
    tournament.refresh_from_db()
    assert tournament.status == "finished" and entrant(final.loser_id).eliminated_in == 3
    return tournament, Match.objects.get(code="E2.DM1"), final


def test_a_replayed_final_reopens_the_season_until_the_new_game_settles_it(
    clock, django_capture_on_commit_callbacks
):
    tournament, _, final = online_final(clock, django_capture_on_commit_callbacks)
    capture = django_capture_on_commit_callbacks
    runner_up = final.loser_id
    dispute = disputes.dispute_file(match=final, by=tournament.organiser, reason="lag")
    referee = staff_admin()
    assert disputes.dispute_preview(dispute=dispute, by=referee, ruling="replay").resets == ()
    disputes.dispute_rule(dispute=dispute, by=referee, ruling="replay", reason="lag", resets=[])
    tournament.refresh_from_db()
    final.refresh_from_db()
    assert tournament.status == "running" and final.status == Match.Status.LIVE
    assert entrant(runner_up).eliminated_in is None
    assert tournament.episodes.get(number=3).status == Episode.Status.DEATH_MATCH
    assert_sound()
    while Match.objects.get(pk=final.pk).status == Match.Status.LIVE:
        latest = Match.objects.get(pk=final.pk).match_games.order_by("-number").first()
        finish(latest.game_id, clock, capture)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert Entrant.objects.filter(tournament=tournament, eliminated_in__isnull=True).count() == 1
    assert_sound()


def test_a_replayed_death_match_before_a_decided_final_removes_the_final_as_listed(
    clock, django_capture_on_commit_callbacks
):
    tournament, match, final = online_final(clock, django_capture_on_commit_callbacks)
    voided = list(final.match_games.values_list("game_id", flat=True))
    dispute = disputes.dispute_file(match=match, by=tournament.organiser, reason="lag")
    referee = staff_admin()
    preview = disputes.dispute_preview(dispute=dispute, by=referee, ruling="replay")
    assert preview.resets == ("FINAL",)
    disputes.dispute_rule(
        dispute=dispute, by=referee, ruling="replay", reason="lag", resets=["FINAL"]
    )
    tournament.refresh_from_db()
    assert tournament.status == "running" and not Match.objects.filter(code="FINAL").exists()
    assert not tournament.episodes.filter(number=3).exists()
    assert Entrant.objects.filter(tournament=tournament, eliminated_in__isnull=True).count() == 3
    removed = AuditEntry.objects.get(action="tournaments.season.episode_removed")
    assert removed.data["kind"] == "final" and removed.data["voided_games"] == voided
    assert AuditEntry.objects.filter(action="tournaments.tournament.reopened").count() == 1
    assert_sound()
    match.refresh_from_db()
    finish(
        match.match_games.order_by("-number").first().game_id,
        clock,
        django_capture_on_commit_callbacks,
    )
    assert Match.objects.get(code="FINAL").status == Match.Status.LIVE  # opened again
    assert_sound()
