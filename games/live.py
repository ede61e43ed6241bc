"""``GET /live/games/<id>/``: Server-Sent Events, one message per committed version.

Each connection gets only its own seat's payload (spectators the public one), as rendered once
by the commit that made it: sending a version costs no database read. The event id is
the version, so a reconnecting browser's ``Last-Event-ID`` resumes without a repeat. Opening
and closing the stream marks the seat connected and disconnected (the grace before a
substitute starts then).

A stream never relies on having heard every publish (Redis may have been down, or this
process reconnecting): every few seconds each process reads the versions of the games its
streams watch in one query, at once after resubscribing to Redis, and a stream behind the
database reads the game again and sends it as it now is.

Open streams are capped per client and per session (``hosting.core.stream_caps``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import services, store
from games.access import seat_for
from games.models import GameSession, Seat
from games.payloads import audience_key, dumps, game_payload
from hosting.core import broadcast, stream_caps
from hosting.core.bearer import accepts_bearer

KEEPALIVE_SECONDS = 15
MAX_VERSION_DIGITS = 18
VERSION_CHECK_SECONDS = 3.0
log = logging.getLogger(__name__)
_checkers: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def _open(request: HttpRequest, game_id: int) -> tuple[GameSession | None, Seat | None]:
    game = services.fresh_game(game_id=game_id)
    if game is None:
        return None, None
    seat, _ = seat_for(request, game)
    return game, seat


def _current(game_id: int, number: int | None) -> tuple[broadcast.Update, bool]:
    """The game as it is now, rendered for one audience: where a stream starts; and whether
    it is still waiting for its start (which keeps version 0)."""
    game = store.game(game_id)
    seats = store.seats_of(game_id)
    seat = next((s for s in seats if s.number == number), None)
    text = dumps(game_payload(game, seat, services.now(), seats))
    update = broadcast.Update(game.version, game.is_over, {audience_key(number): text})
    return update, game.status == GameSession.Status.WAITING


async def _newest(updates: asyncio.Queue) -> broadcast.Update | broadcast.Nudge | None:
    """The next update, or the newest of a burst (streams send only the latest state); a
    ``Nudge`` when the database is ahead of every update in the burst; None when nothing came
    for a while, so the stream can keep its connection alive."""
    try:
        items = [await asyncio.wait_for(updates.get(), KEEPALIVE_SECONDS)]
    except TimeoutError:
        return None
    while not updates.empty():
        items.append(updates.get_nowait())
    newest = max(
        (item for item in items if isinstance(item, broadcast.Update)),
        key=lambda update: update.version,
        default=None,
    )
    nudged = max((item.version for item in items if isinstance(item, broadcast.Nudge)), default=-1)
    if newest is not None and newest.version >= nudged:
        return newest
    return broadcast.Nudge(nudged)


async def _caught_up(
    game_id: int, number: int | None, sent: int, version: int
) -> broadcast.Update | None:
    """The game as it now is, if the database's ``version`` is ahead of what was ``sent``."""
    if version <= sent:
        return None
    update, waiting = await sync_to_async(_current)(game_id, number)
    return None if waiting else update


def _versions(game_ids: list[int]) -> list[tuple[int, int]]:
    """Each game's version; -1 while it waits for its start (which keeps version 0, and
    which a stream that sent the waiting game, with no event id, has not had yet)."""
    waiting = GameSession.Status.WAITING
    try:
        rows = GameSession.objects.filter(pk__in=game_ids).values_list("pk", "version", "status")
        return [(pk, -1 if status == waiting else version) for pk, version, status in rows]
    finally:
        close_old_connections()  # as at the end of a request: a broken connection is replaced


async def _check_versions() -> None:
    """Every ``VERSION_CHECK_SECONDS``, and at once after Redis comes back, nudge each stream
    of this process with its game's version in the database."""
    resubscribed = broadcast.resubscribed()
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(resubscribed.wait(), VERSION_CHECK_SECONDS)
        resubscribed.clear()
        games = [key for key in broadcast.hub.watched_keys() if isinstance(key, int)]
        if not games:
            continue
        try:
            versions = await sync_to_async(_versions)(games)
        except Exception:  # the database is down: streams wait for it, as every page does
            log.warning("live streams: game versions not checked", exc_info=True)
            continue
        for game_id, version in versions:
            broadcast.hub.deliver(game_id, broadcast.Nudge(version))


def _ensure_checker() -> None:
    loop = asyncio.get_running_loop()
    task = _checkers.get(loop)
    if task is None or task.done():
        _checkers[loop] = loop.create_task(_check_versions())


def _message(version: int | None, text: str) -> str:
    event_id = "" if version is None else f"id: {version}\n"
    return f"{event_id}event: state\ndata: {text}\n\n"


def _resume_from(request: HttpRequest) -> int | None:
    """The version a reconnecting stream already has (-1: none), or None if the header is not
    one of our event ids (a version, at most 18 ASCII digits)."""
    last_seen = request.headers.get("Last-Event-ID", "").strip()
    if not last_seen:
        return -1
    if len(last_seen) > MAX_VERSION_DIGITS or not (last_seen.isascii() and last_seen.isdigit()):
        return None
    return int(last_seen)


@csrf_exempt  # it only reads; any other method is refused as a 405 below
@accepts_bearer
async def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        detail = _("%(method)s is not allowed: a live stream is read with GET") % {
            "method": request.method
        }
        response = JsonResponse({"error": "method_not_allowed", "detail": detail}, status=405)
        response["Allow"] = "GET, HEAD"
        return response
    resume_from = _resume_from(request)
    if resume_from is None:
        detail = _("Last-Event-ID must be the id of an event this stream sent (a version number)")
        return JsonResponse({"error": "invalid", "detail": detail}, status=400)
    game, seat = await sync_to_async(_open)(request, game_id)
    if game is None:
        return JsonResponse(
            {"error": "not_found", "detail": _("no game %(id)s") % {"id": game_id}}, status=404
        )
    lease = await stream_caps.acquire(request)
    if lease is None:
        return stream_caps.too_many()
    number = seat.number if seat is not None else None
    audience = audience_key(number)

    async def events() -> AsyncIterator[str]:
        sent = resume_from
        updates = await broadcast.subscribe(game_id)  # before reading: no commit falls between
        if settings.REDIS_URL:  # in process, every commit reaches every stream
            _ensure_checker()
        if number is not None:
            await sync_to_async(services.mark_connected)(game_id=game_id, seat=number)
        loop = asyncio.get_running_loop()
        try:
            yield "retry: 2000\n\n"
            written = loop.time()
            update, waiting = await sync_to_async(_current)(game_id, number)
            if waiting:  # no event id: the start, still version 0, must follow it
                yield _message(None, update.parts[audience])
                written = loop.time()
                update = None
            while True:
                if update is None:
                    if loop.time() - written >= KEEPALIVE_SECONDS:
                        yield ": keep-alive\n\n"
                        written = loop.time()
                elif audience not in update.parts:
                    return  # the seat is no longer this person's: they left
                elif update.version > sent:
                    sent = update.version
                    yield _message(update.version, update.parts[audience])
                    written = loop.time()
                if update is not None and update.final:
                    return
                update = await _newest(updates)
                if isinstance(update, broadcast.Nudge):
                    update = await _caught_up(game_id, number, sent, update.version)
        finally:
            broadcast.unsubscribe(game_id, updates)
            if number is not None:
                await sync_to_async(services.mark_disconnected)(game_id=game_id, seat=number)

    response = StreamingHttpResponse(
        stream_caps.held(lease, events()), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
