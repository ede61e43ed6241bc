"""``/api/tournaments/<slug>/webhooks``: a tournament's webhooks for those who run it (the
webhooks page's twin); the service is ``tournaments.webhooks.services``. Each view carries its
OpenAPI description, beside the serializers of what it answers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.openapi import PAGE, READ_ERRORS, json_object, operation
from hosting.core.validation import Text, valid
from tournaments import selectors, services
from tournaments.api.common import Page
from tournaments.api.outputs import TournamentPage
from tournaments.events import EVENTS
from tournaments.models import Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import delivery
from tournaments.webhooks import services as webhooks

URL_LENGTH = 500


class WebhookInput(serializers.Serializer):
    # Checked by the service (scheme, host, address), which says what is wrong with it.
    url = Text(max_length=URL_LENGTH)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS), min_length=1, max_length=len(EVENTS)
    )
    active = serializers.BooleanField(required=False, default=True)


class WebhookChangeInput(serializers.Serializer):
    url = Text(max_length=URL_LENGTH, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS),
        min_length=1,
        max_length=len(EVENTS),
        required=False,
    )
    active = serializers.BooleanField(required=False)


class Webhook(serializers.Serializer):
    id = serializers.IntegerField()
    url = Text()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENTS))
    active = serializers.BooleanField()
    discord = serializers.BooleanField(help_text="a Discord channel: sent readable messages")
    created = serializers.DateTimeField()


class WebhookWithSecret(Webhook):
    secret = Text(help_text="whsec_…: the key of its signatures")


class Webhooks(serializers.Serializer):
    webhooks = Webhook(many=True)


class Delivery(serializers.Serializer):
    id = serializers.IntegerField()
    message_id = Text(help_text="the webhook-id header, the same on retries")
    event = Text(help_text="one of the events, or webhook.test")
    status = serializers.ChoiceField(choices=["pending", "retrying", "delivered", "failed"])
    attempts = serializers.IntegerField()
    response_code = serializers.IntegerField(allow_null=True, help_text="of the last attempt")
    error = Text(help_text="why the last attempt failed; empty if it did not")
    created = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    payload = json_object("payload", "the event as sent: type, timestamp, data")


class DeliveryPage(TournamentPage):
    results = Delivery(many=True)


def webhook_payload(endpoint: WebhookEndpoint, *, secret: bool = False) -> dict[str, Any]:
    return {
        "id": endpoint.pk,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "discord": delivery.is_discord(endpoint.url),
        "created": endpoint.created,
        **({"secret": endpoint.secret} if secret else {}),
    }


def delivery_payload(delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "id": delivery.pk,
        "message_id": delivery.message_id,
        "event": delivery.event,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "response_code": delivery.response_code,
        "error": delivery.error,
        "created": delivery.created,
        "last_attempt_at": delivery.last_attempt_at,
        "delivered_at": delivery.delivered_at,
        "payload": delivery.payload,
    }


def _run(slug: str, request: Request) -> Tournament:
    tournament = selectors.visible_tournament(slug, request.user)
    services.check_runs(tournament, request.user)
    return tournament


class WebhookAPIView(APIView):
    permission_classes = [IsAuthenticated]


@extend_schema_view(
    get=operation(
        Webhooks,
        summary="The tournament's webhooks (organisers)",
        errors=READ_ERRORS,
        operation_id="tournaments_webhooks_list",
    ),
    post=operation(
        WebhookWithSecret,
        request=WebhookInput,
        status=201,
        summary="Add a webhook (organisers)",
        description="A URL on a private or loopback address is refused in production; a "
        "Discord channel's webhook URL is sent readable messages.",
    ),
)
class WebhookListView(WebhookAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _run(slug, request)
        return Response({"webhooks": [webhook_payload(e) for e in tournament.webhooks.all()]})

    def post(self, request: Request, slug: str) -> Response:
        tournament = _run(slug, request)
        data = valid(WebhookInput, request.data)
        endpoint = webhooks.endpoint_create(tournament=tournament, by=request.user, **data)
        return Response(webhook_payload(endpoint, secret=True), status=201)


@extend_schema_view(
    get=operation(WebhookWithSecret, summary="A webhook and its secret", errors=READ_ERRORS),
    patch=operation(Webhook, request=WebhookChangeInput, summary="Change a webhook"),
    delete=operation(
        Webhook, errors=(401, 403, 404), summary="Delete a webhook (and its delivery log)"
    ),
)
class WebhookDetailView(WebhookAPIView):
    def get(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        return Response(webhook_payload(endpoint, secret=True))

    def patch(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        data = valid(WebhookChangeInput, request.data)
        endpoint = webhooks.endpoint_update(endpoint=endpoint, by=request.user, **data)
        return Response(webhook_payload(endpoint))

    def delete(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        answer = webhook_payload(endpoint)
        webhooks.endpoint_delete(endpoint=endpoint, by=request.user)
        return Response(answer)


@extend_schema_view(
    post=operation(
        Delivery, status=202, errors=(401, 403, 404), summary="Send a webhook.test event"
    )
)
class WebhookTestView(WebhookAPIView):
    def post(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        delivery = webhooks.send_test(endpoint=endpoint, by=request.user)
        return Response(delivery_payload(delivery), status=202)


@extend_schema_view(
    get=operation(
        DeliveryPage,
        summary="A webhook's deliveries, newest first",
        parameters=[PAGE],
        errors=READ_ERRORS,
    )
)
class WebhookDeliveriesView(WebhookAPIView):
    def get(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        paginator = Page()
        page = paginator.paginate_queryset(webhooks.deliveries(endpoint), request, view=self)
        return paginator.get_paginated_response([delivery_payload(d) for d in page])
