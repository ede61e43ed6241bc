"""Property: random results and random corrections on random single and double elimination
brackets keep ``check_tournaments`` at 0 problems, and the brackets still play to a champion."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hosting.core.errors import Conflict
from hosting.core.roles import STAFF_ADMIN
from tests.tournaments.builders import open_tournament, user
from tournaments import checks, services
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db

BRACKETS = st.one_of(
    st.tuples(st.just("single_elimination"), st.fixed_dictionaries({"third_place": st.booleans()})),
    st.tuples(
        st.just("double_elimination"),
        st.fixed_dictionaries({"grand_final": st.sampled_from(["none", "single", "reset"])}),
    ),
)


def sound(tournament) -> None:
    assert checks.tournament_problems(tournament) == []


def correct(match: Match, winner, referee) -> None:
    """A correction as a person would make it: plainly, else forced after its dry run."""
    try:
        services.match_report_result(
            match=match, by=match.stage.tournament.organiser, winner=winner
        )
        return
    except Conflict:
        pass
    plan = services.correction_preview(match=match, by=referee, winner=winner, reason="sheet")
    event("a forced correction that resets matches" if plan.resets else "a forced correction")
    before = AuditEntry.objects.filter(action="tournaments.match.reset").count()
    services.match_report_result(
        match=match, by=referee, winner=winner, force=True, reason="sheet", resets=list(plan.resets)
    )
    reset = AuditEntry.objects.filter(action="tournaments.match.reset").order_by("pk")[before:]
    assert sorted(e.data["match"] for e in reset) == sorted(plan.resets)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(bracket=BRACKETS, entrants=st.integers(2, 8), data=st.data())
def test_random_results_and_corrections_keep_brackets_sound(bracket, entrants, data):
    fmt, options = bracket
    if fmt == "single_elimination" and options["third_place"] and entrants < 3:
        options = {"third_place": False}
    with transaction.atomic():
        tournament, _ = open_tournament(fmt, entrants, format_options=options)
        stage = services.stage_start(tournament=tournament, by=tournament.organiser)
        referee = user("referee", STAFF_ADMIN)
        for _ in range(data.draw(st.integers(0, 10), label="steps")):
            ready = list(stage.matches.filter(status=Match.Status.READY).order_by("pk"))
            finished = list(stage.matches.filter(status=Match.Status.FINISHED).order_by("pk"))
            if finished and (not ready or data.draw(st.booleans(), label="correct?")):
                match = data.draw(st.sampled_from(finished), label="corrected")
                correct(match, data.draw(st.sampled_from([match.home, match.away])), referee)
            elif ready:
                match = data.draw(st.sampled_from(ready), label="played")
                winner = data.draw(st.sampled_from([match.home, match.away]), label="winner")
                services.match_report_result(match=match, by=tournament.organiser, winner=winner)
            sound(tournament)
        # Whatever was corrected, the bracket still plays to its end.
        while ready := list(stage.matches.filter(status=Match.Status.READY)[:1]):
            services.match_report_result(
                match=ready[0], by=tournament.organiser, winner=ready[0].home
            )
        tournament.refresh_from_db()
        assert tournament.status == "finished"
        sound(tournament)
        transaction.set_rollback(True)
