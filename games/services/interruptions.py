"""A game stopped or held from outside: voided (a corrected result reset its match), paused
and resumed (a dispute is looked at)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import clocks
from games.models import GameSession
from games.services import commit, core, steering
from hosting.core.errors import Conflict


def game_void(*, game_id: int, reason: str, by: Any) -> bool:
    """Stop a game that no longer counts (a corrected result reset its match). It ends as
    ``aborted`` with no winner and its log whole, so the seed is revealed and it still
    verifies; nothing listens for its result. A game already over is left as it ended.
    ``by`` steers the game (``steering``)."""
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        steering.check_steers(game, by)
        if game.is_over:
            return False
        # A paused game stops as it stood at the pause: the pause costs nobody time.
        moment = game.paused_at if game.is_paused else core.now()
        game.paused_at = None
        if game.state is not None:
            control = game.control(core.engine_for(game.engine))
            game.clocks = {key: clocks.stop(control, c, moment) for key, c in game.clocks.items()}
        game.windows = []
        game.next_deadline = None
        game.status = GameSession.Status.ABORTED
        game.outcome = {"voided": True, "reason": reason, "winners": [], "ranking": []}
        game.finished = datetime.fromtimestamp(moment, tz=UTC)
        commit.save(game, seats)
        return True


def game_pause(*, game_id: int, by: Any) -> float:
    """Hold a running game's clocks and windows (a dispute is looked at): nobody acts and no
    deadline passes until ``game_resume``. Returns the moment it paused. ``by`` steers the
    game (``steering``)."""
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        steering.check_steers(game, by)
        if not game.is_running:
            raise Conflict(_("only a running game can be paused"))
        if game.is_paused:
            raise Conflict(_("this game is already paused"))
        moment = core.now()
        engine = core.engine_for(game.engine)
        if core.apply_overdue(game, engine, game.control(engine), moment) and not game.is_running:
            commit.save(game, seats)  # it ran out of time before the pause: nothing left to hold
            raise Conflict(_("this game ended before it could be paused"))
        game.paused_at = moment
        game.next_deadline = None
        commit.save(game, seats)
        return moment


def game_resume(*, game_id: int, by: Any) -> float:
    """Let a paused game run on: every running clock and open window gets back exactly the
    time the pause lasted (``clocks.resumed``). Returns how many seconds it was paused.
    ``by`` steers the game (``steering``)."""
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        steering.check_steers(game, by)
        if not game.is_paused:
            raise Conflict(_("this game is not paused"))
        moment = core.now()
        paused_at, game.paused_at = game.paused_at, None
        if game.is_running:
            engine = core.engine_for(game.engine)
            game.clocks = {
                key: clocks.resumed(clock, paused_at, moment) for key, clock in game.clocks.items()
            }
            game.windows = clocks.resumed_windows(game.windows, paused_at, moment)
            core.settle(game, engine, game.control(engine), moment)
        commit.save(game, seats)
        return moment - paused_at


# -- the shared core --------------------------------------------------------------------------
