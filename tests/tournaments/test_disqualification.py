"""An entrant disqualified mid-tournament loses every match they still reach, by forfeit."""

import contextlib
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.builders import report_top_seed_wins, started
from tournaments import services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def problems() -> str:
    out = StringIO()
    with contextlib.suppress(CommandError):  # exit 1: the problems are in the output
        call_command("check_tournaments", stdout=out)
    return out.getvalue().strip()


def test_a_disqualified_double_elimination_player_forfeits_in_the_losers_bracket_too():
    tournament, stage, _ = started("double_elimination", 4)
    worst = tournament.entrants.get(seed=4)
    services.entrant_disqualify(entrant=worst, by=tournament.organiser, reason="no-show")
    first = stage.matches.get(code="W1.1")
    assert first.result_kind == "forfeit" and first.loser_id == worst.pk
    report_top_seed_wins(stage, "W1.2")
    # The losers' bracket match the disqualified player drops into decides itself.
    dropped = stage.matches.get(code="L1.1")
    assert worst.pk in (dropped.home_id, dropped.away_id)
    assert dropped.status == "finished" and dropped.result_kind == "forfeit"
    assert dropped.winner_id != worst.pk
    assert AuditEntry.objects.filter(
        tournament=tournament, action="tournaments.match.forfeited"
    ).exists()
    for code in ["W2.1", "L2.1", "GF1"]:
        report_top_seed_wins(stage, code)
    assert problems() == "1 tournaments, 0 problems"
