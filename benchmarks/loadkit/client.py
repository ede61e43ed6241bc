"""The HTTP + SSE client machinery every simulated player uses."""

from __future__ import annotations

import http.cookiejar
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx

from loadkit.run import Stats


async def send(
    client: httpx.AsyncClient, stats: Stats, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """One request, sent again once if the connection failed under it (a kept-alive connection
    the server closed meanwhile): actions carry a client action id, so a repeat is safe."""
    stats.requests += 1
    try:
        return await client.request(method, url, **kwargs)
    except httpx.TransportError:
        stats.transport_errors += 1
        return await client.request(method, url, **kwargs)


def csrf(organiser: httpx.AsyncClient) -> dict[str, str]:
    return {"X-CSRFToken": organiser.cookies["csrftoken"]}


def new_client(url: str, *, cookies: bool) -> httpx.AsyncClient:
    client = httpx.AsyncClient(
        base_url=url,
        verify=False,  # plain HTTP on 127.0.0.1: skip loading the CA bundle for every client
        timeout=httpx.Timeout(30.0),
        # uvicorn closes a connection idle for 5 s (its default), httpx's own expiry is also
        # 5 s: a request sent on one at that moment is lost ("Server disconnected without
        # sending a response"), which a browser retries and httpx does not. Expire first.
        limits=httpx.Limits(
            max_connections=None, max_keepalive_connections=None, keepalive_expiry=4.0
        ),
    )
    if not cookies:
        # Bots authenticate by seat token; refusing cookies makes every claim a distinct guest.
        client.cookies.jar.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return client


async def sse_payloads(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    data: list[str] = []
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data.append(line[5:].strip())
        elif not line and data:
            yield json.loads("\n".join(data))
            data = []
