"""What a client receives about a game: the engine's view for its seat and the host's data.

The engine's ``view`` is the only game content sent; the rest is public (seats, clocks, seed
commitment) or revealed after the end (the seed).
"""

from __future__ import annotations

from typing import Any

from games import clocks, engines
from games.models import GameSession, Seat


def game_payload(game: GameSession, seat: Seat | None, moment: float) -> dict[str, Any]:
    engine = engines.get(game.engine)
    control = game.control(engine)
    number = seat.number if seat is not None else None
    payload: dict[str, Any] = {
        "game": game.pk,
        "engine": game.engine,
        "status": game.status,
        "version": game.version,
        "seat": number,
        "seed_sha256": game.seed_sha256,
        "seats": [
            {
                "number": s.number,
                "name": s.label(),
                "kind": s.kind,
                "role": s.role,
                "claimed": s.is_claimed,
                "connected": s.connected or s.is_computer,
            }
            for s in game.seats.all()
        ],
        "time_control": game.time_control,
    }
    if game.state is not None:
        payload["view"] = engine.view(game.state, number)
        if number is not None and game.is_running:
            # A seat's own choices (they come from its own cards): one request saved per move.
            payload["legal"] = engine.legal_actions(game.state, number)
        payload["clocks"] = {
            key: clocks.remaining(control, clock, moment) for key, clock in game.clocks.items()
        }
        payload["windows"] = [
            {"name": w["name"], "seat": w["seat"], "remaining": max(0.0, w["deadline"] - moment)}
            for w in game.windows
        ]
    if game.is_over:
        payload["outcome"] = game.outcome
        payload["seed"] = game.seed
    return payload
