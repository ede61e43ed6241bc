"""Two players agree a live match's time inside the organiser's window; without agreement the
default rule decides; a no-show forfeits after N minutes; every step is audited."""

from __future__ import annotations

from datetime import timedelta

import pytest

from notifications.models import Kind, Notice, Reminder
from tests.tournaments.builders import open_tournament, started
from tournaments import notices
from tournaments.core import audit_sentences
from tournaments.core.errors import TournamentUserError
from tournaments.models import AuditEntry, Match, Tournament
from tournaments.scheduling import services as slots

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(clock):
    tournament, _stage, _players = started("single_elimination", 2)
    return Match.objects.select_related("home__user", "away__user", "stage__tournament").get(
        stage__tournament=tournament
    )


def test_players_agree_a_time_and_both_are_told_and_reminded(match, clock):
    now = slots.clock.moment()
    host = match.stage.tournament.organiser
    slots.slot_open(match=match, by=host, window_opens=now, window_closes=now + timedelta(days=2))
    home, away = match.home.user, match.away.user
    with pytest.raises(TournamentUserError):
        slots.slot_propose(match=match, by=home, at=now + timedelta(days=3))  # outside
    proposal = slots.slot_propose(match=match, by=home, at=now + timedelta(hours=20))
    assert Notice.objects.filter(user=away, kind=Kind.SLOT_PROPOSED).exists()
    with pytest.raises(TournamentUserError):
        slots.slot_accept(proposal_id=proposal.pk, by=home)  # not one's own
    slot = slots.slot_accept(proposal_id=proposal.pk, by=away)
    assert slot.at == proposal.at and slot.how == "players"
    for user in (home, away):
        assert Notice.objects.filter(user=user, kind=Kind.SLOT_AGREED).exists()
        assert Reminder.objects.filter(user=user).count() == 2  # 1 h and 10 min before
    clock.advance(20 * 3600 - 5 * 60)
    slots.slot_check_in(match=match, by=home)
    clock.advance(20 * 60)  # 15 min after the slot: the away player never came
    assert slots.slots_settle() == 1
    match.refresh_from_db()
    assert match.winner_id == match.home_id and match.result_kind == "forfeit"
    entries = AuditEntry.objects.filter(action__startswith="tournaments.slot.").order_by("pk")
    said = audit_sentences.sentences(list(entries))
    assert [e.action for e in entries] == [
        "tournaments.slot.opened",
        "tournaments.slot.proposed",
        "tournaments.slot.agreed",
        "tournaments.slot.checked_in",
        "tournaments.slot.no_show",
    ]
    assert said[1].sentence == "p1 proposed a time for W1.1"


def test_no_agreement_starts_the_match_at_the_windows_end(match, clock):
    now = slots.clock.moment()
    host = match.stage.tournament.organiser
    slots.slot_open(match=match, by=host, window_opens=now, window_closes=now + timedelta(hours=1))
    clock.advance(3601)
    assert slots.slots_settle() == 1
    slot = match.slot
    slot.refresh_from_db()
    assert (slot.at, slot.how) == (now + timedelta(hours=1), "window_end")


def test_check_in_reminders_are_armed_once_and_follow_a_changed_time(clock):
    tournament, _players = open_tournament("single_elimination", 2)
    opens = slots.clock.moment() + timedelta(hours=2)
    Tournament.objects.filter(pk=tournament.pk).update(
        check_in_opens=opens, check_in_closes=opens + timedelta(hours=1)
    )
    assert notices.arm_reminders() == 4  # two players, two reminders each
    notices.arm_reminders()
    assert Reminder.objects.filter(state="pending").count() == 4  # armed once
    Tournament.objects.filter(pk=tournament.pk).update(check_in_closes=opens + timedelta(hours=3))
    notices.arm_reminders()
    pending = Reminder.objects.filter(state="pending", kind=Kind.CHECK_IN_CLOSES)
    assert {r.event for r in pending} == {opens + timedelta(hours=3)}
    assert Reminder.objects.filter(state="cancelled").count() == 2
