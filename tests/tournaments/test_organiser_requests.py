"""Issue #27, finding 9: a new account at /tournaments/new/ is shown where to ask for the
organiser role, and a staff admin approves the request on a page (the grant is audited)."""

import pytest
from django.test import Client

from hosting.core.roles import STAFF_ADMIN, is_organiser
from tests.tournaments.builders import user
from tournaments.models import AuditEntry, OrganiserRequest

pytestmark = pytest.mark.django_db


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def test_a_new_account_asks_to_organise_and_a_staff_admin_approves():
    newcomer = user("newcomer")
    client = signed_in(newcomer)
    asked = client.get("/tournaments/new/", follow=True)
    assert asked.redirect_chain[-1][0] == "/tournaments/become-organiser/"
    page = asked.content.decode()
    assert "ask for the role here" in page and 'id="organiser-request-form"' in page
    empty = client.post("/tournaments/become-organiser/", {"plans": "  "})
    assert empty.status_code == 400 and "say in a sentence" in empty.content.decode()
    sent = client.post(
        "/tournaments/become-organiser/", {"plans": "A weekly Drafting Trios cup"}, follow=True
    )
    assert "waiting for a staff admin" in sent.content.decode()
    again = client.post("/tournaments/become-organiser/", {"plans": "twice"})
    assert again.status_code == 400 and OrganiserRequest.objects.count() == 1

    assert client.get("/tournaments/organiser-requests/").status_code == 403
    referee = signed_in(user("referee", STAFF_ADMIN))
    queue = referee.get("/tournaments/organiser-requests/").content.decode()
    assert "A weekly Drafting Trios cup" in queue and "Make newcomer an organiser" in queue
    request = OrganiserRequest.objects.get()
    done = referee.post(
        f"/tournaments/organiser-requests/{request.pk}", {"answer": "approve"}, follow=True
    )
    assert "newcomer is an organiser now." in done.content.decode()
    newcomer.refresh_from_db()
    assert is_organiser(newcomer)
    assert AuditEntry.objects.filter(action="hosting.role.granted", target=f"user:{newcomer.pk}")
    assert client.get("/tournaments/new/").status_code == 200


def test_the_django_admin_answers_requests_through_the_same_service():
    waiting = OrganiserRequest.objects.create(user=user("hopeful"), plans="A Swiss league")
    refused = OrganiserRequest.objects.create(user=user("doubtful"), plans="Not sure yet")
    staff = user("referee", STAFF_ADMIN)
    staff.is_staff = staff.is_superuser = True
    staff.save()
    admin = signed_in(staff)
    listing = "/admin/tournaments/organiserrequest/"
    assert admin.get(listing).status_code == 200
    assert admin.get(f"{listing}{waiting.pk}/change/").status_code == 200
    for action, row in (("approve", waiting), ("decline", refused)):
        answer = admin.post(listing, {"action": action, "_selected_action": [row.pk]})
        assert answer.status_code == 302
    waiting.refresh_from_db()
    refused.refresh_from_db()
    assert waiting.status == "approved" and is_organiser(waiting.user)
    assert refused.status == "declined" and not is_organiser(refused.user)
    assert AuditEntry.objects.filter(action="hosting.organiser_request.declined").exists()
