"""The tournament stream says "changed" after each committed result, and nothing more."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from tests.tournaments.builders import report_top_seed_wins, started, user
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


async def next_event(stream) -> dict[str, str]:
    while True:
        chunk = await asyncio.wait_for(stream.__anext__(), 5)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "event" in fields:
                return fields


def test_a_result_lands_on_every_open_board():
    tournament, stage, _ = started("single_elimination", 4)

    async def scenario():
        response = await AsyncClient().get(f"/live/tournaments/{tournament.slug}/")
        assert response["Content-Type"] == "text/event-stream"
        stream = response.streaming_content.__aiter__()
        assert (await next_event(stream))["event"] == "hello"
        await sync_to_async(report_top_seed_wins)(stage, "W1.1")
        changed = await next_event(stream)
        assert changed["event"] == "changed" and changed["data"] == changed["id"]
        assert changed["data"].isdigit()  # a version, never a name or a result
        await stream.aclose()

    asyncio.run(scenario())


def test_a_draft_has_no_public_stream():
    host = user("host", "organiser")
    services.tournament_create(
        organiser=host, name="Draft", slug="draft", game="drafting_trios", format="swiss"
    )

    async def scenario():
        response = await AsyncClient().get("/live/tournaments/draft/")
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"

    asyncio.run(scenario())
