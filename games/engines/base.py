"""The engine protocol every game implements, and the types it speaks.

An engine is a module-level object of pure functions over a JSON-able ``state`` dict.
The host (``games.services``) owns persistence, clocks and transport; an engine owns the
rules. Nothing here, or below this package, may import Django: engines are driven by tests,
benchmarks and the ``simulate`` command without a database.

Conventions shared by every engine:

- Seats are ``0..n-1``. ``None`` as a seat means the system (the host) or, for ``view``,
  a spectator.
- State is a plain dict of JSON types (str keys, lists not tuples), so
  ``json.loads(json.dumps(state)) == state``. ``apply`` mutates it in place, and only after
  the action has been validated: an illegal action raises ``IllegalAction`` and changes
  nothing.
- Actions and events are small JSON dicts with a ``type``. Actions whose type is in
  ``SYSTEM_ACTIONS`` come from the host only (timers and windows), never from a client.
- Randomness is an argument. The host derives one ``StepRng`` per applied action from the
  game seed and the step number, so replaying the same actions from the same seed rebuilds
  the same state in any process.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.engines.refusals import MESSAGES

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]

WINDOW_CLOSED = "window_closed"
TIMEOUT = "timeout"
SYSTEM_ACTIONS = frozenset({WINDOW_CLOSED, TIMEOUT})


class IllegalAction(Exception):
    """The rules refuse this action. ``code`` names the refusal (a key of
    ``refusals.MESSAGES``) and ``params`` fill its sentence; ``reason`` is that sentence in
    English. Clients translate by code and params, never by reading ``reason``."""

    def __init__(self, code: str, **params: str | int) -> None:
        self.code = code
        self.params = params
        self.reason = MESSAGES[code].format(**params)
        super().__init__(self.reason)

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from code and params (the default would call __init__ with the sentence)
        return (_illegal_action, (self.code, self.params))


def _illegal_action(code: str, params: dict[str, Any]) -> IllegalAction:
    return IllegalAction(code, **params)


def refuse_unknown_fields(action: Action, *keys: str) -> None:
    """Refuse a field an action of its type does not have: the log keeps actions as sent, and
    shows them to everyone once the game ends."""
    extra = sorted(str(key) for key in set(action) - {"type", *keys})
    if extra:
        raise IllegalAction("unexpected_fields", fields=", ".join(extra), type=repr(action["type"]))


def public_events(events: list[Event], fields: dict[str, tuple[str, ...]]) -> list[Event]:
    """The events anyone may read, each cut to the fields ``fields`` lists for its type.

    A type not listed is left out: a new kind of event stays private until its engine says
    which of its fields everyone may see (the public log is shown while the game runs)."""
    public = []
    for event in events:
        keys = fields.get(event.get("type"))
        if keys is not None:
            public.append({"type": event["type"], **{k: event[k] for k in keys if k in event}})
    return public


class ConfigError(ValueError):
    """A game configuration the engine cannot run; the message says what to fix."""


@dataclass(frozen=True)
class Window:
    """A short timed window the rules contain (Color Clash's 3 s "Last card!").

    The host schedules it like a timer and applies
    ``{"type": "window_closed", "name": name}`` as seat ``None`` when it passes.
    """

    name: str
    seconds: float
    seat: int | None = None


@dataclass(frozen=True)
class Decision:
    """A decision a seat owes now: its clock runs until the seat acts.

    ``phase`` keys the time control's allowance ("draft", "play", "turn", ...). ``serial``
    changes whenever a new decision begins, which is when a fresh allowance starts; the same
    serial across several actions (draw, then play or pass) means the allowance continues.
    """

    phase: str
    serial: int


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``ranking`` lists places best first; a place holding
    several seats is a shared place. ``metrics`` carries game-specific tie-break data keyed by
    metric name, then seat (e.g. ``{"power_cards_activated": {0: 2, 1: 1}}``)."""

    winners: list[int]
    ranking: list[list[int]]
    scores: dict[int, float]
    reason: str
    metrics: dict[str, dict[int, Any]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        # Built by hand: ``asdict`` deep-copies ``details``, which dominated random play.
        return {
            "winners": list(self.winners),
            "ranking": [list(place) for place in self.ranking],
            "scores": {str(seat): value for seat, value in self.scores.items()},
            "reason": self.reason,
            "metrics": {
                name: {str(seat): value for seat, value in values.items()}
                for name, values in self.metrics.items()
            },
            "details": self.details,
        }


class Rng(Protocol):
    """The subset of ``random.Random`` engines may use."""

    def random(self) -> float: ...
    def randrange(self, start: int, stop: int | None = None) -> int: ...
    def choice(self, seq: Sequence[Any]) -> Any: ...
    def shuffle(self, x: list[Any]) -> None: ...
    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...


class StepRng:
    """Randomness for one step of one game, derived from the game seed and the step number.

    The underlying ``random.Random`` is built on first use: most actions draw nothing, and
    seeding a Mersenne Twister costs more than many whole actions.
    """

    __slots__ = ("_rng", "seed", "step")

    def __init__(self, seed: bytes, step: int) -> None:
        self.seed = seed
        self.step = step
        self._rng: random.Random | None = None

    def _random(self) -> random.Random:
        if self._rng is None:
            digest = hashlib.sha256(self.seed + self.step.to_bytes(8, "big")).digest()
            self._rng = random.Random(digest)
        return self._rng

    def random(self) -> float:
        return self._random().random()

    def randrange(self, start: int, stop: int | None = None) -> int:
        return self._random().randrange(start, stop)

    def choice(self, seq: Sequence[Any]) -> Any:
        return self._random().choice(seq)

    def shuffle(self, x: list[Any]) -> None:
        self._random().shuffle(x)

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        return self._random().sample(population, k)


def reshuffled_unseen(engine: Engine, state: State, rng: Rng) -> State:
    """``engine.reshuffle_unseen`` where the engine has it, else ``state`` as it is."""
    hook = getattr(engine, "reshuffle_unseen", None)
    return hook(state, rng) if hook is not None else state


def seed_bytes(seed: int | str | bytes) -> bytes:
    """Normalise a seed given on a command line or stored as hex into 32 bytes."""
    if isinstance(seed, bytes):
        return seed
    return hashlib.sha256(str(seed).encode()).digest()


Bot = Callable[[State, int, Rng], Action]
"""A computer player: given the state, its seat and randomness, one legal action."""


class Engine(Protocol):
    """What every engine provides. See the module docstring for the shared conventions."""

    key: str
    name: str
    min_seats: int
    max_seats: int
    default_time_control: dict[str, Any]
    bots: dict[str, Bot]

    def validate_config(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        """The complete config (defaults filled in), or ``ConfigError`` saying what is wrong."""

    def setup(self, config: dict[str, Any], seats: int, rng: Rng) -> State:
        """A new game for ``seats`` seats from a config ``validate_config`` returned."""

    def to_act(self, state: State) -> list[int]:
        """Seats that may act now, including optional actions (anyone may Catch)."""

    def decision(self, state: State, seat: int) -> Decision | None:
        """The decision ``seat`` owes now (its clock runs), or ``None``."""

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; empty when it may not act."""

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        """Raise ``IllegalAction`` with a readable reason unless ``action`` is legal."""

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        """Validate, then apply ``action`` in place; return what happened."""

    def view(self, state: State, seat: int | None) -> View:
        """All that ``seat`` (``None``: a spectator) may see. The only thing sent to clients."""

    def public_events(self, events: list[Event]) -> list[Event]:
        """What anyone may read of the events ``apply`` returned (``base.public_events``):
        the public log, shown while the game runs, keyed by each event's ``type``."""

    def timeout_action(self, state: State, seats: list[int]) -> Action:
        """The system action applied when the clocks of ``seats`` ran out at the same instant."""

    def windows(self, state: State) -> list[Window]:
        """The rules' own short windows now open."""

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    # Optional: ``reshuffle_unseen(state, rng) -> State``, a copy of ``state`` in which only
    # what no seat has seen yet (the order of undealt cards) is shuffled again by ``rng``.
    # A game continued from another's state at some event (a dispute's "rewind") keeps every
    # hand as it was and draws the rest from its own fresh seed; the old seed, revealed once
    # the old game ended, then tells nothing about what is still to come. Engines with no
    # hidden order to redraw leave it out (see ``reshuffled_unseen``).

    def resample_hidden(self, state: State, viewer: int | None, rng: Rng) -> State:
        """A copy of ``state`` with everything hidden from ``viewer`` redealt at random.

        Sizes of hidden zones are kept. Used to prove views leak nothing: ``viewer``'s view of
        the copy must equal its view of the original. The copy need not be playable.
        """
