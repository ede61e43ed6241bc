"""The bots: an organiser who creates and starts games, and one bot per seat that follows its
SSE stream and posts a random legal action whenever its clock runs."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from loadkit.client import csrf, new_client, send, sse_payloads
from loadkit.run import LIVE, ORGANISER, Run

# Per-engine settings for the games the bots play; engines not listed use their defaults.
# High Card's one-second applause window would cap every game at one action a second, which
# measures the rules' pacing rather than the server: a quarter second still makes every
# second action wait for a server timer.
ENGINE_CONFIG: dict[str, dict[str, Any]] = {
    "high_card": {"hand_size": 5, "applause_seconds": 0.25},
}


async def log_in(organiser: httpx.AsyncClient, password: str) -> None:
    """A session login (not Basic auth, which would hash the password on every request)."""
    await organiser.get("/accounts/login/")
    form = {
        "username": ORGANISER,
        "password": password,
        "csrfmiddlewaretoken": organiser.cookies["csrftoken"],
    }
    response = await organiser.post("/accounts/login/", data=form)
    if "sessionid" not in organiser.cookies:
        raise SystemExit(f"the organiser could not log in ({response.status_code})")


async def stall_time_control(run: Run, allowance: float) -> dict[str, Any]:
    """Every phase of the engine at ``allowance`` seconds with no reserve, if the engine accepts
    that; otherwise its default allowances with no reserve (e.g. a 30 s minimum turn)."""
    probe = await create_game(run, run.organiser, {})
    phases = probe["time_control"]["allowances"]
    wanted = {"allowances": dict.fromkeys(phases, allowance), "reserve": 0}
    spec = game_spec(run.engine, run.seats, wanted)
    response = await send(
        run.organiser, run.stats, "POST", "/api/games/", json=spec, headers=csrf(run.organiser)
    )
    if response.status_code == 201:
        return wanted
    print(f"  {run.engine} refuses {allowance} s allowances ({response.json().get('detail')});")
    print("  stalled games use its default allowances with no reserve")
    return {"reserve": 0}


def game_spec(engine: str, seats: int, time_control: dict[str, Any]) -> dict[str, Any]:
    return {
        "engine": engine,
        "config": ENGINE_CONFIG.get(engine, {}),
        "time_control": time_control,
        "seats": [{"kind": "human"} for _ in range(seats)],
    }


async def create_game(
    run: Run, organiser: httpx.AsyncClient, time_control: dict[str, Any]
) -> dict[str, Any]:
    spec = game_spec(run.engine, run.seats, time_control)
    response = await send(
        organiser, run.stats, "POST", "/api/games/", json=spec, headers=csrf(organiser)
    )
    if response.status_code != 201:
        raise SystemExit(f"creating a {run.engine} game failed: {response.text[:300]}")
    return response.json()


@dataclass
class Bot:
    run: Run
    client: httpx.AsyncClient  # its own: one shared pool costs O(connections) per request
    game: int
    seat: int
    token: str  # set once the seat is claimed
    stalled_seat: int | None  # the seat of this game that never acts, so its clock runs out
    latest: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    counter: Iterator[int] = field(default_factory=itertools.count)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Seat {self.token}"}

    @property
    def observes(self) -> bool:
        """One bot per game reads the deadline pending at each version."""
        return self.seat == 0

    async def follow(self) -> None:
        """Read the seat's stream until the game ends. Decisions run in their own task so that
        arrivals are timed even while this seat's action is in flight."""
        decide = asyncio.create_task(self.decide())
        try:
            while self.latest.get("status", "waiting") in LIVE:
                try:
                    await self.read_stream()
                except httpx.TransportError:
                    self.run.stats.stream_drops += 1  # reconnect, resuming after the last seen
        finally:
            decide.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await decide

    async def read_stream(self) -> None:
        headers = dict(self.headers)
        if self.latest:
            headers["Last-Event-ID"] = str(self.latest["version"])
        timeout = httpx.Timeout(30.0, read=None)
        url = f"/live/games/{self.game}/"
        async with self.client.stream("GET", url, headers=headers, timeout=timeout) as response:
            async for payload in sse_payloads(response):
                self.arrived(payload)
                if payload["status"] not in LIVE:
                    return

    def arrived(self, payload: dict[str, Any]) -> None:
        moment, version = time.perf_counter(), payload["version"]
        self.run.stats.arrivals[self.game][self.seat].append((version, moment, time.time()))
        self.latest = payload
        self.changed.set()
        if self.observes and payload["status"] == "running" and self.timer_pending(payload):
            task = asyncio.create_task(self.record_deadline(version))
            self.run.background.add(task)
            task.add_done_callback(self.run.background.discard)

    def timer_pending(self, payload: dict[str, Any]) -> bool:
        """A window is open, or only the stalled seat's clock runs: a server timer is next."""
        running = {seat for seat, clock in payload["clocks"].items() if clock["running"]}
        stalled = {str(self.stalled_seat)} if self.stalled_seat is not None else set()
        return bool(payload["windows"]) or (bool(running) and running <= stalled)

    async def record_deadline(self, version: int) -> None:
        async with self.run.db_lock:
            if self.run.stopping:
                return
            cursor = await self.run.db.execute(
                "SELECT version, next_deadline FROM games_gamesession WHERE id = %s", (self.game,)
            )
            row = await cursor.fetchone()
        # Only while still pending: a deadline read after its timer fired belongs to a later
        # version, and dropping those samples can only hide timers that were on time.
        if row and row[0] == version and row[1] is not None:
            self.run.stats.deadlines[(self.game, version)] = row[1].timestamp()

    async def decide(self) -> None:
        while True:
            await self.changed.wait()
            self.changed.clear()
            if self.latest.get("status") not in LIVE:
                return
            if self.latest["status"] == "waiting":
                continue
            mine = self.latest["clocks"].get(str(self.seat), {})
            if self.seat == self.stalled_seat or self.run.stopping or not mine.get("running"):
                continue
            await self.act()

    async def act(self) -> None:
        stats = self.run.stats
        if self.run.think:
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.run.think)
        choices = await self.choices()
        if choices is None:
            return
        if not choices["actions"]:
            return  # e.g. a window opened meanwhile; the next version says what to do
        body = {
            "action": random.choice(choices["actions"]),
            "client_action_id": f"b{self.game}-{self.seat}-{next(self.counter)}",
            "expected_version": choices["version"],
        }
        url = f"/api/games/{self.game}/actions"
        started = time.perf_counter()
        response = await send(self.client, stats, "POST", url, json=body, headers=self.headers)
        done = time.perf_counter()
        if not self.run.measuring(started):
            return
        if response.status_code == 200:
            stats.action_ms.append((done - started) * 1000)
            stats.accepted.append((self.game, self.seat, response.json()["version"], done))
        elif response.status_code == 409:
            stats.stale += 1  # a timer or another seat moved the game first: normal
        elif response.status_code < 500:
            stats.refused += 1
        else:
            stats.errors += 1

    async def choices(self) -> dict[str, Any] | None:
        """The seat's legal actions: from its latest SSE payload when the server sends them
        there, else from ``GET /legal``."""
        if "legal" in self.latest:
            return {"actions": self.latest["legal"], "version": self.latest["version"]}
        stats = self.run.stats
        started = time.perf_counter()
        url = f"/api/games/{self.game}/legal"
        legal = await send(self.client, stats, "GET", url, headers=self.headers)
        if self.run.measuring(started):
            stats.legal_ms.append((time.perf_counter() - started) * 1000)
        if legal.status_code != 200:
            stats.errors += 1
            return None
        return legal.json()


async def keep_game_running(run: Run, slot: int) -> None:
    """Keep one game going in this slot: when it ends, set up the next."""
    stalled_seat = run.seats - 1 if slot < round(run.stall_share * run.games) else None
    async with new_client(run.url, cookies=True) as organiser:
        organiser.cookies.update(run.organiser.cookies)
        while not run.stopping:
            await play_game(run, organiser, stalled_seat)


async def play_game(run: Run, organiser: httpx.AsyncClient, stalled_seat: int | None) -> None:
    time_control = run.stall_time_control if stalled_seat is not None else {}
    created = await create_game(run, organiser, time_control)
    game, claim_body = created["game"], {"credential": "token", "invite": created["invite"]}
    bots = [
        Bot(run, new_client(run.url, cookies=False), game, number, "", stalled_seat)
        for number in range(run.seats)
    ]
    followers: list[asyncio.Task] = []
    try:
        for bot in bots:
            url = f"/api/games/{game}/seats/{bot.seat}/claim"
            claim = await send(bot.client, run.stats, "POST", url, json=claim_body)
            if claim.status_code != 201:
                raise RuntimeError(f"claiming a seat failed ({claim.status_code}): {claim.text}")
            bot.token = claim.json()["token"]
        followers = [asyncio.create_task(bot.follow()) for bot in bots]
        await asyncio.sleep(0.2)  # the streams open before the game starts
        url = f"/api/games/{game}/start"
        response = await send(organiser, run.stats, "POST", url, headers=csrf(organiser))
        if response.status_code != 200:
            raise RuntimeError(f"starting game {game} failed: {response.text[:300]}")
        run.stats.games_started += 1
        await asyncio.gather(*followers)
        run.stats.games_finished += 1
    finally:
        for follower in followers:
            follower.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
        for bot in bots:
            await bot.client.aclose()
