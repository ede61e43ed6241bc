"""Clients of the cluster: players that post over HTTP and fail over to the other web process
(with the same client action id), and spectators that follow a game's live stream."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from games import services
from games.models import GameEvent, GameSession
from games.services import SeatSpec
from tests.games.hosting_helpers import guest_tokens, register_tiny

OVER = {"finished", "aborted"}


@dataclass
class Game:
    id: int
    tokens: list[str]

    def seat(self, number: int) -> dict[str, str]:
        return {"Authorization": f"Seat {self.tokens[number]}"}


@dataclass
class Ack:
    """An action a web process acknowledged (200)."""

    game: int
    seat: int
    cid: str
    action: dict[str, Any]
    version: int
    web: str
    retried: bool  # it reached the process that answered after a failure elsewhere


@dataclass
class Record:
    """Everything the clients saw."""

    acks: list[Ack] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    transport_errors: int = 0
    unavailable: list[dict] = field(default_factory=list)  # the JSON bodies of 503s
    server_errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Organiser:
    """The organiser who creates the games and starts them through the cluster (only a game's
    creator, its tournament's organisers or a staff admin may start it)."""

    user: Any
    token: str  # a personal API token


def make_games(
    count: int, *, hand_size: int | list[int], applause: float, turn: float, created_by: Any
) -> list[Game]:
    """High Card games for two guests, each seat's token known, made by ``created_by``; not
    started yet."""
    register_tiny()
    sizes = itertools.cycle(hand_size if isinstance(hand_size, list) else [hand_size])
    games = []
    for _ in range(count):
        game = services.game_create(
            engine_key="high_card",
            seats=[SeatSpec(), SeatSpec()],
            config={"hand_size": next(sizes), "applause_seconds": applause},
            time_control={"allowances": {"turn": turn}, "reserve": 0},
            created_by=created_by,
        )
        games.append(Game(game.pk, guest_tokens(game, 2)))
    return games


def start_games(games: list[Game], urls: list[str], organiser: Organiser) -> None:
    """Start each game through a web process (alternating), so that the cluster, not this
    test process, publishes the start and arms its timers."""
    headers = {"Authorization": f"Bearer {organiser.token}"}
    with httpx.Client(timeout=10) as client:
        for game, url in zip(games, itertools.cycle(urls), strict=False):
            response = client.post(f"{url}/api/games/{game.id}/start", headers=headers)
            assert response.status_code == 200, response.text


async def send(
    client: httpx.AsyncClient,
    urls: list[str],
    record: Record,
    method: str,
    path: str,
    headers: dict[str, str],
    body: dict | None = None,
    attempts: int = 60,
) -> tuple[httpx.Response, str, bool] | None:
    """The request, sent again (identically) to the next web process whenever a process did
    not answer or answered that the database was unavailable: (response, web, retried)."""
    retried = False
    for attempt in range(attempts):
        url = urls[attempt % len(urls)]
        try:
            response = await client.request(method, url + path, headers=headers, json=body)
        except httpx.TransportError:
            record.transport_errors += 1
            retried = True
            await asyncio.sleep(0.1)
            continue
        record.statuses[response.status_code] += 1
        if response.status_code == 503:
            record.unavailable.append(response.json())  # it is JSON, or this raises
            retried = True
            await asyncio.sleep(0.1)
            continue
        if response.status_code >= 500:
            record.server_errors.append(f"{method} {path}: {response.status_code} {response.text}")
        return response, url, retried
    return None


async def play(
    client: httpx.AsyncClient, urls: list[str], game: Game, record: Record, pause: float
) -> None:
    """Both seats play whenever it is their turn, until the game is over."""
    while True:
        answer = await send(client, urls, record, "GET", f"/api/games/{game.id}/", game.seat(0))
        if answer is None:
            continue
        state = answer[0].json()
        if state.get("status") in OVER:
            return
        turn = state["view"]["turn"]
        legal = await send(
            client, urls, record, "GET", f"/api/games/{game.id}/legal", game.seat(turn)
        )
        actions = legal[0].json().get("actions", []) if legal else []
        if actions and not state["windows"]:
            await act(client, urls, game, turn, actions[0], record)
        await asyncio.sleep(pause)


async def act(
    client: httpx.AsyncClient,
    urls: list[str],
    game: Game,
    seat: int,
    action: dict,
    record: Record,
    cid: str | None = None,
) -> httpx.Response | None:
    cid = cid or uuid.uuid4().hex
    body = {"action": action, "client_action_id": cid}
    path = f"/api/games/{game.id}/actions"
    answer = await send(client, urls, record, "POST", path, game.seat(seat), body)
    if answer is None:
        return None
    response, url, retried = answer
    if response.status_code == 200:
        version = response.json()["version"]
        record.acks.append(Ack(game.id, seat, cid, action, version, url, retried))
    return response


@dataclass
class Watch:
    """What one spectator's stream delivered: (version, status, arrival time)."""

    game: int
    url: str
    seen: list[tuple[int, str, float]] = field(default_factory=list)
    resumed_at: int | None = None  # the Last-Event-ID it reconnected with, if it did

    @property
    def last(self) -> tuple[int, str, float] | None:
        return self.seen[-1] if self.seen else None

    @property
    def final(self) -> bool:
        return self.last is not None and self.last[1] in OVER


async def follow(client: httpx.AsyncClient, watch: Watch, last_event_id: int | None = None) -> None:
    """Read the game's stream until its final state (or until cancelled)."""
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    path = f"{watch.url}/live/games/{watch.game}/"
    async with client.stream("GET", path, headers=headers, timeout=None) as response:
        event: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line:
                key, _, value = line.partition(": ")
                event[key] = value
                continue
            if "id" in event and "data" in event:
                payload = json.loads(event["data"])
                watch.seen.append((int(event["id"]), payload["status"], time.monotonic()))
                if payload["status"] in OVER:
                    return
            event = {}


def log_of(game_id: int) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game_id=game_id).order_by("seq"))


def assert_acknowledged_in_the_log(record: Record) -> None:
    """Every acknowledged action is in the log at the version its answer gave, once."""
    for ack in record.acks:
        events = list(
            GameEvent.objects.filter(game_id=ack.game, seat=ack.seat, client_action_id=ack.cid)
        )
        assert len(events) == 1, (ack, events)
        assert events[0].seq == ack.version and events[0].action == ack.action, ack


def assert_no_server_errors(record: Record) -> None:
    assert record.server_errors == [], record.server_errors[:5]
    for body in record.unavailable:
        assert body["error"] == "unavailable", body


def assert_games_check(cluster) -> str:  # type: ignore[no-untyped-def]
    """``manage.py check_games`` as an operator runs it: every game replays from its seed to
    its stored state (and the rest it checks), 0 problems."""
    done = cluster.manage("check_games")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    assert summary.endswith(" games, 0 problems"), done.stdout
    return summary


def wait_until(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(0.1)
    return False


def all_over(games: list[Game]) -> bool:
    ids = [g.id for g in games]
    return not GameSession.objects.filter(pk__in=ids).exclude(status__in=OVER).exists()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class LagMeter:
    """How late this machine wakes a sleeping thread, while a scenario runs: other jobs on
    the same cores delay every process alike, the cluster's included. A bound on how late
    the service may be is checked with this much added (0 on an otherwise idle machine)."""

    def __init__(self, tick: float = 0.05) -> None:
        self.tick = tick
        self.worst = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LagMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            time.sleep(self.tick)
            self.worst = max(self.worst, time.monotonic() - started - self.tick)
