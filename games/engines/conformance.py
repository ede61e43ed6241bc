"""Random legal playouts through the engine protocol, with the invariants every engine keeps.

Used by the shared conformance tests, the ``simulate`` command and the benchmarks. For every
game it checks: the game ends; ``outcome`` is ``None`` until the end and defined then; every
view is JSON; nothing a host sends an audience (the view, that seat's legal actions, every
seat's clock and the open windows, kept as a host keeps them) changes when what the audience
cannot see is redealt (so no payload leaks hidden cards); illegal and out-of-turn actions
raise ``IllegalAction`` and change nothing; the state survives a JSON round trip; and
replaying the log from the seed rebuilds the same state.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games import clocks
from games.engines.base import (
    WINDOW_CLOSED,
    Action,
    Engine,
    Event,
    IllegalAction,
    State,
    StepRng,
    seed_bytes,
)

BOGUS_ACTION: Action = {"type": "__not_an_action__"}
UNKNOWN_FIELD = "__not_a_field__"


@dataclass
class GameReport:
    game: int
    steps: int = 0
    ended: bool = False
    outcome: dict[str, Any] | None = None
    failures: list[str] = field(default_factory=list)


@dataclass
class SimulationReport:
    engine: str
    seats: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    invariant_failures: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "seats": self.seats,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "invariant_failures": self.invariant_failures,
            "failures": self.failures[:20],
            "games_per_second": round(self.games_per_second, 2),
            "actions_per_second": round(self.actions_per_second, 2),
        }


TraceSink = Callable[[dict[str, Any]], None]


class InvariantFailure(Exception):
    pass


@dataclass
class Host:
    """The clocks and windows a host keeps beside the state, settled after every action as
    the game service settles them (on a clock of one second per action): what its payloads
    show every audience besides the engine's view."""

    control: clocks.TimeControl
    clocks: dict[str, clocks.Clock]
    windows: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def for_game(cls, engine: Engine, config: dict[str, Any], seats: int) -> Host:
        # The engine's time control for this config, as the service defaults it.
        for_config = getattr(engine, "time_control", None)
        defaults = for_config(config) if for_config else engine.default_time_control
        control = clocks.TimeControl.from_json({}, defaults)
        return cls(control, {str(seat): clocks.new_clock(control) for seat in range(seats)})

    def settled(
        self, engine: Engine, state: State, now: float
    ) -> tuple[dict[str, clocks.Clock], list[dict[str, Any]]]:
        owed = {key: engine.decision(state, int(key)) for key in self.clocks}
        kept = clocks.settle(self.control, self.clocks, owed, now)
        return kept, clocks.open_windows(self.windows, engine.windows(state), now)

    def advance(self, engine: Engine, state: State, now: float) -> None:
        self.clocks, self.windows = self.settled(engine, state, now)

    def payload(self, engine: Engine, state: State, viewer: int | None, now: float) -> dict:
        """What the host would send ``viewer`` if ``state`` were the game's state now."""
        kept, windows = self.settled(engine, state, now)
        shown = {"view": engine.view(state, viewer)}
        shown |= clocks.public(self.control, kept, windows, now)
        if viewer is not None:
            shown["legal"] = engine.legal_actions(state, viewer)
        return shown


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def game_seed(seed: int | str, game: int) -> bytes:
    return seed_bytes(f"{seed}:{game}")


def choose_random(
    engine: Engine, state: State, policy: random.Random
) -> tuple[int | None, Action] | None:
    """A uniformly random seat (or open window) among those that may act, then a uniformly
    random legal action of it. ``None`` when nobody can act.

    Only the chosen seat's actions are listed: in simultaneous games that halves the work.
    """
    candidates: list[int | None] = [*engine.to_act(state)]
    windows = engine.windows(state)
    candidates += [None] * len(windows)
    while candidates:
        index = policy.randrange(len(candidates))
        seat = candidates[index]
        if seat is None:
            window = windows[sum(1 for c in candidates[:index] if c is None)]
            return None, {"type": WINDOW_CLOSED, "name": window.name}
        actions = engine.legal_actions(state, seat)
        if actions:
            return seat, actions[policy.randrange(len(actions))]
        candidates.pop(index)
    return None


def replay(
    engine: Engine,
    config: dict[str, Any],
    seats: int,
    seed: bytes,
    log: list[tuple[int | None, Action]],
) -> State:
    """Rebuild a game's state from its seed and its log of applied actions."""
    state = engine.setup(config, seats, StepRng(seed, 0))
    for step, (seat, action) in enumerate(log, start=1):
        engine.apply(state, seat, action, StepRng(seed, step))
    return state


def play_game(
    engine: Engine,
    config: dict[str, Any],
    seats: int,
    seed: bytes,
    policy: random.Random,
    *,
    game: int = 0,
    check: bool = True,
    max_steps: int = 100_000,
    timeout_rate: float = 0.0,
    trace: TraceSink | None = None,
) -> GameReport:
    """Play one random game; with ``check``, verify every invariant along the way."""
    report = GameReport(game=game)
    checks = random.Random(seed)  # apart from the policy, so checking never changes the game
    state = engine.setup(config, seats, StepRng(seed, 0))
    log: list[tuple[int | None, Action]] = []
    seat_range = range(seats)
    host = Host.for_game(engine, config, seats)
    host.advance(engine, state, 0.0)
    if trace:
        trace(_trace_line(engine, state, seat_range, game, 0, None, None, []))
    try:
        for step in range(1, max_steps + 1):
            choice = _timeout_choice(engine, state, seat_range, policy, timeout_rate)
            choice = choice or choose_random(engine, state, policy)
            if choice is None:
                break
            if check:
                _check_state(engine, state, seat_range, checks, host, step - 1)
            seat, action = choice
            events = engine.apply(state, seat, action, StepRng(seed, step))
            host.advance(engine, state, float(step))
            log.append((seat, action))
            report.steps = step
            if trace:
                trace(_trace_line(engine, state, seat_range, game, step, seat, action, events))
        else:
            raise InvariantFailure(f"game did not end within {max_steps} actions")
        outcome = engine.outcome(state)
        if outcome is None:
            raise InvariantFailure("nobody can act but the game has no outcome")
        report.ended = True
        report.outcome = outcome.to_json()
        if check:
            _check_json(outcome.to_json(), "outcome")
            _check_views(engine, state, seat_range, checks, host, report.steps)
            rebuilt = replay(engine, config, seats, seed, log)
            if canonical(rebuilt) != canonical(state):
                raise InvariantFailure("replaying the log from the seed gave a different state")
    except InvariantFailure as failure:
        report.failures.append(f"game {game} step {report.steps}: {failure}")
    except IllegalAction as refusal:
        report.failures.append(
            f"game {game} step {report.steps}: a listed legal action was refused: {refusal}"
        )
    except Exception as error:  # a crash in an engine is an invariant failure, not a crash here
        report.failures.append(f"game {game} step {report.steps}: {type(error).__name__}: {error}")
    return report


def simulate(
    engine: Engine,
    *,
    games: int,
    seed: int | str,
    seats: int,
    config: dict[str, Any] | None = None,
    check: bool = True,
    max_steps: int = 100_000,
    timeout_rate: float = 0.0,
    trace: TraceSink | None = None,
) -> SimulationReport:
    """Play ``games`` random games; a benchmark passes ``check=False`` to time play alone."""
    full_config = engine.validate_config(dict(config or {}), seats)
    report = SimulationReport(engine=engine.key, seats=seats)
    started = time.perf_counter()
    for number in range(games):
        policy = random.Random(f"{seed}:{number}:policy")
        result = play_game(
            engine,
            full_config,
            seats,
            game_seed(seed, number),
            policy,
            game=number,
            check=check,
            max_steps=max_steps,
            timeout_rate=timeout_rate,
            trace=trace,
        )
        report.games += 1
        report.actions += result.steps
        if result.failures:
            report.invariant_failures += 1
            report.failures.extend(result.failures)
    report.seconds = time.perf_counter() - started
    return report


def _timeout_choice(
    engine: Engine,
    state: State,
    seats: range,
    policy: random.Random,
    rate: float,
) -> tuple[None, Action] | None:
    if not rate or policy.random() >= rate:
        return None
    owing = [seat for seat in seats if engine.decision(state, seat) is not None]
    if not owing:
        return None
    return None, engine.timeout_action(state, [policy.choice(owing)])


def _check_state(
    engine: Engine, state: State, seats: range, rng: random.Random, host: Host, now: float
) -> None:
    if json.loads(json.dumps(state)) != state:
        raise InvariantFailure("state does not survive a JSON round trip")
    acting = engine.to_act(state)
    if engine.outcome(state) is not None:
        raise InvariantFailure("outcome is defined while the game goes on")
    for seat in acting:
        if not engine.legal_actions(state, seat):
            raise InvariantFailure(f"seat {seat} is to act but has no legal action")
    _check_views(engine, state, seats, rng, host, now)
    _check_refusals(engine, state, seats)


def _check_views(
    engine: Engine, state: State, seats: range, rng: random.Random, host: Host, now: float
) -> None:
    for viewer in [*seats, None]:
        shown = host.payload(engine, state, viewer, now)
        _check_json(shown, f"payload of {_who(viewer)}")
        redealt = host.payload(engine, engine.resample_hidden(state, viewer, rng), viewer, now)
        for part in shown:
            if canonical(redealt[part]) != canonical(shown[part]):
                raise InvariantFailure(
                    f"the {part} sent to {_who(viewer)} changes when hidden cards are redealt:"
                    " it leaks them"
                )


def _check_refusals(engine: Engine, state: State, seats: range) -> None:
    before = canonical(state)
    attempts: list[tuple[int | None, Action]] = [(seat, BOGUS_ACTION) for seat in seats]
    legal = {seat: [canonical(a) for a in engine.legal_actions(state, seat)] for seat in seats}
    for seat in seats:
        for other in seats:
            for action in engine.legal_actions(state, other)[:3]:
                if canonical(action) not in legal[seat]:
                    attempts.append((seat, action))
        # a legal action with a field it does not have: the log would store it as sent
        attempts.extend(
            (seat, {**a, UNKNOWN_FIELD: 1}) for a in engine.legal_actions(state, seat)[:1]
        )
    for seat, action in attempts:
        try:
            engine.apply(state, seat, action, _NoRandomness())
        except IllegalAction:
            pass
        else:
            raise InvariantFailure(f"{_who(seat)} was allowed the unlisted action {action}")
        if canonical(state) != before:
            raise InvariantFailure(f"the refused action {action} of {_who(seat)} changed state")


def _check_json(data: Any, what: str) -> None:
    try:
        json.dumps(data)
    except (TypeError, ValueError) as error:
        raise InvariantFailure(f"{what} is not JSON: {error}") from None


def _trace_line(
    engine: Engine,
    state: State,
    seats: range,
    game: int,
    step: int,
    seat: int | None,
    action: Action | None,
    events: list[Event],
) -> dict[str, Any]:
    return {
        "game": game,
        "step": step,
        "seat": seat,
        "action": action,
        "events": events,
        "views": {str(s): engine.view(state, s) for s in seats},
        "spectator": engine.view(state, None),
    }


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


class _NoRandomness:
    """Refused actions must be refused before drawing anything."""

    def __getattr__(self, name: str) -> Any:
        raise InvariantFailure("an action drew randomness before being refused")
