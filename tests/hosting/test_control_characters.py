"""Issue 30, finding 3: a NUL byte (or another control character no field takes) in a form
field, a query parameter, a path segment or a JSON string is a readable 400 that changes
nothing, as a page for the pages and in the one JSON error shape for the API; never a 500."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.builders import report_top_seed_wins, started
from tournaments.disputes import services as disputes
from tournaments.models import AuditEntry, DisputeComment, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def dispute():
    tournament, stage, _players = started("single_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    match = stage.matches.get(code="W1.1")
    filed = disputes.dispute_file(match=match, by=match.loser.user, reason="the sheet is wrong")
    return tournament, stage, filed


def signed_in(person, api: bool = False) -> Client:
    client = APIClient() if api else Client()
    client.force_login(person)
    return client


def refused_page(response, char: str = "U+0000 (NUL)") -> None:
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "This request cannot be taken" in html and char in html and "Nothing was changed" in html


def refused_json(response, char: str = "U+0000 (NUL)") -> None:
    assert response.status_code == 400, response.content
    assert response.json() == {
        "error": "parse_error",
        "detail": f"text may not contain the control character {char}",
    }


def test_a_nul_in_a_dispute_comment_form_is_a_400_page(dispute):
    tournament, _stage, filed = dispute
    before = (DisputeComment.objects.count(), AuditEntry.objects.count())
    page = signed_in(tournament.organiser)
    refused_page(page.post(f"/disputes/{filed.pk}/comment", {"text": "see\x00here"}))
    assert (DisputeComment.objects.count(), AuditEntry.objects.count()) == before


def test_a_nul_in_the_result_forms_match_field_is_a_400_page(dispute):
    tournament, stage, _filed = dispute
    page = signed_in(tournament.organiser)
    url = f"/tournaments/{tournament.slug}/manage/result"
    refused_page(page.post(url, {"match": "W1.2\x00", "winner": ""}))
    assert stage.matches.get(code="W1.2").status == "ready"


def test_a_nul_in_the_audit_pages_query_is_a_400_page(dispute):
    tournament, _stage, _filed = dispute
    refused_page(signed_in(tournament.organiser).get("/audit/?tournament=%00"))


def test_a_nul_in_a_path_segment_is_a_400_page_or_json_under_the_api(dispute):
    tournament, _stage, _filed = dispute
    refused_page(Client().get("/u/ann%00/"))
    refused_json(Client().get(f"/api/tournaments/{tournament.slug}%00/"))


def test_another_control_character_is_refused_and_tab_and_newlines_are_not(dispute):
    tournament, _stage, filed = dispute
    page = signed_in(tournament.organiser)
    url = f"/disputes/{filed.pk}/comment"
    refused_page(page.post(url, {"text": "bell\x07"}), "U+0007")
    refused_page(page.get("/audit/", {"act\x1bion": "x"}), "U+001B")
    kept = page.post(url, {"text": "line one\r\nline\ttwo"})
    assert kept.status_code == 302
    assert DisputeComment.objects.get().text == "line one\r\nline\ttwo"


def test_a_nul_in_a_json_body_string_is_a_400_in_the_json_error_shape(dispute):
    tournament, _stage, filed = dispute
    api = signed_in(tournament.organiser, api=True)
    comments = f"/api/disputes/{filed.pk}/comments"
    refused_json(api.post(comments, {"text": "a\x00b"}, format="json"))
    refused_json(api.post(comments, {"text": "a\x01b"}, format="json"), "U+0001")
    created = api.post("/api/tournaments/", {"name": "Cup\x00", "format": "swiss"}, format="json")
    refused_json(created)
    assert not DisputeComment.objects.exists()
    assert list(Tournament.objects.all()) == [tournament]


def test_a_json_client_of_a_page_gets_the_json_refusal(dispute):
    tournament, _stage, _filed = dispute
    page = signed_in(tournament.organiser)
    refused_json(page.get("/audit/?tournament=%00", HTTP_ACCEPT="application/json"))
