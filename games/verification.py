"""Fair-play verification: the revealed seed matches its commitment, and replaying the log from
it rebuilds exactly the final state."""

from __future__ import annotations

import hashlib
from typing import Any

from games import engines, replays
from games.engines.base import StepRng
from games.engines.conformance import canonical, replay
from games.models import GameSession
from hosting.errors import Conflict


def verify_game(game: GameSession) -> dict[str, Any]:
    if not game.is_over:
        raise Conflict("a game can be verified once it has ended and its seed is revealed")
    seed = bytes.fromhex(game.seed)
    engine = engines.get(game.engine)
    log = [(event.seat, event.action) for event in game.log.order_by("seq")]
    if game.origin is None:
        rebuilt = replay(engine, game.config, game.seats.count(), seed, log)
    else:
        # Continued from another game's state (a dispute's rewind): rebuilt from that one.
        rebuilt, _ = replays.start_state(game)
        for step, (seat, action) in enumerate(log, start=1):
            engine.apply(rebuilt, seat, action, StepRng(seed, step))
    commitment_ok = hashlib.sha256(seed).hexdigest() == game.seed_sha256
    state_ok = canonical(rebuilt) == canonical(game.state)
    return {
        "game": game.pk,
        "verified": commitment_ok and state_ok,
        "seed": game.seed,
        "seed_sha256": game.seed_sha256,
        "seed_matches_commitment": commitment_ok,
        "replayed_actions": len(log),
        "final_state_matches": state_ok,
        "continued_from": game.origin,
    }
