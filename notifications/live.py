"""``GET /live/notifications/``: Server-Sent Events of the signed-in person's notices.

Each message is what ``services.publish`` sent on ``notifications:<user id>``: the unread
count and the newest notice's sentence, already in the reader's language and zone. Only the
person's own topic is ever subscribed, so the stream carries nothing of anyone else.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from hosting.core import broadcast, stream_caps
from notifications import services

KEEPALIVE_SECONDS = 15


def _user_id(request: HttpRequest) -> int | None:
    user = request.user
    return user.pk if user.is_authenticated else None


async def notice_stream(request: HttpRequest) -> HttpResponse:
    user_id = await sync_to_async(_user_id)(request)
    if user_id is None:
        return JsonResponse(
            {"error": "not_authenticated", "detail": _("sign in to follow your notices")},
            status=403,
        )
    lease = await stream_caps.acquire(request)
    if lease is None:
        return stream_caps.too_many()
    topic = services.topic(user_id)

    async def events() -> AsyncIterator[str]:
        updates = await broadcast.subscribe_topic(topic)
        try:
            # What the page may have missed between its rendering and this stream.
            first = await sync_to_async(services._live_message)(user_id)
            yield f"retry: 2000\n\nevent: notices\ndata: {first}\n\n"
            while True:
                try:
                    update = await asyncio.wait_for(updates.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                data = update.parts.get("all")
                if data is None or not data.startswith("{"):  # a resubscribe: say it again
                    data = await sync_to_async(services._live_message)(user_id)
                yield f"id: {update.version or time.time_ns()}\nevent: notices\ndata: {data}\n\n"
        finally:
            broadcast.unsubscribe(topic, updates)

    response = StreamingHttpResponse(
        stream_caps.held(lease, events()), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
