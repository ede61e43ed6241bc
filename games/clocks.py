"""Clock arithmetic for time controls: pure, with ``now`` always an argument (epoch seconds).

A time control gives each kind of decision an allowance (Drafting Trios: draft pick 60 s,
play 90 s), a reserve that pays for time beyond an allowance and never refills except by the
optional increment, and an expiry policy naming what running out does (the engine's
``timeout_action`` carries it out). Several seats' clocks may run at once.

A seat's clock is a small dict kept in the game row::

    {"reserve": 300.0, "phase": "draft", "serial": 4, "started": 1764412800.25}

``phase``/``serial``/``started`` are ``None`` while the seat owes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from games.engines.messages import Message, gettext_noop

POLICIES = ("lose", "draw_and_pass", "forfeit_turn", "engine")

Clock = dict[str, Any]


class TimeControlError(ValueError):
    """A time control that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class TimeControl:
    allowances: dict[str, float]
    reserve: float = 0.0
    increment: float = 0.0
    policy: str = "engine"
    choices: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any], defaults: dict[str, Any]) -> TimeControl:
        """Validate an organiser's time control over the engine's defaults."""
        if not isinstance(data, dict):
            raise TimeControlError(Message(gettext_noop("a time control is a JSON object")))
        unknown = set(data) - {"allowances", "reserve", "increment", "policy"}
        if unknown:
            raise TimeControlError(
                Message(
                    gettext_noop("unknown time control field(s): {unknown}"),
                    unknown=", ".join(sorted(unknown)),
                )
            )
        given = data.get("allowances", {})
        if not isinstance(given, dict):
            raise TimeControlError(
                Message(gettext_noop('allowances is an object of seconds by phase: {{"turn": 30}}'))
            )
        allowances = {**defaults.get("allowances", {}), **given}
        extra = set(allowances) - set(defaults.get("allowances", {}))
        if extra:
            known = ", ".join(sorted(defaults.get("allowances", {})))
            raise TimeControlError(
                Message(
                    gettext_noop("no such phase {phase!r}; phases are: {known}"),
                    phase=sorted(extra)[0],
                    known=known,
                )
            )
        choices = defaults.get("choices", {})
        for phase, seconds in allowances.items():
            _check_seconds(
                Message(gettext_noop("allowance for {phase!r}"), phase=phase),
                seconds,
                allow_none=True,
            )
            if phase in choices and seconds not in choices[phase]:
                allowed = ", ".join(str(c) for c in choices[phase])
                raise TimeControlError(
                    Message(
                        gettext_noop("the {phase!r} timer must be one of: {allowed}"),
                        phase=phase,
                        allowed=allowed,
                    )
                )
        reserve = data.get("reserve", defaults.get("reserve", 0))
        increment = data.get("increment", defaults.get("increment", 0))
        _check_seconds("reserve", reserve)
        _check_seconds("increment", increment)
        policy = data.get("policy", defaults.get("policy", "engine"))
        if not isinstance(policy, str) or policy not in POLICIES:
            raise TimeControlError(
                Message(gettext_noop("policy is one of: {policies}"), policies=", ".join(POLICIES))
            )
        if policy != defaults.get("policy", policy):
            raise TimeControlError(
                Message(
                    gettext_noop("this game's expiry policy is {policy!r}"),
                    policy=defaults["policy"],
                )
            )
        return cls(allowances, float(reserve), float(increment), policy, choices)

    def to_json(self) -> dict[str, Any]:
        return {
            "allowances": self.allowances,
            "reserve": self.reserve,
            "increment": self.increment,
            "policy": self.policy,
        }

    def allowance(self, phase: str) -> float | None:
        """Seconds for one decision of ``phase``; ``None`` means untimed."""
        return self.allowances.get(phase)


def _check_seconds(what: str, value: Any, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 86400:
        raise TimeControlError(
            Message(gettext_noop("{what} must be a number of seconds from 0 to 86400"), what=what)
        )


def new_clock(tc: TimeControl) -> Clock:
    return {"reserve": tc.reserve, "phase": None, "serial": None, "started": None}


def start(clock: Clock, phase: str, serial: int, now: float) -> Clock:
    """The seat owes a decision from ``now``: a fresh allowance begins."""
    return {**clock, "phase": phase, "serial": serial, "started": now}


def stop(tc: TimeControl, clock: Clock, now: float) -> Clock:
    """The seat decided at ``now``: time over the allowance drains the reserve."""
    if clock["started"] is None:
        return clock
    reserve = clock["reserve"] - overrun(tc, clock, now) + tc.increment
    return {"reserve": max(0.0, reserve), "phase": None, "serial": None, "started": None}


def resumed(clock: Clock, paused_at: float, now: float) -> Clock:
    """The clock after a pause from ``paused_at`` to ``now``: a running decision started that
    much later, so it has exactly the allowance and reserve left that it had at the pause."""
    if clock["started"] is None:
        return clock
    return {**clock, "started": clock["started"] + (now - paused_at)}


def resumed_windows(
    windows: list[dict[str, Any]], paused_at: float, now: float
) -> list[dict[str, Any]]:
    """Open rules windows after a pause: each closes as much later as the pause lasted."""
    return [{**w, "deadline": w["deadline"] + (now - paused_at)} for w in windows]


def overrun(tc: TimeControl, clock: Clock, now: float) -> float:
    """Seconds spent beyond the allowance of the running decision."""
    allowance = tc.allowance(clock["phase"]) if clock["started"] is not None else None
    if allowance is None:
        return 0.0
    return max(0.0, now - clock["started"] - allowance)


def deadline(tc: TimeControl, clock: Clock) -> float | None:
    """When the running decision expires: its allowance, then all of the reserve."""
    if clock["started"] is None:
        return None
    allowance = tc.allowance(clock["phase"])
    if allowance is None:
        return None
    return clock["started"] + allowance + clock["reserve"]


def remaining(tc: TimeControl, clock: Clock, now: float) -> dict[str, Any]:
    """What a view shows: allowance and reserve left now, and whether the clock runs."""
    running = clock["started"] is not None
    allowance = tc.allowance(clock["phase"]) if running else None
    if not running or allowance is None:
        return {"running": running, "allowance": None, "reserve": round(clock["reserve"], 3)}
    elapsed = max(0.0, now - clock["started"])
    return {
        "running": True,
        "phase": clock["phase"],
        "allowance": round(max(0.0, allowance - elapsed), 3),
        "reserve": round(max(0.0, clock["reserve"] - max(0.0, elapsed - allowance)), 3),
    }


def overdue(tc: TimeControl, clocks: dict[str, Clock], now: float) -> list[list[int]]:
    """Seats whose time ran out by ``now``, grouped by the instant they ran out, earliest
    first: seats in one group ran out at exactly the same time."""
    expired: dict[float, list[int]] = {}
    for seat, clock in clocks.items():
        when = deadline(tc, clock)
        if when is not None and when <= now:
            expired.setdefault(when, []).append(int(seat))
    return [sorted(expired[when]) for when in sorted(expired)]


def next_deadline(tc: TimeControl, clocks: dict[str, Clock]) -> float | None:
    deadlines = [d for d in (deadline(tc, clock) for clock in clocks.values()) if d is not None]
    return min(deadlines, default=None)


# -- what a host keeps: every seat's clock and the open windows, settled after each change ---


class Owed(Protocol):
    """A decision a seat owes (``engines.base.Decision``): its phase and serial."""

    phase: str
    serial: int


class Timed(Protocol):
    """A rules window (``engines.base.Window``)."""

    name: str
    seconds: float
    seat: int | None


def settle(
    tc: TimeControl, clocks: dict[str, Clock], owed: dict[str, Owed | None], now: float
) -> dict[str, Clock]:
    """Every seat's clock once the state changed at ``now``: stopped where the seat owes
    nothing, restarted where a new decision (phase, serial) begins, else running on."""
    settled = {}
    for key, clock in clocks.items():
        decision = owed.get(key)
        if decision is None:
            settled[key] = stop(tc, clock, now)
        elif (clock["phase"], clock["serial"]) != (decision.phase, decision.serial):
            settled[key] = start(stop(tc, clock, now), decision.phase, decision.serial, now)
        else:
            settled[key] = clock
    return settled


def open_windows(
    kept: list[dict[str, Any]], windows: list[Timed], now: float
) -> list[dict[str, Any]]:
    """The windows the state has open, each keeping its deadline while it stays open; a new
    one closes ``seconds`` from ``now``."""
    still_open = {(w["name"], w["seat"]): w for w in kept}
    return [
        still_open.get((w.name, w.seat))
        or {"name": w.name, "seat": w.seat, "deadline": now + w.seconds}
        for w in windows
    ]


def public(
    tc: TimeControl, clocks: dict[str, Clock], windows: list[dict[str, Any]], now: float
) -> dict[str, Any]:
    """What every audience is shown of the clocks and windows (the hosted payload's)."""
    return {
        "clocks": {key: remaining(tc, clock, now) for key, clock in clocks.items()},
        "windows": [
            {"name": w["name"], "seat": w["seat"], "remaining": max(0.0, w["deadline"] - now)}
            for w in windows
        ],
    }
