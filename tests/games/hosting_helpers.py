"""Builders for hosted-game tests: a registered test engine, a fake server clock, API players."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from celery.contrib.testing.worker import start_worker
from django import db
from rest_framework.test import APIClient

from games import engines, invites
from games.engines.base import Engine
from games.models import GameSession
from hosting.celery import app
from hosting.core.roles import ORGANISER, grant
from tests.games.engines import tiny


class FakeClock:
    """The server clock, moved by hand."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def register_tiny() -> Engine:
    return engines.register(tiny.ENGINE)


def organiser_client(django_user_model, username: str = "org") -> APIClient:
    user = django_user_model.objects.create_user(username, password="pw-organiser-123")
    grant(user, ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return client


@dataclass
class Player:
    client: APIClient
    seat: int
    token: str

    def act(self, game_id: int, action: dict, **extra):
        return self.client.post(
            f"/api/games/{game_id}/actions", {"action": action, **extra}, format="json"
        )

    def state(self, game_id: int) -> dict:
        return self.client.get(f"/api/games/{game_id}/").json()

    def legal(self, game_id: int) -> list[dict]:
        return self.client.get(f"/api/games/{game_id}/legal").json()["actions"]


def invite(game_id: int) -> str:
    """The game's invite, as its creator was shown it."""
    return invites.invite_for(GameSession.objects.get(pk=game_id))


def claim(game_id: int, seat: int, client: APIClient | None = None, **body) -> Player:
    client = client or APIClient()
    body.setdefault("invite", invite(game_id))
    response = client.post(f"/api/games/{game_id}/seats/{seat}/claim", body, format="json")
    assert response.status_code == 201, response.content
    return Player(client=client, seat=seat, token=response.json()["token"])


def guest_tokens(game: GameSession, seats: int) -> list[str]:
    """Seat tokens of guests ``P0``, ``P1``, ... who claimed every seat through the service."""
    from games import services
    from hosting.core.identity import Guest

    return [
        services.seat_claim(
            game_id=game.pk,
            number=n,
            guest=Guest(id=f"g{n}", name=f"P{n}"),
            invite=invites.invite_for(game),
        ).token
        for n in range(seats)
    ]


def bot_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Seat {token}")
    return client


def create_game(organiser: APIClient, engine: str, seats: int, **body) -> int:
    response = organiser.post(
        "/api/games/",
        {"engine": engine, "seats": [{"kind": "human"}] * seats, **body},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()["game"]


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass (for workers and servers)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


_worker_closed = threading.Event()


@app.task(name="tests.close_worker_connections")
def _close_worker_connections() -> None:
    db.connections.close_all()
    _worker_closed.set()


@contextmanager
def celery_worker(queue: str) -> Iterator[None]:
    """A real Celery worker on Redis, in a thread of the test process. Workers keep their
    database sessions between tasks, so it closes its own before it stops: the test
    database can then be dropped."""
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        yield
        _worker_closed.clear()
        _close_worker_connections.delay()
        assert _worker_closed.wait(10), "the worker did not close its database sessions"
