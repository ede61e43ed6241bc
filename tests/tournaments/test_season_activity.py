"""Activity checks: players check in by a cut-off; at the cut-off a Celery task applies the
season's policy to the no-shows (warning, garnet fine, elimination, replacement)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from hosting.core.errors import Conflict, Forbidden
from tests.games.hosting_helpers import celery_worker, wait_for
from tests.tournaments.builders import open_tournament, user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import ActivityCheck, AuditEntry, Entrant, LedgerEntry
from tournaments.seasons import activity
from tournaments.seasons import services as seasons


def _season(capacity=None, **rules):
    fields = {"capacity": capacity} if capacity else {}
    tournament, cast = open_tournament("genius", 5, format_options=RULES | rules, **fields)
    return tournament, cast


def _due(check: ActivityCheck) -> None:
    """The cut-off passes (the row's clock, not a sleep)."""
    ActivityCheck.objects.filter(pk=check.pk).update(cutoff=timezone.now() - timedelta(seconds=1))


@pytest.mark.django_db
def test_a_no_show_is_fined_and_those_who_checked_in_are_not():
    tournament, cast = _season(no_show="fine", no_show_fine=3)
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    for player in cast[:2]:
        seasons.ledger_record(
            tournament=tournament, by=host, kind="award", entrant=player.pk, amount=5, reason="x"
        )
    check = activity.open_check(
        tournament=tournament, by=host, cutoff=timezone.now() + timedelta(hours=1)
    )
    with pytest.raises(Forbidden):
        activity.check_in(check=check, by=cast[1].user, entrant=cast[0])
    for player in (cast[1], cast[2], cast[3], cast[4]):
        activity.check_in(check=check, by=player.user, entrant=player)
    assert activity.apply(check_id=check.pk) is False  # not yet due
    _due(check)
    assert activity.apply(check_id=check.pk) is True
    assert activity.apply(check_id=check.pk) is False  # once only
    check.refresh_from_db()
    assert check.outcome == {str(cast[0].pk): "fined 3"}
    assert seasons.balances(tournament)[cast[0].pk] == 2
    assert LedgerEntry.objects.filter(kind="spend", entrant=cast[0]).exists()
    assert AuditEntry.objects.filter(action="tournaments.season.activity.fined").exists()
    with pytest.raises(Conflict):
        activity.check_in(check=check, by=cast[0].user, entrant=cast[0])


@pytest.mark.django_db
def test_a_no_show_is_replaced_by_the_first_waiting_player():
    tournament, cast = _season(capacity=5, no_show="replace")
    waiting = services.entrant_register(tournament=tournament, user=user("waiting"))
    assert waiting.status == Entrant.Status.WAITLISTED
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    check = activity.open_check(
        tournament=tournament, by=host, cutoff=timezone.now() + timedelta(hours=1)
    )
    for player in cast[:4]:
        activity.check_in(check=check, by=player.user, entrant=player)
    _due(check)
    activity.apply_due()
    waiting.refresh_from_db()
    cast[4].refresh_from_db()
    assert cast[4].status == Entrant.Status.WITHDRAWN
    assert waiting.status == Entrant.Status.REGISTERED and waiting.seed == 5
    assert waiting.pk in seasons.season_for(tournament).players


@pytest.mark.django_db
def test_activity_checks_through_the_api_and_the_desk():
    tournament, cast = _season(no_show="eliminate")
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    slug = tournament.slug
    hosting = Client()
    hosting.force_login(host)
    cutoff = (timezone.now() + timedelta(hours=1)).isoformat()
    opened = hosting.post(
        f"/api/tournaments/{slug}/activity-checks", {"cutoff": cutoff}, "application/json"
    )
    assert opened.status_code == 201 and opened.json()["policy"] == "eliminate"
    player = Client()
    player.force_login(cast[0].user)
    done = player.post(f"/api/tournaments/{slug}/activity-checks/{opened.json()['id']}/check-in")
    assert done.status_code == 200 and done.json()["checked_in"] == [cast[0].pk]
    desk = Client()
    desk.force_login(cast[1].user)
    page = desk.get(f"/tournaments/{slug}/desk").content.decode()
    assert "Check in" in page
    desk.post(f"/tournaments/{slug}/desk/check_in", {"check": opened.json()["id"]})
    assert "You are checked in." in desk.get(f"/tournaments/{slug}/desk").content.decode()
    twice = hosting.post(
        f"/api/tournaments/{slug}/activity-checks", {"cutoff": cutoff}, "application/json"
    )
    assert twice.status_code == 409


@pytest.mark.django_db(transaction=True)
def test_the_worker_applies_the_check_at_its_cut_off(redis_url, celery_queue):
    tournament, cast = _season(no_show="eliminate")
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    with celery_worker(celery_queue):
        check = activity.open_check(
            tournament=tournament, by=host, cutoff=timezone.now() + timedelta(seconds=1)
        )
        for player in cast[1:]:
            activity.check_in(check=check, by=player.user, entrant=player)
        # Nobody calls the server: the ETA task armed at the opening applies the policy.
        assert wait_for(lambda: ActivityCheck.objects.get(pk=check.pk).status == "applied", 8)
    assert Entrant.objects.get(pk=cast[0].pk).status == Entrant.Status.WITHDRAWN
    assert AuditEntry.objects.filter(action="tournaments.season.activity.removed").exists()
