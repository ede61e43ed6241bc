"""``GET /live/games/<id>/``: Server-Sent Events, one message per committed version.

Each connection gets only its own seat's payload (spectators the public one). The event id is
the version, so a reconnecting browser's ``Last-Event-ID`` resumes without a repeat. Opening
and closing the stream marks the seat connected and disconnected (the grace before a
substitute starts then).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse

from games import services
from games.access import seat_for
from games.models import GameSession, Seat
from games.payloads import game_payload
from hosting import broadcast

KEEPALIVE_SECONDS = 15


def _open(request: HttpRequest, game_id: int) -> tuple[GameSession | None, Seat | None]:
    game = services.fresh_game(game_id=game_id)
    if game is None:
        return None, None
    seat, _ = seat_for(request, game)
    return game, seat


def _payload(game_id: int, seat_number: int | None) -> dict:
    # Sent once per version to every connection: the seats are read once, for both uses.
    game = GameSession.objects.prefetch_related("seats").get(pk=game_id)
    seat = next((s for s in game.seats.all() if s.number == seat_number), None)
    return game_payload(game, seat, services.now())


def _message(payload: dict) -> str:
    return f"id: {payload['version']}\nevent: state\ndata: {json.dumps(payload)}\n\n"


async def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = await sync_to_async(_open)(request, game_id)
    if game is None:
        return JsonResponse({"error": "not_found", "detail": f"no game {game_id}"}, status=404)
    number = seat.number if seat is not None else None
    last_seen = request.headers.get("Last-Event-ID", "")
    resume_from = int(last_seen) if last_seen.isdigit() else -1

    async def events() -> AsyncIterator[str]:
        sent = resume_from
        versions = await broadcast.subscribe(game_id)
        if number is not None:
            await sync_to_async(services.mark_connected)(game_id=game_id, seat=number)
        try:
            yield "retry: 2000\n\n"
            while True:
                payload = await sync_to_async(_payload)(game_id, number)
                if payload["version"] > sent:
                    sent = payload["version"]
                    yield _message(payload)
                if payload["status"] in {"finished", "aborted"}:
                    return
                try:
                    await asyncio.wait_for(versions.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                while not versions.empty():  # a burst of commits is sent as its newest state
                    versions.get_nowait()
        finally:
            broadcast.unsubscribe(game_id, versions)
            if number is not None:
                await sync_to_async(services.mark_disconnected)(game_id=game_id, seat=number)

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
