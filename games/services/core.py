"""The shared core of the write paths: the server's clock, the engine, the locked game, and
applying an action (or what is overdue) and bringing clocks, windows and status in line.

Every write path: lock the game (``select_for_update``), validate, call the pure engine and
clocks, then ``commit.save``. Tests move the clock by patching ``games.services.core.now``.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clocks, engines, store
from games.clocks import TimeControl
from games.engines.base import WINDOW_CLOSED, Engine, StepRng
from games.models import GameSession, Seat
from games.signals import game_finished
from hosting.core.errors import NotFound, UserError

MAX_SYSTEM_STEPS = 200  # overdue timeouts applied in one go; far above any real backlog
DEADLINE_MARGIN_SECONDS = 0.001


def now() -> float:
    return time.time()


def engine_for(key: str) -> Engine:
    try:
        return engines.get(key)
    except KeyError:
        raise UserError(
            _("unknown game %(key)r; games: %(games)s")
            % {"key": key, "games": ", ".join(engines.known_keys())}
        ) from None


def time_control_defaults(engine: Engine, config: dict[str, Any]) -> dict[str, Any]:
    """The engine's time control for this config when it has one (Color Clash's Family night
    defaults to 90 s turns), else its fixed default."""
    for_config = getattr(engine, "time_control", None)
    return for_config(config) if for_config else engine.default_time_control


def default_bot(engine: Engine) -> str:
    """The strongest computer player an engine ships: any but the random one, if it has one."""
    return next((key for key in engine.bots if key != "random"), "random")


def lock(
    game_id: int, repeat_of: tuple[str, Any, str] | None = None
) -> tuple[GameSession, list[Seat], int | None]:
    """The game, locked, its seats (every write renders them into the payloads) and the
    version ``repeat_of`` (see ``store.lock_game``) produced, if it was submitted before."""
    held = store.lock_game(game_id, repeat_of)
    if held is None:
        raise NotFound(_("no game %(id)s") % {"id": game_id})
    return held


def find_seat(seats: list[Seat], number: int) -> Seat:
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise NotFound(_("this game has no seat %(seat)s") % {"seat": number})
    return seat


def apply(
    game: GameSession,
    engine: Engine,
    control: TimeControl,
    seat: int | None,
    action: dict[str, Any],
    client_action_id: str | None,
    moment: float,
) -> None:
    step = game.version + 1
    events = engine.apply(game.state, seat, action, StepRng(game.rng_seed, step))
    entry = store.LogEntry(step, seat, action, events, client_action_id or "", timezone.now())
    game.unsaved_log.append(entry)
    game.version = step
    settle(game, engine, control, moment)


def settle(game: GameSession, engine: Engine, control: TimeControl, moment: float) -> None:
    """Bring clocks, windows, deadline and status in line with the new state."""
    state = game.state
    owed = {key: engine.decision(state, int(key)) for key in game.clocks}
    game.clocks = clocks.settle(control, game.clocks, owed, moment)
    game.windows = clocks.open_windows(game.windows, engine.windows(state), moment)
    outcome = engine.outcome(state)
    if outcome is not None:
        _finish(game, control, outcome.to_json(), moment)
    deadlines = [w["deadline"] for w in game.windows]
    clock_deadline = clocks.next_deadline(control, game.clocks)
    if clock_deadline is not None:
        deadlines.append(clock_deadline)
    game.next_deadline = (
        datetime.fromtimestamp(min(deadlines), tz=UTC) if deadlines and game.is_running else None
    )


def _finish(game: GameSession, control: TimeControl, outcome: dict, moment: float) -> None:
    game_id = game.pk
    transaction.on_commit(lambda: game_finished.send(sender=GameSession, game_id=game_id))
    game.status = GameSession.Status.FINISHED
    game.outcome = outcome
    game.finished = datetime.fromtimestamp(moment, tz=UTC)
    game.clocks = {key: clocks.stop(control, clock, moment) for key, clock in game.clocks.items()}
    game.windows = []


def apply_overdue(game: GameSession, engine: Engine, control: TimeControl, moment: float) -> int:
    """Apply what is due by ``moment``, earliest first: windows closing and clocks running out
    (seats that ran out at the same instant together)."""
    applied = 0
    while game.is_running and applied < MAX_SYSTEM_STEPS:
        action = _earliest_due(game, engine, control, moment)
        if action is None:
            break
        # Clocks that start now start at ``moment``: a late worker never eats the next
        # player's allowance.
        apply(game, engine, control, None, action, None, moment)
        applied += 1
    return applied


def _earliest_due(
    game: GameSession, engine: Engine, control: TimeControl, moment: float
) -> dict[str, Any] | None:
    candidates: list[tuple[float, dict[str, Any]]] = [
        (w["deadline"], {"type": WINDOW_CLOSED, "name": w["name"]})
        for w in game.windows
        if w["deadline"] <= moment
    ]
    groups = clocks.overdue(control, game.clocks, moment)
    if groups:
        when = clocks.deadline(control, game.clocks[str(groups[0][0])])
        candidates.append((when, engine.timeout_action(game.state, groups[0])))
    if not candidates:
        return None
    return min(candidates, key=lambda item: item[0])[1]


def bots_due(engine: Engine, state: dict[str, Any], seats: list[int]) -> list[int]:
    """Those of ``seats`` whose clock runs and who can act now: a clock may run on a seat
    that has nothing to play (DropMix: the side's extra moves), which only waits."""
    acting = set(engine.to_act(state))
    return [seat for seat in seats if seat in acting and engine.decision(state, seat)]


def legal_actions(game: GameSession, seat: int) -> list[dict[str, Any]]:
    if not game.is_running:
        return []
    return engine_for(game.engine).legal_actions(game.state, seat)
