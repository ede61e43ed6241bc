"""Personal API tokens on the live streams: ``Authorization: Bearer`` follows a game as the
token's user (their own seat's view) and a draft tournament its organiser runs; an unknown or
revoked token is a 401, as on the API."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient

from games import services
from games.services import SeatSpec
from hosting.core import tokens
from tests.games.hosting_helpers import register_tiny
from tests.games.test_live import next_message
from tests.tournaments.builders import organiser, user
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


async def _first_message(path: str, headers: dict[str, str]) -> dict:
    response = await AsyncClient().get(path, headers=headers)
    assert response["Content-Type"] == "text/event-stream"
    stream = response.streaming_content.__aiter__()
    try:
        return await next_message(stream)
    finally:
        await stream.aclose()


def test_a_bearer_token_follows_a_game_as_its_users_seat():
    engine = register_tiny()
    player = user("ann")
    game = services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])
    game.seats.filter(number=1).update(user=player)
    game.seats.filter(number=0).update(guest_id="g0")
    services.game_start(game_id=game.pk, by=None)
    made = tokens.token_create(user=player, name="bot")
    path = f"/live/games/{game.pk}/"

    mine = asyncio.run(_first_message(path, {"Authorization": f"Bearer {made.secret}"}))
    spectator = asyncio.run(_first_message(path, {}))
    game.refresh_from_db()
    assert mine["seat"] == 1 and mine["view"] == engine.view(game.state, 1)
    assert spectator["seat"] is None and "hand" not in spectator["view"]

    tokens.token_revoke(user=player, token_id=made.token.pk)
    refused = asyncio.run(
        AsyncClient().get(path, headers={"Authorization": f"Bearer {made.secret}"})
    )
    assert refused.status_code == 401
    assert refused.json()["error"] == "not_authenticated"
    assert refused["WWW-Authenticate"].startswith("Bearer")


def test_a_bearer_token_follows_a_draft_only_its_organiser_sees():
    register_tiny()
    host = organiser()
    draft = tournament_services.tournament_create(
        organiser=host, name="Draft", slug="draft", game="high_card", format="round_robin"
    )
    path = f"/live/tournaments/{draft.slug}/"
    secret = tokens.token_create(user=host, name="bot").secret

    async def hello(headers: dict[str, str]) -> tuple[int, str]:
        response = await AsyncClient().get(path, headers=headers)
        if response.status_code != 200:
            return response.status_code, ""
        stream = response.streaming_content.__aiter__()
        first = await asyncio.wait_for(stream.__anext__(), 5)
        await stream.aclose()
        return 200, first.decode() if isinstance(first, bytes) else first

    status, first = asyncio.run(hello({"Authorization": f"Bearer {secret}"}))
    assert status == 200 and "event: hello" in first
    assert asyncio.run(hello({}))[0] == 404
    other = tokens.token_create(user=user("bob"), name="bot").secret
    assert asyncio.run(hello({"Authorization": f"Bearer {other}"}))[0] == 404
    assert asyncio.run(hello({"Authorization": "Bearer ga_unknown"}))[0] == 401
