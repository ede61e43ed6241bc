"""``/api/tournaments/<slug>/webhooks``: a tournament's webhooks for those who run it (the
webhooks page's twin); the service is ``tournaments.webhooks.services``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.api import Page, _tournament, _valid
from tournaments.events import EVENTS
from tournaments.models import Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import services as webhooks

URL_LENGTH = 500


class WebhookInput(serializers.Serializer):
    # Checked by the service (scheme, host, address), which says what is wrong with it.
    url = serializers.CharField(max_length=URL_LENGTH)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS), min_length=1, max_length=len(EVENTS)
    )
    active = serializers.BooleanField(required=False, default=True)


class WebhookChangeInput(serializers.Serializer):
    url = serializers.CharField(max_length=URL_LENGTH, required=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS),
        min_length=1,
        max_length=len(EVENTS),
        required=False,
    )
    active = serializers.BooleanField(required=False)


def webhook_payload(endpoint: WebhookEndpoint, *, secret: bool = False) -> dict[str, Any]:
    return {
        "id": endpoint.pk,
        "url": endpoint.url,
        "events": endpoint.events,
        "active": endpoint.active,
        "discord": webhooks.is_discord(endpoint.url),
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
    tournament = _tournament(slug, request.user)
    services.check_runs(tournament, request.user)
    return tournament


class WebhookAPIView(APIView):
    permission_classes = [IsAuthenticated]


class WebhookListView(WebhookAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _run(slug, request)
        return Response({"webhooks": [webhook_payload(e) for e in tournament.webhooks.all()]})

    def post(self, request: Request, slug: str) -> Response:
        tournament = _run(slug, request)
        data = _valid(WebhookInput, request.data)
        endpoint = webhooks.endpoint_create(tournament=tournament, by=request.user, **data)
        return Response(webhook_payload(endpoint, secret=True), status=201)


class WebhookDetailView(WebhookAPIView):
    def get(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        return Response(webhook_payload(endpoint, secret=True))

    def patch(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        data = _valid(WebhookChangeInput, request.data)
        endpoint = webhooks.endpoint_update(endpoint=endpoint, by=request.user, **data)
        return Response(webhook_payload(endpoint))

    def delete(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        answer = webhook_payload(endpoint)
        webhooks.endpoint_delete(endpoint=endpoint, by=request.user)
        return Response(answer)


class WebhookTestView(WebhookAPIView):
    def post(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        delivery = webhooks.send_test(endpoint=endpoint, by=request.user)
        return Response(delivery_payload(delivery), status=202)


class WebhookDeliveriesView(WebhookAPIView):
    def get(self, request: Request, slug: str, hook_id: int) -> Response:
        endpoint = webhooks.endpoint_for(_run(slug, request), hook_id, request.user)
        paginator = Page()
        page = paginator.paginate_queryset(webhooks.deliveries(endpoint), request, view=self)
        return paginator.get_paginated_response([delivery_payload(d) for d in page])
