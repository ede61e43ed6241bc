"""Celery tasks: thin wrappers that call services. Each takes ids and does nothing when the
game has moved on, since Redis may deliver an ETA task twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.enforce_deadline", ignore_result=True)
def enforce_deadline(game_id: int, version: int) -> int:
    from games.services import enforce_deadline as enforce

    return enforce(game_id=game_id)


@shared_task(name="games.bot_act", ignore_result=True)
def bot_act(game_id: int, seat: int, version: int) -> bool:
    from games.services import bot_act as play

    return play(game_id=game_id, seat=seat, version=version)


@shared_task(name="games.substitute_if_still_away", ignore_result=True)
def substitute_if_still_away(game_id: int, seat: int, since: float) -> bool:
    from games.services import substitute_if_still_away as substitute

    return substitute(game_id=game_id, seat=seat, since=since)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    from games.timers import sweep_overdue as sweep

    return sweep()


@shared_task(name="games.rooms_sweep", ignore_result=True)
def rooms_sweep() -> int:
    from games.rooms.services import rooms_sweep as sweep

    return sweep()
