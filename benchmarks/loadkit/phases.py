"""The phases of a run: the ``GET /api/ping`` baseline, then the games under load."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable, Iterator

from loadkit.bots import keep_game_running
from loadkit.client import new_client, send
from loadkit.figures import percentile
from loadkit.run import Run, Stats
from loadkit.server import cores_used


async def baseline(url: str, concurrency: int, seconds: float) -> Stats:
    """``GET /api/ping`` with ``concurrency`` closed loops, each its own client like a bot;
    counts answers after a warm-up."""
    stats = Stats()
    warm_until = time.perf_counter() + min(3.0, seconds / 4)
    end = warm_until + seconds

    async def loop() -> None:
        async with new_client(url, cookies=False) as client:
            while (moment := time.perf_counter()) < end:
                response = await send(client, stats, "GET", "/api/ping")
                if response.status_code == 200 and moment >= warm_until:
                    stats.action_ms.append((time.perf_counter() - moment) * 1000)

    await asyncio.gather(*(loop() for _ in range(concurrency)))
    return stats


async def load(
    run: Run, warmup: float, seconds: float, cpu_seconds: Callable[[], dict[str, float]]
) -> dict[str, float]:
    """Start every game, measure for ``seconds`` once all are running, then stop; returns the
    cores each part used while measuring."""
    slots = [asyncio.create_task(keep_game_running(run, slot)) for slot in range(run.games)]
    probe = asyncio.create_task(probe_loop_lag(run))
    try:
        started = time.perf_counter()
        while run.stats.games_started < run.games and time.perf_counter() - started < 60:
            await asyncio.sleep(0.2)
            raise_failure(slots)
        elapsed = time.perf_counter() - started
        print(f"  {run.stats.games_started} games running after {elapsed:.1f} s")
        await asyncio.sleep(warmup)
        before, begin = cpu_seconds(), time.perf_counter()
        run.window = (begin, begin + seconds)
        while time.perf_counter() < run.window[1]:
            await asyncio.sleep(min(5.0, run.window[1] - time.perf_counter()))
            raise_failure(slots)
            done, elapsed = len(run.stats.action_ms), time.perf_counter() - begin
            print(
                f"  {elapsed:5.1f} s: {done} actions ({done / elapsed:.0f}/s), "
                f"p99 {percentile(run.stats.action_ms, 99):.0f} ms, "
                f"{run.stats.games_finished} games finished"
            )
        return cores_used(before, cpu_seconds(), time.perf_counter() - begin)
    finally:
        run.stopping = True
        probe.cancel()
        for slot in slots:
            slot.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        await asyncio.gather(*run.background, return_exceptions=True)


async def probe_loop_lag(run: Run, period: float = 0.01) -> None:
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(period)
        woke = time.perf_counter()
        if run.measuring(asked):
            run.stats.loop_lag_ms.append((woke - asked - period) * 1000)


def raise_failure(slots: list[asyncio.Task]) -> None:
    """A game slot that failed (not merely cancelled) stops the run: its figures would lie."""
    for slot in slots:
        if slot.done() and not slot.cancelled() and slot.exception() is not None:
            raise RuntimeError("a game slot failed") from slot.exception()


@contextlib.contextmanager
def client_gc_paused() -> Iterator[None]:
    """No garbage collection in the load client while it measures: with 400 bots' streams and
    statistics on its heap, a full collection stalled its event loop for 100-180 ms every few
    seconds, and every response arriving meanwhile was timed that much late (the p99 of paced
    runs fell from 103-165 ms to 83-95 ms). The server's processes collect as usual."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
