"""The write paths of a hosted game; nothing else changes a game.

Each one runs in a transaction with the game row locked (``select_for_update``): validate,
call the pure engine and clocks, persist, append to the log, and after commit publish the new
version and schedule what must happen next (deadlines, windows, computer players). Every read
or action first applies any overdue timeout, so the rules hold even with no worker running.

One module per family of actions: ``creation`` (create, seats, seeds, the deal), ``moves``,
``deadlines``, ``substitutes``, ``interruptions`` (void, pause, resume), over ``commit`` (save,
publish, schedule) and ``core`` (clock, lock, apply, settle); ``steering`` says who may start,
void, pause or resume a game. Callers use the names below.
"""

from games.services import core
from games.services.core import engine_for, legal_actions, time_control_defaults
from games.services.creation import (
    SeatSpec,
    client_seed_send,
    game_continue_from,
    game_create,
    game_open_seed_window,
    game_start,
    in_seed_window,
    seat_claim,
    seat_token_issue,
)
from games.services.deadlines import enforce_deadline, fresh_game
from games.services.interruptions import game_pause, game_resume, game_void
from games.services.moves import act, bot_act
from games.services.steering import check_steers, steers
from games.services.substitutes import (
    mark_connected,
    mark_disconnected,
    seat_leave,
    substitute_if_still_away,
)


def now() -> float:
    """The server's clock: ``core.now``, which tests move (so this reads it at each call)."""
    return core.now()


__all__ = [
    "SeatSpec",
    "act",
    "bot_act",
    "check_steers",
    "client_seed_send",
    "enforce_deadline",
    "engine_for",
    "fresh_game",
    "game_continue_from",
    "game_create",
    "game_open_seed_window",
    "game_pause",
    "game_resume",
    "game_start",
    "game_void",
    "in_seed_window",
    "legal_actions",
    "mark_connected",
    "mark_disconnected",
    "now",
    "seat_claim",
    "seat_leave",
    "seat_token_issue",
    "steers",
    "substitute_if_still_away",
    "time_control_defaults",
]
