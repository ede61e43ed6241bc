"""Timeouts and closing windows, applied when due: by the deadline's task, by the sweep, and
before every read or action, so the rules hold even with no worker running."""

from __future__ import annotations

from django.db import transaction

from games import store
from games.models import GameSession
from games.services import commit, core, creation


def enforce_deadline(*, game_id: int) -> int:
    """Apply every timeout and window that is due; returns how many were applied. Safe to call
    any number of times: it decides from the locked row and the server's clock alone.

    Most calls find nothing due (every commit schedules a task for its deadline, and the next
    move makes it moot), so an unlocked read rules those out before taking the row lock."""
    if not _may_be_due(store.game(game_id)):
        return 0
    with transaction.atomic():
        held = store.lock_game(game_id)
        if held is None:
            return 0
        game, seats, _repeated = held
        if creation.in_seed_window(game):
            if game.next_deadline.timestamp() > core.now() + core.DEADLINE_MARGIN_SECONDS:
                return 0
            creation.deal(game, seats)  # the window is over: the seeds sent are the seeds
            return 1
        if not game.is_running or game.is_paused:
            return 0
        engine = core.engine_for(game.engine)
        control = game.control(engine)
        applied = core.apply_overdue(game, engine, control, core.now())
        if applied:
            commit.save(game, seats)
        return applied


def fresh_game(*, game_id: int) -> GameSession | None:
    """The game as a read should see it, any overdue timeout applied first. The locking
    transaction runs only when the row says something is due: most reads then cost one query
    and never queue behind a write for the row lock."""
    game = store.game(game_id)
    if not _may_be_due(game):
        return game
    enforce_deadline(game_id=game_id)
    return store.game(game_id)


def _may_be_due(game: GameSession | None) -> bool:
    """Whether the row's earliest deadline has passed. ``next_deadline`` is the earliest of the
    open windows and running clocks, or a seed window's end; the margin covers its rounding to
    microseconds, so this never says no when the locked check would find something due."""
    if game is None or game.is_over or game.next_deadline is None:
        return False  # a waiting game's deadline is its seed window's end
    return game.next_deadline.timestamp() <= core.now() + core.DEADLINE_MARGIN_SECONDS
