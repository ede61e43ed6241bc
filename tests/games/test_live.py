"""Server-Sent Events: each connection gets its own seat's view after every commit."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from games import services
from games.models import GameSession, Seat
from games.services import SeatSpec
from tests.games.hosting_helpers import guest_tokens, register_tiny, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def started_game():
    register_tiny()
    game = services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])
    tokens = guest_tokens(game, 2)
    services.game_start(game_id=game.pk, by=None)
    return game.pk, tokens


async def next_message(stream) -> dict:
    while True:
        chunk = await asyncio.wait_for(stream.__anext__(), 5)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: "):
            lines = dict(line.split(": ", 1) for line in text.strip().splitlines())
            payload = json.loads(lines["data"])
            assert int(lines["id"]) == payload["version"]
            return payload


def test_each_seat_and_spectator_receive_only_their_own_view():
    game_id, tokens = started_game()
    engine = register_tiny()

    async def scenario():
        client = AsyncClient()
        streams = []
        for headers in (
            {"Authorization": f"Seat {tokens[0]}"},
            {"Authorization": f"Seat {tokens[1]}"},
            {},
        ):
            response = await client.get(f"/live/games/{game_id}/", headers=headers)
            assert response["Content-Type"] == "text/event-stream"
            streams.append(response.streaming_content.__aiter__())
        first = [await next_message(s) for s in streams]
        assert [p["seat"] for p in first] == [0, 1, None]
        game = await sync_to_async(GameSession.objects.get)(pk=game_id)
        card = game.state["hands"][0][0]
        await sync_to_async(services.act)(
            game_id=game_id, seat=0, action={"type": "play", "card": card}
        )
        second = [await next_message(s) for s in streams]
        game = await sync_to_async(GameSession.objects.get)(pk=game_id)
        for seat, payload in zip([0, 1, None], second, strict=True):
            assert payload["version"] == 1
            assert payload["view"] == engine.view(game.state, seat)
        assert "hand" not in second[2]["view"]
        for stream in streams:
            await stream.aclose()

    asyncio.run(scenario())


def test_last_event_id_resumes_without_repeating():
    game_id, tokens = started_game()

    async def scenario():
        client = AsyncClient()
        headers = {"Authorization": f"Seat {tokens[1]}", "Last-Event-ID": "0"}
        response = await client.get(f"/live/games/{game_id}/", headers=headers)
        stream = response.streaming_content.__aiter__()
        game = await sync_to_async(GameSession.objects.get)(pk=game_id)
        card = game.state["hands"][0][0]
        await sync_to_async(services.act)(
            game_id=game_id, seat=0, action={"type": "play", "card": card}
        )
        payload = await next_message(stream)
        assert payload["version"] == 1  # version 0 was already seen, so it is not sent again
        await stream.aclose()

    asyncio.run(scenario())


def test_a_stream_opened_before_the_start_receives_the_start():
    """The start deals the cards but keeps version 0: the waiting state goes out without an
    event id, so the start (id 0) still follows it."""
    register_tiny()
    game = services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])
    tokens = guest_tokens(game, 2)

    async def scenario():
        client = AsyncClient()
        headers = {"Authorization": f"Seat {tokens[0]}"}
        response = await client.get(f"/live/games/{game.pk}/", headers=headers)
        stream = response.streaming_content.__aiter__()
        waiting = await next_chunk(stream)
        assert "id: " not in waiting and '"status":"waiting"' in waiting
        await sync_to_async(services.game_start)(game_id=game.pk, by=None)
        started = await next_message(stream)
        assert (started["status"], started["version"]) == ("running", 0)
        assert "hand" in started["view"]
        await stream.aclose()

    asyncio.run(scenario())


async def next_chunk(stream) -> str:
    while True:
        chunk = await asyncio.wait_for(stream.__anext__(), 5)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if "data: " in text:
            return text


def test_an_unknown_game_is_a_404(client):
    assert client.get("/live/games/999999/").status_code == 404


def test_opening_and_closing_a_stream_marks_the_seat_connected_then_away(asgi_server):
    import httpx

    game_id, tokens = started_game()
    seat = Seat.objects.filter(game_id=game_id, number=1)
    headers = {"Authorization": f"Seat {tokens[1]}"}
    with httpx.stream("GET", f"{asgi_server}/live/games/{game_id}/", headers=headers) as stream:
        lines = stream.iter_lines()
        assert next(line for line in lines if line.startswith("id: ")) == "id: 0"
        assert seat.get().connected
    assert wait_for(lambda: not seat.get().connected)
    assert seat.get().disconnected_at is not None
