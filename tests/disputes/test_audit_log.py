"""The service's audit log: append-only through every interface, and read by who may."""

import pytest
from django.core.management import call_command
from django.db import ProgrammingError, connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from hosting.core.roles import ORGANISER
from tests.tournaments.builders import report_top_seed_wins, staff_admin, started, user
from tournaments import services
from tournaments.models import AppendOnly, AuditEntry

pytestmark = pytest.mark.django_db


def test_entries_cannot_be_changed_or_deleted_by_the_model_queryset_or_sql():
    tournament, _, _ = started("single_elimination", 4)
    entry = AuditEntry.objects.filter(tournament=tournament).first()
    entry.reason = "rewritten"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(AppendOnly):
        AuditEntry.objects.all().delete()
    if connection.vendor != "postgresql":
        return
    for sql in (
        "UPDATE tournaments_auditentry SET reason = 'x' WHERE id = %s",
        "DELETE FROM tournaments_auditentry WHERE id = %s",
    ):
        with (
            pytest.raises(ProgrammingError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [entry.pk])
    entry.refresh_from_db()
    assert entry.reason == ""


def test_the_admin_offers_no_change_or_delete_of_entries():
    tournament, _, _ = started("single_elimination", 4)
    root = user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    client = Client()
    client.force_login(root)
    entry = AuditEntry.objects.filter(tournament=tournament).first()
    listing = client.get("/admin/tournaments/auditentry/")
    assert listing.status_code == 200
    assert "delete_selected" not in listing.content.decode()
    page = client.get(f"/admin/tournaments/auditentry/{entry.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(f"/admin/tournaments/auditentry/{entry.pk}/delete/").status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_results_seeds_disqualifications_and_roles_are_recorded_with_before_and_after():
    tournament, stage, players = started("single_elimination", 4)
    seeding = AuditEntry.objects.get(tournament=tournament, action="tournaments.seeding.applied")
    assert seeding.before == {"seeds": {str(p.pk): None for p in players}}
    assert seeding.after["seeds"][str(players[0].pk)] == 1
    report_top_seed_wins(stage, "W1.1")
    entered = AuditEntry.objects.get(action="tournaments.match.result_entered")
    assert entered.target == "match:W1.1" and entered.after["winner"] == players[0].pk
    match = stage.matches.get(code="W1.1")
    services.match_report_result(
        match=match, by=tournament.organiser, winner=match.away, reason="sheet misread"
    )
    corrected = AuditEntry.objects.get(action="tournaments.match.result_corrected")
    assert corrected.before["winner"] == players[0].pk
    assert corrected.after["winner"] == match.away_id
    assert corrected.reason == "sheet misread"
    services.entrant_disqualify(entrant=players[1], by=tournament.organiser, reason="no show")
    dq = AuditEntry.objects.get(action="tournaments.entrant.disqualified")
    assert (dq.before, dq.after) == ({"status": "registered"}, {"status": "disqualified"})
    call_command("grant_role", "p3", "organiser")
    granted = AuditEntry.objects.filter(
        action="hosting.role.granted", target=f"user:{players[2].user_id}"
    )
    assert granted.get().after == {"role": ORGANISER, "held": True}


def test_organisers_read_their_tournaments_entries_and_staff_admins_all():
    tournament, _, _ = started("single_elimination", 4)
    other = user("other-host", ORGANISER)
    referee = staff_admin()
    player = tournament.entrants.first().user

    def read(person, query=""):
        client = APIClient()
        if person is not None:
            client.force_authenticate(person)
        return client.get(f"/api/audit/{query}")

    assert read(None).status_code in (401, 403)
    assert read(player).status_code == 403
    assert read(other).json()["count"] == 0
    own = read(tournament.organiser).json()
    assert own["count"] > 0 and {r["tournament"] for r in own["results"]} == {tournament.slug}
    every = read(referee).json()
    assert every["count"] > own["count"]  # the roles granted belong to no tournament
    started_only = read(referee, "?action=tournaments.stage.").json()
    assert [r["action"] for r in started_only["results"]] == ["tournaments.stage.started"]
    assert read(referee, "?since=yesterday").status_code == 400
    page = Client()
    page.force_login(tournament.organiser)
    html = page.get("/audit/?action=tournaments.seeding").content.decode()
    assert "tournaments.seeding.applied" in html and "hosting.role" not in html
    page.force_login(player)
    assert page.get("/audit/").status_code == 403
