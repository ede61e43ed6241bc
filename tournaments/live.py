"""``GET /live/tournaments/<slug>/``: Server-Sent Events saying "this tournament changed".

Whenever a match, an entrant, an episode, a ledger entry or the tournament itself is saved,
the commit publishes a new version on ``tournaments:<id>`` through ``hosting.core.broadcast`` (the
games' mechanism: Redis pub/sub between processes, in process without Redis). A message holds
only that version, never a name or a result: each page then fetches its board from
``/tournaments/<slug>/board`` with its own permissions, so the stream can leak nothing.

The same version names the board's rendering in the cache (``views.public.board_html``): every
spectator refetching after a result shares one rendering. It is bumped at each save (so a
process reading its own uncommitted writes never reuses an older board) and again after the
commit (so nothing rendered before the commit outlives it).

Open streams are capped per client and per session (``hosting.core.stream_caps``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from hosting.core import broadcast, stream_caps
from hosting.core.bearer import accepts_bearer
from hosting.core.errors import NotFound
from tournaments import selectors
from tournaments.models import Entrant, Episode, LedgerEntry, Match, Stage, Tournament

log = logging.getLogger(__name__)
KEEPALIVE_SECONDS = 15
PREFIX = "tournaments:"


def topic(tournament_id: int) -> str:
    return f"{PREFIX}{tournament_id}"


def version_key(tournament_id: int) -> str:
    return f"{PREFIX}version:{tournament_id}"


def bump(tournament_id: int) -> int:
    """A new version of the tournament's board (microseconds, so later is larger)."""
    version = time.time_ns() // 1000
    try:
        cache.set(version_key(tournament_id), version, timeout=None)
    except (redis.RedisError, OSError):
        log.warning("tournament %s: board version not stored, Redis is unreachable", tournament_id)
    return version


def current_version(tournament_id: int) -> int | None:
    """The board's version now (one is made if the cache has none); None without a cache."""
    try:
        cache.add(version_key(tournament_id), time.time_ns() // 1000, timeout=None)
        return cache.get(version_key(tournament_id))
    except (redis.RedisError, OSError):
        return None


def publish(tournament_id: int) -> None:
    """Tell every open board that the tournament changed (the results are already saved:
    should Redis be down, boards catch up at the next change or when they reconnect)."""
    version = bump(tournament_id)
    update = broadcast.Update(version=version, final=False, parts={"all": str(version)})
    try:
        broadcast.publish_topic(topic(tournament_id), update)
    except (redis.RedisError, OSError):
        log.warning("tournament %s: live update not sent, Redis is unreachable", tournament_id)


def _tournament_id(instance: Any) -> int | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Match):
        # The services save matches they read through their stage: no query in the usual case.
        stage = Match._meta.get_field("stage").get_cached_value(instance, None)
        if stage is not None:
            return stage.tournament_id
        return Stage.objects.values_list("tournament_id", flat=True).get(pk=instance.stage_id)
    return instance.tournament_id


def _saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if getattr(instance, "private", False):
        return  # a private transfer changes nothing anyone else sees: no "changed" to time
    tournament_id = _tournament_id(instance)
    if tournament_id is not None:
        bump(tournament_id)
        transaction.on_commit(lambda: publish(tournament_id))


def connect() -> None:
    for model in (Tournament, Entrant, Match, Episode, LedgerEntry):
        post_save.connect(_saved, sender=model, dispatch_uid=f"tournaments.live.{model.__name__}")


def _visible(request: HttpRequest, slug: str) -> int:
    return selectors.visible_tournament(slug, request.user).pk


async def _newest(updates: asyncio.Queue) -> broadcast.Update | None:
    """The next update, or the newest of a burst; None after a quiet while (keep-alive)."""
    try:
        update = await asyncio.wait_for(updates.get(), KEEPALIVE_SECONDS)
    except TimeoutError:
        return None
    while not updates.empty():
        update = updates.get_nowait()
    return update


@accepts_bearer
async def tournament_stream(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        tournament_id = await sync_to_async(_visible)(request, slug)
    except NotFound:
        return JsonResponse(
            {"error": "not_found", "detail": _("no tournament %(slug)r") % {"slug": slug}},
            status=404,
        )
    lease = await stream_caps.acquire(request)
    if lease is None:
        return stream_caps.too_many()

    async def events() -> AsyncIterator[str]:
        updates = await broadcast.subscribe_topic(topic(tournament_id))
        try:
            # The first message lets a reconnecting page fetch what it missed meanwhile.
            yield f"retry: 2000\n\nevent: hello\ndata: {time.time_ns() // 1000}\n\n"
            while True:
                update = await _newest(updates)
                if update is None:
                    yield ": keep-alive\n\n"
                else:
                    yield f"id: {update.version}\nevent: changed\ndata: {update.version}\n\n"
        finally:
            broadcast.unsubscribe(topic(tournament_id), updates)

    response = StreamingHttpResponse(
        stream_caps.held(lease, events()), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
