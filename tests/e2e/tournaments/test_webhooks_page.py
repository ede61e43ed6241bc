"""The console's webhooks page in a real browser: add a webhook, send it a test that a real
receiver gets signed, and read the delivery in the log."""

from __future__ import annotations

from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import PHONE, no_horizontal_scroll
from tests.games.hosting_helpers import wait_for
from tests.tournaments.builders import open_tournament
from tests.tournaments.webhook_receiver import receiver
from tournaments.models import WebhookEndpoint


def test_an_organiser_adds_a_webhook_and_sends_it_a_test(
    live_url, new_context, sign_in, screenshot
):
    tournament, _ = open_tournament("single_elimination", 4)
    page = new_context().new_page()
    sign_in(page.context, live_url, tournament.organiser)
    with receiver() as site:
        page.goto(f"{live_url}/tournaments/{tournament.slug}/manage/")
        page.get_by_role("link", name="Webhooks").click()
        page.get_by_label("URL").fill(f"{site.url}/spring-cup/events")
        page.get_by_label("A dispute is filed").uncheck()
        page.get_by_role("button", name="Add the webhook").click()
        assert "The webhook is added" in page.locator(".messages").inner_text()
        endpoint = WebhookEndpoint.objects.get()
        assert "dispute.filed" not in endpoint.events
        page.get_by_text("Show the signing secret").click()
        assert page.locator(".webhook-secret").inner_text() == endpoint.secret

        page.get_by_role("button", name="Send a test").click()
        assert wait_for(lambda: site.at("/spring-cup/events"), 15)
        (test,) = site.verified(endpoint.secret, "/spring-cup/events")
        assert test["type"] == "webhook.test"
        assert wait_for(lambda: endpoint.deliveries.get().status == "delivered", 5)
    page.reload()
    row = page.locator(".deliveries tbody tr").first
    assert "webhook.test" in row.inner_text() and "delivered" in row.inner_text()
    page.get_by_text("Show the signing secret").click()
    assert serious_violations(page) == []
    screenshot(page, "tournament-webhooks")
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
