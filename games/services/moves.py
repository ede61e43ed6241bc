"""A seat's action, a person's or a computer's: the write path of every move."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import store
from games.access import SeatKey
from games.engines.base import SYSTEM_ACTIONS, IllegalAction
from games.models import GameSession
from games.payloads import render_all
from games.services import commit, core
from hosting.core.errors import Conflict, Forbidden, UserError


@dataclass(frozen=True)
class ActResult:
    version: int
    game: GameSession
    seat: int
    payloads: dict[str, str]  # each audience's payload of the game as it now is
    repeated: bool = False


def act(
    *,
    game_id: int,
    seat: int | SeatKey,
    action: Any,
    client_action_id: str | None = None,
    expected_version: int | None = None,
) -> ActResult:
    """Apply one seat's action. A repeated ``client_action_id`` returns the first answer; a
    stale ``expected_version`` is a 409; an illegal action is refused with the engine's reason.
    Refusals change nothing (overdue timeouts found on the way are still applied).

    ``seat`` is its number, or a request's credential (``SeatKey``): the seat is then found
    among the seats the lock reads, and a credential that holds none is a 403."""
    _check_action_shape(action, client_action_id)
    key = seat if isinstance(seat, SeatKey) else SeatKey.number(seat)
    repeat_of = (key.column, key.value, client_action_id) if client_action_id else None
    refusal: Exception | None = None
    payloads: dict[str, str] = {}
    with store.move_transaction():
        game, seats, first = core.lock(game_id, repeat_of)
        player = key.find(seats)
        if player is None:
            raise Forbidden(_("you hold no seat in this game"))
        number = player.number
        if first is not None:
            payloads = render_all(game, seats, core.now())
            return ActResult(first, game, number, payloads, repeated=True)
        if game.is_paused:
            raise Conflict(_("this game is paused while a dispute is looked at"), code="paused")
        engine = core.engine_for(game.engine)
        control = game.control(engine)
        moment = core.now()
        changed = core.apply_overdue(game, engine, control, moment)
        try:
            if not game.is_running:
                raise Conflict(
                    _("this game is over") if game.is_over else _("this game has not started")
                )
            if expected_version is not None and expected_version != game.version:
                raise Conflict(
                    f"the game moved on: you saw version {expected_version}, "
                    f"it is now at version {game.version}",
                    code="stale_version",
                )
            if action["type"] in SYSTEM_ACTIONS:
                raise UserError(
                    _("%(type)r is applied by the server only") % {"type": action["type"]}
                )
            core.apply(game, engine, control, number, action, client_action_id, moment)
        except (IllegalAction, UserError) as error:
            refusal = error
            if changed:
                commit.save(game, seats)
        else:
            payloads = commit.save(game, seats)
    if refusal is not None:
        raise refusal
    return ActResult(game.version, game, number, payloads)


def _check_action_shape(action: Any, client_action_id: str | None) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise UserError('an action is a JSON object with a "type", e.g. {"type": "draw"}')
    if client_action_id is not None and (
        not isinstance(client_action_id, str) or not 1 <= len(client_action_id) <= 64
    ):
        raise UserError(_("client_action_id must be a string of 1 to 64 characters"))


def bot_act(*, game_id: int, seat: int, version: int) -> bool:
    """A computer seat plays, if the game is still where it was when the move was scheduled."""
    with store.move_transaction():
        held = store.lock_game(game_id)
        if held is None or not held[0].is_running or held[0].version != version:
            return False
        if held[0].is_paused:
            return False  # the resume schedules the computers again
        game, seats, _repeated = held
        player = core.find_seat(seats, seat)
        engine = core.engine_for(game.engine)
        if not player.is_computer or seat not in core.bots_due(engine, game.state, [seat]):
            return False
        control = game.control(engine)
        rng = random.Random(f"{game.seed}:{version}:{seat}:bot")
        action = engine.bots[player.bot or core.default_bot(engine)](game.state, seat, rng)
        core.apply(game, engine, control, seat, action, f"bot-{version}", core.now())
        commit.save(game, seats)
        return True
