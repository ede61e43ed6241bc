"""Issue 30, finding 5: open live streams are capped per client address and per session (a
429 with ``Retry-After`` past the cap), counted in Redis across processes or in process
without it, and given back when a stream ends or its lease runs out (its process died)."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest
from django.test import Client, RequestFactory, override_settings

from games import services
from games.services import SeatSpec
from hosting.core import stream_caps, tokens
from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import open_tournament, user

CAPS = {"LIVE_STREAMS_PER_CLIENT": 4, "LIVE_STREAMS_PER_SESSION": 2}


def _game_path() -> str:
    register_tiny()
    game = services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])
    return f"/live/games/{game.pk}/"


async def _open(stack: contextlib.AsyncExitStack, client: httpx.AsyncClient, path: str, **kw):
    """A stream opened and left open (closed when ``stack`` closes): its response."""
    response = await stack.enter_async_context(client.stream("GET", path, **kw))
    if response.status_code == 200:
        # The stream has begun. (The iterator is kept: collected, it would close the stream.)
        response.reading = response.aiter_text()
        await response.reading.__anext__()
    else:
        await response.aread()
    return response


def _refused(response) -> bool:
    assert response.status_code == 429, response.status_code
    assert response.json()["error"] == "throttled" and "live streams" in response.json()["detail"]
    assert int(response.headers["Retry-After"]) >= 1
    return True


@override_settings(**CAPS)
def test_one_address_gets_a_429_past_its_cap_and_a_slot_back_when_a_stream_ends(asgi_server):
    """300 streams from one address were all accepted; now the fifth (of games and
    tournaments alike) is refused until one of the four closes."""
    game = _game_path()
    tournament, _ = open_tournament("single_elimination", 2)
    board = f"/live/tournaments/{tournament.slug}/"

    async def scenario() -> None:
        limits = httpx.Limits(max_connections=20)
        client = httpx.AsyncClient(base_url=asgi_server, timeout=10, limits=limits)
        async with client, contextlib.AsyncExitStack() as stack:
            opened = [await _open(stack, client, path) for path in (game, game, board, game)]
            assert [r.status_code for r in opened] == [200] * 4
            assert _refused(await _open(stack, client, game))
            assert _refused(await _open(stack, client, board))
            # One of the four ends: its slot is given back at once.
            await opened[0].aclose()
            for _ in range(50):
                async with contextlib.AsyncExitStack() as again:
                    if (await _open(again, client, game)).status_code == 200:
                        return
                await asyncio.sleep(0.1)
            raise AssertionError("the closed stream's slot was not given back")

    asyncio.run(scenario())


@override_settings(**CAPS)
@pytest.mark.parametrize("credential", ["session", "token"])
def test_one_session_gets_a_429_past_its_cap_below_the_address_cap(asgi_server, credential):
    game = _game_path()
    ann = user("ann")
    if credential == "token":
        secret = tokens.token_create(user=ann, name="many tabs").secret
        headers = {"Authorization": f"Bearer {secret}"}
    else:
        browser = Client()
        browser.force_login(ann)
        headers = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}

    async def scenario() -> None:
        client = httpx.AsyncClient(base_url=asgi_server, timeout=10)
        async with client, contextlib.AsyncExitStack() as stack:
            mine = [await _open(stack, client, game, headers=headers) for _ in range(2)]
            assert [r.status_code for r in mine] == [200, 200]
            assert _refused(await _open(stack, client, game, headers=headers))
            # The same address without that session still has room.
            assert (await _open(stack, client, game)).status_code == 200

    asyncio.run(scenario())


# -- leases: given back, or run out when their process died ------------------------------------


def _request(address: str):
    return RequestFactory().get("/live/games/1/", REMOTE_ADDR=address)


@pytest.mark.parametrize("backend", ["redis", "in process"])
def test_a_dead_streams_lease_runs_out(backend, redis_url, monkeypatch, settings):
    settings.REDIS_URL = redis_url if backend == "redis" else ""
    settings.LIVE_STREAMS_PER_CLIENT = 2
    monkeypatch.setattr(stream_caps, "LEASE_SECONDS", 1.0)
    address = f"192.0.2.{1 if backend == 'redis' else 2}"

    async def scenario() -> None:
        leases = [await stream_caps.acquire(_request(address)) for _ in range(3)]
        assert leases[0] is not None and leases[1] is not None and leases[2] is None
        await stream_caps.release(leases[0])  # a stream that ended
        replacement = await stream_caps.acquire(_request(address))
        assert replacement is not None
        assert await stream_caps.acquire(_request(address)) is None
        # Both holders die without giving their leases back: after the lease, room again.
        await asyncio.sleep(1.2)
        assert await stream_caps.acquire(_request(address)) is not None

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["redis", "in process"])
def test_an_open_stream_renews_its_lease_and_gives_it_back_at_its_end(
    backend, redis_url, monkeypatch, settings
):
    settings.REDIS_URL = redis_url if backend == "redis" else ""
    settings.LIVE_STREAMS_PER_CLIENT = 1
    monkeypatch.setattr(stream_caps, "LEASE_SECONDS", 1.0)
    monkeypatch.setattr(stream_caps, "RENEW_SECONDS", 0.2)
    address = f"192.0.2.{3 if backend == 'redis' else 4}"

    async def keep_alives():
        for _ in range(8):
            yield ": keep-alive\n\n"
            await asyncio.sleep(0.25)

    async def scenario() -> None:
        lease = await stream_caps.acquire(_request(address))
        written = 0
        async for _ in stream_caps.held(lease, keep_alives()):
            written += 1
            # Two seconds in all, twice the lease: still held throughout.
            assert await stream_caps.acquire(_request(address)) is None
        assert written == 8
        assert await stream_caps.acquire(_request(address)) is not None

    asyncio.run(scenario())
