"""Every dispute and audit endpoint, API and page, against every kind of reader: the expected
status, and only the allowed actors change anything (each request runs in a savepoint that
is rolled back, so each actor meets the same dispute)."""

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from hosting.core.roles import ORGANISER
from tests.tournaments.builders import report_top_seed_wins, staff_admin, started, user
from tournaments.disputes import services as disputes
from tournaments.models import AuditEntry, Dispute, DisputeComment, Match

pytestmark = pytest.mark.django_db

ACTORS = (
    "anonymous",
    "spectator",
    "another_player",
    "other_party",
    "other_organiser",
    "organiser",
    "staff",
    "filer",
)
DENIED = (401, 403)  # no credentials: DRF answers 403 to a session, 401 with a bearer scheme


@pytest.fixture
def scene():
    tournament, stage, players = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    match = stage.matches.get(code="W1.1")
    filer = match.loser.user
    dispute = disputes.dispute_file(match=match, by=filer, reason="the sheet is wrong")
    people = {
        "anonymous": None,
        "spectator": user("watcher"),
        "another_player": players[1].user,
        "other_party": match.winner.user,
        "other_organiser": user("rival-host", ORGANISER),
        "organiser": tournament.organiser,
        "staff": staff_admin(),
        "filer": filer,
    }
    return {"tournament": tournament, "match": match, "dispute": dispute, "people": people}


def snapshot(scene) -> tuple:
    return (
        list(Dispute.objects.values_list("status", "assignee", "ruling")),
        AuditEntry.objects.count(),
        DisputeComment.objects.count(),
        list(Match.objects.order_by("pk").values_list("status", "winner", "home_score")),
    )


def run(scene, request) -> dict[str, tuple[int, bool]]:
    """Each actor's status and whether it changed anything, each from the same start."""
    seen = {}
    for name in ACTORS:
        before = snapshot(scene)
        point = transaction.savepoint()
        response = request(scene["people"][name])
        changed = snapshot(scene) != before
        transaction.savepoint_rollback(point)
        seen[name] = (response.status_code, changed)
    return seen


def api(method: str, path: str, body: dict | None = None):
    def call(person):
        client = APIClient()
        if person is not None:
            client.force_authenticate(person)
        return getattr(client, method)(path, body or {}, format="json")

    return call


def page(method: str, path: str, body: dict | None = None):
    def call(person):
        client = Client()
        if person is not None:
            client.force_login(person)
        return getattr(client, method)(path, body or {})

    return call


def expect(seen, allowed: dict[str, int], refused: dict[str, int | tuple], default) -> None:
    """``allowed`` actors get their status and (for writes) change things; every other
    actor gets ``refused``'s status (or ``default``) and changes nothing."""
    for name, (status, _) in seen.items():
        want = allowed.get(name, refused.get(name, default))
        assert status in (want if isinstance(want, tuple) else (want,)), (name, status)


def assert_only_changed_by(seen, *names) -> None:
    assert {name for name, (_, changed) in seen.items() if changed} == set(names)


READERS = {"other_party": 200, "organiser": 200, "staff": 200, "filer": 200}
HIDDEN = {"anonymous": DENIED}  # everyone else: a 404, as if no such dispute


def test_the_dispute_list_shows_each_reader_only_their_disputes(scene):
    counts = {}
    for name in ACTORS:
        response = api("get", "/api/disputes/")(scene["people"][name])
        counts[name] = response.json().get("count") if response.status_code == 200 else None
    assert counts == {
        "anonymous": None,
        "spectator": 0,
        "another_player": 0,
        "other_party": 1,
        "other_organiser": 0,
        "organiser": 1,
        "staff": 1,
        "filer": 1,
    }


def test_reading_a_dispute(scene):
    path = f"/api/disputes/{scene['dispute'].pk}/"
    seen = run(scene, api("get", path))
    expect(seen, READERS, HIDDEN, 404)
    assert_only_changed_by(seen)


def test_filing(scene):
    body = {"tournament": scene["tournament"].slug, "match": "W1.1", "reason": "again"}
    seen = run(scene, api("post", "/api/disputes/", body))
    expect(
        seen,
        {"other_party": 201, "organiser": 201},
        {"anonymous": DENIED, "filer": 409},  # the filer already has one open
        403,
    )
    assert_only_changed_by(seen, "other_party", "organiser")


def test_withdrawing(scene):
    seen = run(scene, api("post", f"/api/disputes/{scene['dispute'].pk}/withdraw"))
    expect(
        seen,
        {"filer": 200},
        {**HIDDEN, "other_party": 403, "organiser": 403, "staff": 403},
        404,
    )
    assert_only_changed_by(seen, "filer")


def test_assigning(scene):
    seen = run(scene, api("post", f"/api/disputes/{scene['dispute'].pk}/assign"))
    expect(
        seen, {"staff": 200}, {**HIDDEN, "other_party": 403, "organiser": 403, "filer": 403}, 404
    )
    assert_only_changed_by(seen, "staff")


def test_commenting(scene):
    path = f"/api/disputes/{scene['dispute'].pk}/comments"
    seen = run(scene, api("post", path, {"text": "my statement"}))
    expect(seen, {"other_party": 201, "organiser": 201, "staff": 201, "filer": 201}, HIDDEN, 404)
    assert_only_changed_by(seen, "other_party", "organiser", "staff", "filer")


def test_resuming(scene):
    seen = run(scene, api("post", f"/api/disputes/{scene['dispute'].pk}/resume"))
    refused = {**HIDDEN, "other_party": 403, "organiser": 403, "filer": 403}
    expect(seen, {"staff": 409}, refused, 404)  # this dispute paused nothing
    assert_only_changed_by(seen)


def test_ruling_and_its_dry_run(scene):
    path = f"/api/disputes/{scene['dispute'].pk}/ruling"
    refused = {**HIDDEN, "other_party": 403, "organiser": 403, "filer": 403}
    body = {"ruling": "overturn", "winner": scene["match"].loser_id, "dry_run": True}
    seen = run(scene, api("post", path, body))
    expect(seen, {"staff": 200}, refused, 404)
    assert_only_changed_by(seen)
    seen = run(scene, api("post", path, {"ruling": "dismiss", "reason": "no grounds"}))
    expect(seen, {"staff": 200}, refused, 404)
    assert_only_changed_by(seen, "staff")


def test_stepping_through_the_full_state(scene):
    seen = run(scene, api("get", f"/api/disputes/{scene['dispute'].pk}/steps"))
    refused = {**HIDDEN, "other_party": 403, "organiser": 403, "filer": 403}
    expect(seen, {"staff": 200}, refused, 404)


def test_the_audit_api(scene):
    seen = run(scene, api("get", "/api/audit/"))
    expect(seen, {"other_organiser": 200, "organiser": 200, "staff": 200}, HIDDEN, 403)
    rival = api("get", "/api/audit/")(scene["people"]["other_organiser"]).json()
    assert rival["count"] == 0


def test_a_tournaments_own_audit_trail(scene):
    seen = run(scene, api("get", f"/api/tournaments/{scene['tournament'].slug}/audit"))
    expect(seen, {"organiser": 200, "staff": 200}, {"anonymous": DENIED}, 403)


def test_the_pages(scene):
    dispute = scene["dispute"]
    login = 302  # anonymous readers are sent to log in
    seen = run(scene, page("get", "/admin/disputes/"))
    expect(
        seen,
        {"other_organiser": 200, "organiser": 200, "staff": 200},
        {"anonymous": login},
        403,
    )
    for path in (f"/disputes/{dispute.pk}/", f"/admin/disputes/{dispute.pk}/"):
        seen = run(scene, page("get", path))
        expect(seen, READERS, {"anonymous": login}, 404)
    seen = run(scene, page("get", "/audit/"))
    expect(
        seen, {"other_organiser": 200, "organiser": 200, "staff": 200}, {"anonymous": login}, 403
    )
    slug = scene["tournament"].slug
    seen = run(scene, page("get", f"/disputes/new/{slug}/W1.1"))
    expect(
        seen,
        {"other_party": 200, "organiser": 200, "staff": 200, "filer": 200},
        {"anonymous": login},
        403,
    )
    seen = run(
        scene, page("post", f"/disputes/{dispute.pk}/rule", {"ruling": "dismiss", "reason": "x"})
    )
    expect(
        seen,
        {"staff": 302},
        {"anonymous": login, "other_party": 403, "organiser": 403, "filer": 403},
        404,
    )
    assert_only_changed_by(seen, "staff")


def test_only_staff_admins_see_the_full_state_on_the_dispute_page(scene):
    path = f"/disputes/{scene['dispute'].pk}/"
    for name in ("other_party", "organiser", "filer"):
        html = page("get", path)(scene["people"][name]).content.decode()
        assert "Full state" not in html and 'id="rule-title"' not in html
    assert "Handling" in page("get", path)(scene["people"]["staff"]).content.decode()
