"""The shared state of a load phase: what it measures and what every bot reads."""

from __future__ import annotations

import asyncio
import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg

ORGANISER = "bench-organiser"


LIVE = {"waiting", "running"}  # a stream opened before the start first says "waiting"


@dataclass
class Stats:
    """Everything the load phase measures; times are ``time.perf_counter()`` unless noted."""

    action_ms: list[float] = field(default_factory=list)
    legal_ms: list[float] = field(default_factory=list)
    # How late the load client's own event loop woke a 10 ms sleeper: a response that arrives
    # while the loop is busy with other bots waits that long before it is timed.
    loop_lag_ms: list[float] = field(default_factory=list)
    # (game, seat, version, response time) of every accepted action in the window
    accepted: list[tuple[int, int, int, float]] = field(default_factory=list)
    # arrivals[game][seat] = [(version, perf time, wall time)] in arrival order
    arrivals: dict[int, dict[int, list[tuple[int, float, float]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    # (game, version) -> the deadline (epoch seconds) pending at that version
    deadlines: dict[tuple[int, int], float] = field(default_factory=dict)
    requests: int = 0
    transport_errors: int = 0
    stream_drops: int = 0
    stale: int = 0
    refused: int = 0
    errors: int = 0
    games_started: int = 0
    games_finished: int = 0


@dataclass
class Run:
    """Shared state of the load phase."""

    url: str
    organiser: httpx.AsyncClient  # logged in; each game slot copies its cookies
    db: psycopg.AsyncConnection
    engine: str
    games: int
    seats: int
    stall_share: float
    think: float = 0.0
    stall_time_control: dict[str, Any] = field(default_factory=dict)
    stats: Stats = field(default_factory=Stats)
    window: tuple[float, float] = (math.inf, math.inf)  # measured interval (perf times)
    stopping: bool = False
    db_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    background: set[asyncio.Task] = field(default_factory=set)

    def measuring(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]
