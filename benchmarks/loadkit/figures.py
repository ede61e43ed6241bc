"""The figures of a run, the targets they are held to, and the printed summary."""

from __future__ import annotations

import argparse
import math
from bisect import bisect_left
from collections import defaultdict
from typing import Any

from loadkit.run import Run, Stats

TARGETS = {"games": 200, "action_p99_ms": 100.0, "timer_p99_ms": 250.0, "ratio_to_baseline": 0.5}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def delivery_ms(stats: Stats) -> list[float]:
    """For each accepted action and each other seat: response to first arrival of a version at
    least as new (a negative figure: the stream beat the response)."""
    found = []
    for game, seat, version, answered in stats.accepted:
        for other, arrivals in stats.arrivals[game].items():
            if other == seat:
                continue
            index = bisect_left([v for v, _, _ in arrivals], version)
            if index < len(arrivals):
                found.append((arrivals[index][1] - answered) * 1000)
    return found


async def timer_lateness(run: Run) -> dict[str, list[float]]:
    """Lateness (ms) of the server timers whose deadline was read while pending, by kind: as
    applied (the log's timestamp) and as seen (first SSE arrival, any seat)."""
    cursor = await run.db.execute(
        "SELECT game_id, seq, at, action->>'type' FROM games_gameevent WHERE seat IS NULL"
    )
    applied = {
        (game, seq): (at.timestamp(), kind) for game, seq, at, kind in await cursor.fetchall()
    }
    late: dict[str, list[float]] = defaultdict(list)
    for (game, version), deadline in run.stats.deadlines.items():
        event = applied.get((game, version + 1))
        if event is None:
            continue  # a player acted first, or the run ended before the deadline
        at, kind = event
        late[kind].append((at - deadline) * 1000)
        late["applied"].append((at - deadline) * 1000)
        arrivals = [
            wall
            for seat_arrivals in run.stats.arrivals[game].values()
            for v, _, wall in seat_arrivals
            if v > version
        ]
        if arrivals:
            late["seen"].append((min(arrivals) - deadline) * 1000)
    return late


def summary(
    args: argparse.Namespace,
    ping_rps: float,
    run: Run,
    late: dict[str, list[float]],
    cpu: dict[str, float],
) -> dict[str, Any]:
    seconds = run.window[1] - run.window[0]
    stats = run.stats
    actions_per_s = len(stats.action_ms) / seconds
    figures = {
        "engine": args.engine,
        "games": args.games,
        "seats_per_game": run.seats,
        "stalled_games": round(run.stall_share * args.games),
        "seconds": round(seconds, 1),
        "web_workers": args.workers,
        "tcp_nodelay": not args.stock_uvicorn,
        "think_seconds": args.think,
        "baseline_ping_rps": round(ping_rps, 1),
        "actions_per_s": round(actions_per_s, 1),
        "actions": len(stats.action_ms),
        "action_p50_ms": round(percentile(stats.action_ms, 50), 1),
        "action_p99_ms": round(percentile(stats.action_ms, 99), 1),
        "client_loop_lag_p50_ms": round(percentile(stats.loop_lag_ms, 50), 1),
        "client_loop_lag_p99_ms": round(percentile(stats.loop_lag_ms, 99), 1),
        "legal_p50_ms": round(percentile(stats.legal_ms, 50), 1),
        "legal_p99_ms": round(percentile(stats.legal_ms, 99), 1),
        "sse_delivery_p50_ms": round(percentile(delivery_ms(stats), 50), 1),
        "sse_delivery_p99_ms": round(percentile(delivery_ms(stats), 99), 1),
        "timer_p50_ms": round(percentile(late["applied"], 50), 1),
        "timer_p99_ms": round(percentile(late["applied"], 99), 1),
        "timer_seen_p99_ms": round(percentile(late["seen"], 99), 1),
        "timers_measured": {k: len(v) for k, v in late.items() if k not in {"applied", "seen"}},
        "timer_p99_ms_by_kind": {
            k: round(percentile(v, 99), 1) for k, v in late.items() if k not in {"applied", "seen"}
        },
        "stale_409": stats.stale,
        "refused_4xx": stats.refused,
        "transport_retries": stats.transport_errors,
        "stream_reconnects": stats.stream_drops,
        "errors": stats.errors,
        "games_finished": stats.games_finished,
        "cpu_cores_used": cpu,
        "server_cpu_ms_per_action": round(
            1000
            * sum(v for k, v in cpu.items() if k not in {"load client", "other"})
            / max(actions_per_s, 1e-9),
            1,
        ),
    }
    met = {
        "games": args.games >= TARGETS["games"],
        "action_p99_ms": figures["action_p99_ms"] < TARGETS["action_p99_ms"],
        "timer_p99_ms": figures["timer_p99_ms"] < TARGETS["timer_p99_ms"],
        "ratio_to_baseline": actions_per_s >= TARGETS["ratio_to_baseline"] * ping_rps,
    }
    return {**figures, "targets": TARGETS, "met": met, "all_met": all(met.values())}


def print_summary(figures: dict[str, Any]) -> None:
    ratio = figures["actions_per_s"] / figures["baseline_ping_rps"]
    lines = [
        f"engine {figures['engine']}: {figures['games']} concurrent games "
        f"({figures['stalled_games']} with a stalling seat), {figures['seconds']} s measured",
        f"baseline GET /api/ping     {figures['baseline_ping_rps']:8.1f} req/s",
        f"actions                    {figures['actions_per_s']:8.1f} /s  "
        f"({ratio:.2f} of the baseline; target >= {TARGETS['ratio_to_baseline']})",
        f"action latency             p50 {figures['action_p50_ms']} ms, "
        f"p99 {figures['action_p99_ms']} ms (target < {TARGETS['action_p99_ms']:.0f})",
        f"load client's loop lag     p50 {figures['client_loop_lag_p50_ms']} ms, "
        f"p99 {figures['client_loop_lag_p99_ms']} ms (included in the latencies above)",
        f"GET legal (before acting)  p50 {figures['legal_p50_ms']} ms, "
        f"p99 {figures['legal_p99_ms']} ms",
        f"SSE delivery               p50 {figures['sse_delivery_p50_ms']} ms, "
        f"p99 {figures['sse_delivery_p99_ms']} ms",
        f"timer lateness (applied)   p50 {figures['timer_p50_ms']} ms, "
        f"p99 {figures['timer_p99_ms']} ms (target < {TARGETS['timer_p99_ms']:.0f}); "
        f"seen p99 {figures['timer_seen_p99_ms']} ms; {figures['timers_measured']}",
        f"refusals                   {figures['stale_409']} stale (409), "
        f"{figures['refused_4xx']} other 4xx, {figures['errors']} errors, "
        f"{figures['transport_retries']} requests resent and "
        f"{figures['stream_reconnects']} streams reopened after a dropped connection",
        f"CPU cores used             {figures['cpu_cores_used']}; server CPU per action "
        f"{figures['server_cpu_ms_per_action']} ms",
        "targets met: "
        + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in figures["met"].items()),
    ]
    if "budget_ms" in figures:
        b = figures["budget_ms"]
        lines.insert(
            -1,
            f"CPU per request (ms)       ping: client {b['ping_client']}, server "
            f"{b['ping_server']}; action: client {b['action_client']}, server "
            f"{b['action_server']}; the ratio target leaves the server "
            f"{b['action_server_for_target']} per action",
        )
    print("\n".join(lines))


def budget(
    ping_rps: float, ping_cpu: dict[str, float], actions_per_s: float, cpu: dict[str, float]
) -> dict[str, float]:
    """What a ping and an action cost the machine (ms of CPU, the load client apart from the
    server: web, Celery, PostgreSQL, Redis), and the server's share of an action that would
    meet the ratio target. The client and the server share the cores, so with the machine busy
    in both phases the ratio is about (client + server per ping) / (client + server per action):
    the target leaves the server ``2 x ping - client per action``."""

    def per(cores: dict[str, float], rate: float, client: bool) -> float:
        parts = [v for k, v in cores.items() if (k == "load client") == client and k != "other"]
        return 1000 * sum(parts) / max(rate, 1e-9)

    ping = {"client": per(ping_cpu, ping_rps, True), "server": per(ping_cpu, ping_rps, False)}
    action = {"client": per(cpu, actions_per_s, True), "server": per(cpu, actions_per_s, False)}
    allowed = (ping["client"] + ping["server"]) / TARGETS["ratio_to_baseline"] - action["client"]
    return {
        "ping_client": round(ping["client"], 2),
        "ping_server": round(ping["server"], 2),
        "action_client": round(action["client"], 2),
        "action_server": round(action["server"], 2),
        "action_server_for_target": round(allowed, 2),
    }
