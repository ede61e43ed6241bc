"""Webhooks through the API and the console's webhooks page: only for those who run the
tournament, refusals readable, the "send test" button really sends."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from hosting.core import tokens
from tests.games.hosting_helpers import celery_worker, wait_for
from tests.tournaments.builders import open_tournament
from tests.tournaments.webhook_receiver import receiver
from tournaments.models import WebhookDelivery, WebhookEndpoint


def _client(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


@pytest.mark.django_db
def test_an_organiser_manages_webhooks_through_the_api():
    tournament, _ = open_tournament("single_elimination", 2)
    api = _client(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}/webhooks"
    made = api.post(
        base, {"url": "http://127.0.0.1:9/hook", "events": ["match.result"]}, format="json"
    )
    assert made.status_code == 201, made.content
    hook = made.json()
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["match.result"]
    listed = api.get(base).json()["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    assert api.get(f"{base}/{hook['id']}").json()["secret"] == hook["secret"]
    changed = api.patch(f"{base}/{hook['id']}", {"active": False}, format="json")
    assert changed.status_code == 200 and changed.json()["active"] is False
    sent = api.post(f"{base}/{hook['id']}/test")
    assert sent.status_code == 202 and sent.json()["event"] == "webhook.test"
    log = api.get(f"{base}/{hook['id']}/deliveries").json()
    assert log["count"] == 1 and log["results"][0]["status"] == "pending"
    assert api.delete(f"{base}/{hook['id']}").status_code == 200
    assert not WebhookEndpoint.objects.exists()
    assert api.get(f"{base}/{hook['id']}").json()["error"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"url": "ftp://example.org/", "events": ["match.ready"]}, "http:// or https://"),
        ({"url": "http://127.0.0.1/", "events": []}, "events"),
        ({"url": "http://127.0.0.1/", "events": ["match.exploded"]}, "events"),
        ({"events": ["match.ready"]}, "url"),
        ({"url": "http://10.0.0.1/", "events": ["match.ready"]}, "url: "),
        ({"url": "http://169.254.169.254/", "events": ["match.ready"]}, "link-local"),
    ],
)
def test_a_bad_webhook_is_refused_readably_and_nothing_is_made(body, detail):
    tournament, _ = open_tournament("single_elimination", 2)
    answer = _client(tournament.organiser).post(
        f"/api/tournaments/{tournament.slug}/webhooks", body, format="json"
    )
    assert answer.status_code == 400
    assert detail in answer.content.decode()
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.django_db
def test_nobody_else_sees_or_changes_a_tournaments_webhooks():
    tournament, players = open_tournament("single_elimination", 2)
    base = f"/api/tournaments/{tournament.slug}/webhooks"
    hook = _client(tournament.organiser).post(
        base, {"url": "http://127.0.0.1/", "events": ["match.ready"]}, format="json"
    )
    hook_id = hook.json()["id"]
    for client in (_client(players[0].user), APIClient()):
        assert client.get(base).status_code == 403
        assert client.get(f"{base}/{hook_id}").status_code == 403
        assert client.post(f"{base}/{hook_id}/test").status_code == 403
        assert client.delete(f"{base}/{hook_id}").status_code == 403
    page = Client()
    page.force_login(players[0].user)
    assert page.get(f"/tournaments/{tournament.slug}/manage/webhooks").status_code == 403
    assert WebhookEndpoint.objects.count() == 1 and not WebhookDelivery.objects.exists()


@pytest.mark.django_db
def test_a_personal_token_manages_webhooks_without_csrf():
    tournament, _ = open_tournament("single_elimination", 2)
    secret = tokens.token_create(user=tournament.organiser, name="bot").secret
    client = APIClient(enforce_csrf_checks=True)
    made = client.post(
        f"/api/tournaments/{tournament.slug}/webhooks",
        {"url": "http://127.0.0.1/", "events": ["match.ready"]},
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert made.status_code == 201, made.content


def test_the_webhooks_page_adds_a_webhook_and_its_test_button_sends(
    transactional_db, redis_url, celery_queue
):
    tournament, _ = open_tournament("single_elimination", 2)
    page = Client()
    page.force_login(tournament.organiser)
    address = f"/tournaments/{tournament.slug}/manage/webhooks"
    assert f'href="{address}"' in page.get(f"/tournaments/{tournament.slug}/manage/").text
    refused = page.post(address, {"url": "gopher://x", "events": ["match.ready"]})
    assert refused.status_code == 400 and "https://" in refused.text
    with receiver() as site, celery_worker(celery_queue):
        added = page.post(address, {"url": f"{site.url}/hook", "events": ["match.ready"]})
        assert added.status_code == 302
        endpoint = WebhookEndpoint.objects.get()
        shown = page.get(address).text
        assert endpoint.secret in shown and f"{site.url}/hook" in shown
        assert page.post(f"{address}/{endpoint.pk}/test").status_code == 302
        assert wait_for(lambda: site.at("/hook"), 15)
        (test,) = site.verified(endpoint.secret, "/hook")
        assert test["type"] == "webhook.test"
        assert wait_for(lambda: WebhookDelivery.objects.get().status == "delivered", 5)
    assert "delivered" in page.get(address).text
    page.post(f"{address}/{endpoint.pk}/off")
    endpoint.refresh_from_db()
    assert not endpoint.active
    page.post(f"{address}/{endpoint.pk}/delete")
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.django_db
def test_the_admin_shows_webhooks_without_their_secret_and_switches_them_off(
    client, django_user_model
):
    from django.urls import reverse

    tournament, _ = open_tournament("single_elimination", 2)
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament, url="http://127.0.0.1/", events=["match.ready"], secret="whsec_x"
    )
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client.force_login(boss)
    changelist = reverse("admin:tournaments_webhookendpoint_changelist")
    page = client.get(reverse("admin:tournaments_webhookendpoint_change", args=[endpoint.pk]))
    assert page.status_code == 200 and "whsec_x" not in page.text
    assert client.get(f"{changelist}?secret__startswith=whsec").status_code == 400
    done = client.post(
        changelist, {"action": "switch_off", "_selected_action": [endpoint.pk]}, follow=True
    )
    assert "1 webhook(s) switched off." in done.text
    endpoint.refresh_from_db()
    assert not endpoint.active
    assert tournament.audit.filter(action="tournaments.webhook.edited").exists()
