"""``check_tournaments`` finds a bracket, standings or ledger that contradicts itself."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from tests.tournaments.builders import open_tournament, report_top_seed_wins, started
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments import checks
from tournaments.models import (
    ActivityCheck,
    Entrant,
    Episode,
    GarnetTransfer,
    LedgerEntry,
    Match,
    TokenEntry,
)
from tournaments.seasons import activity, confessionals, handouts, questions, transfers
from tournaments.seasons import death_match_picks as picks
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def check() -> tuple[int, list[str]]:
    out = StringIO()
    try:
        call_command("check_tournaments", stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


def test_a_sound_double_elimination_bracket_has_no_problems():
    _, stage, _ = started("double_elimination", 4, format_options={"grand_final": "reset"})
    for code in ["W1.1", "W1.2", "W2.1", "L1.1"]:
        report_top_seed_wins(stage, code)
    assert check() == (0, ["1 tournaments, 0 problems"]), check()


def test_a_hand_broken_bracket_is_listed_and_exits_1():
    tournament, stage, _ = started("single_elimination", 4)
    for code in ["W1.1", "W1.2", "W2.1"]:
        report_top_seed_wins(stage, code)
    assert check() == (0, ["1 tournaments, 0 problems"]), check()
    # As a Django admin edit once could: the final now credits the player who lost round 1.
    seed = {entrant.seed: entrant for entrant in tournament.entrants.all()}
    assert seed[4].display_name == "p4"
    Match.objects.filter(stage=stage, code="W2.1").update(home=seed[4], winner=seed[4])
    status, lines = check()
    assert status == 1
    assert lines == [
        "single_elimination-cup: W2.1 holds p4 v p2; its feeders make it p1 v p2",
        # Placements follow the bracket from its feeders, so they cannot rank this one either.
        "single_elimination-cup: the standings cannot be worked out: "
        "W2.1 is played by seeds [1, 2], not [2, 4]",
        "1 tournaments, 2 problems",
    ]


def test_statuses_and_running_games_are_checked():
    _, stage, _ = started("single_elimination", 2)
    Match.objects.filter(stage=stage, code="W1.1").update(status="finished")
    status, lines = check()
    assert status == 1
    assert "single_elimination-cup: W1.1 is finished without a result" in lines


def test_a_season_and_its_garnets_are_checked():
    tournament, cast = open_tournament("genius", 4, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    for player in cast[:2]:
        seasons.ledger_record(
            tournament=tournament,
            by=tournament.organiser,
            kind="award",
            entrant=player.pk,
            amount=3,
            reason="MM prize",
        )
    play_episode(tournament, episode)
    assert check() == (0, ["1 tournaments, 0 problems"]), check()
    LedgerEntry.objects.create(
        tournament=tournament, kind="spend", entrant=cast[3], amount=5, reason="by hand"
    )
    status, lines = check()
    assert status == 1
    number = LedgerEntry.objects.filter(tournament=tournament).count()
    assert (
        f"genius-cup: ledger entry {number} (spend 5) leaves entrant {cast[3].pk} at "
        in (lines[0].rsplit("-", 1)[0])
    )


def test_a_season_whose_episodes_or_settlements_disagree_is_listed():
    tournament, cast = open_tournament("genius", 4, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    seasons.ledger_record(
        tournament=tournament,
        by=tournament.organiser,
        kind="award",
        entrant=cast[3].pk,
        amount=4,
        reason="MM prize",
    )
    play_episode(tournament, episode)  # p4 loses to p3 and pays them 4 garnets
    play_episode(tournament, tournament.episodes.get(number=2))  # p3 out: FINAL p1 v p2
    assert check() == (0, ["1 tournaments, 0 problems"]), check()
    # As a careless hand edit could: p4 back in without the garnets paid back, episode 2
    # marked as still at its Death Match, and the final's away seat given to p4.
    Entrant.objects.filter(pk=cast[3].pk).update(eliminated_in=None)
    Episode.objects.filter(tournament=tournament, number=2).update(status="death_match")
    Match.objects.filter(code="FINAL").update(away=cast[3])
    status, lines = check()
    assert status == 1
    assert "genius-cup: episode 3 follows episode 2, which is death_match, not finished" in lines
    assert (
        f"genius-cup: FINAL is played by entrants {cast[0].pk} and {cast[3].pk}, but the "
        f"players still in are {cast[0].pk}, {cast[1].pk}, {cast[3].pk}" in lines
    )
    assert (
        f"genius-cup: entrant {cast[3].pk} is not eliminated in episode 1, but what that "
        "elimination settled was never paid back" in lines
    )


def test_a_main_match_played_by_someone_out_of_the_season_is_listed():
    tournament, cast = open_tournament("genius", 4, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    play_episode(tournament, episode)  # p4 is out in episode 1
    second = tournament.episodes.get(number=2)
    seasons.main_match_record(
        episode=second,
        by=tournament.organiser,
        winners=[cast[0].pk],
        losers=[cast[1].pk, cast[2].pk],
    )
    assert check() == (0, ["1 tournaments, 0 problems"]), check()
    Episode.objects.filter(pk=second.pk).update(losers=[cast[1].pk, cast[3].pk])
    status, lines = check()
    assert status == 1
    assert (
        f"genius-cup: episode 2's main match was played by entrants {cast[0].pk}, "
        f"{cast[1].pk}, {cast[3].pk}, but its cast is {cast[0].pk}, {cast[1].pk}, {cast[2].pk}"
        in lines
    )


def test_a_season_with_tokens_transfers_questions_and_handouts_checks_clean():
    """The season's new ledgers (issue 29): Tokens of Life, transfers and their ledger entries,
    rules versions and clarifications, handouts and confessionals."""
    tournament, cast = open_tournament(
        "genius", 5, format_options=RULES | {"transfers": "receiver_accepts"}
    )
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    seasons.ledger_record(
        tournament=tournament, by=host, kind="award", entrant=cast[0].pk, amount=5, reason="x"
    )
    offered = transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[1], amount=2
    )
    transfers.accept(transfer=offered, by=cast[1].user)
    asked = questions.ask(tournament=tournament, by=cast[1].user, entrant=cast[1], text="q?")
    questions.answer(question=asked, by=host, text="a.", publish=True)
    handouts.give(tournament=tournament, by=host, recipients=[cast[2].pk], title="t", text="x")
    confessionals.write(tournament=tournament, by=cast[3].user, entrant=cast[3], text="d")
    while tournament.episodes.filter(kind="episode").exclude(status="finished").exists():
        play_episode(tournament, tournament.episodes.order_by("-number").first())
    assert check() == (0, ["1 tournaments, 0 problems"]), check()
    # Broken by hand: a done transfer that lost its entry, and a token that was never won.
    GarnetTransfer.objects.filter(pk=offered.pk).update(status="awaiting_receiver")
    TokenEntry.objects.create(tournament=tournament, episode=1, entrant=cast[4], kind="used")
    code, lines = check()
    assert code == 1
    assert any("awaiting_receiver but has a ledger entry" in line for line in lines)
    assert any("holding -1 ToL" in line for line in lines)


def test_activity_checks_and_dm_picks_are_checked():
    tournament, _cast = open_tournament("genius", 5, format_options=RULES)
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    check = activity.open_check(
        tournament=tournament, by=host, cutoff=timezone.now() + timedelta(hours=1)
    )
    picks.pick_open(episode=episode, by=host, mode="lottery", pool=["color_clash", "dropmix"])
    assert check_problems() == []
    ActivityCheck.objects.filter(pk=check.pk).update(cutoff=timezone.now() - timedelta(hours=1))
    Episode.objects.filter(pk=episode.pk).update(dm_engine="drafting_trios")
    problems = check_problems()
    assert any("never applied" in line for line in problems)
    assert any("DM pick chose" in line for line in problems)


def check_problems() -> list[str]:
    return [line for _, found in checks.all_problems() for line in found]
