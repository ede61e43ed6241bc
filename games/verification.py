"""Fair-play verification of an ended game, every part recomputed: the revealed server seed
matches the commitment published at its creation, the effective seed follows from it and the
seats' client seeds (``games.fairness``), and replaying the log from that seed rebuilds
exactly the final state."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import fairness, replays
from games.engines.conformance import canonical
from games.models import GameSession
from hosting.core.errors import Conflict


def verify_game(game: GameSession) -> dict[str, Any]:
    if not game.is_over:
        raise Conflict(_("a game can be verified once it has ended and its seed is revealed"))
    server_seed = bytes.fromhex(game.seed)
    seats = list(game.seats.order_by("number"))
    client_seeds = [seat.client_seed for seat in seats]
    if game.effective_seed:
        derived = fairness.effective_seed(server_seed, client_seeds)
        construction = fairness.CONSTRUCTION
        message = fairness.client_seed_message(client_seeds).decode()
    else:
        # Dealt before the seats had a part in it: from the server seed alone.
        derived, construction, message = server_seed, "server_seed", None
    rebuilt = replays.replayed(game, seed=derived)
    commitment_ok = fairness.commitment(server_seed) == game.seed_sha256
    derived_ok = derived == game.rng_seed
    state_ok = canonical(rebuilt) == canonical(game.state)
    return {
        "game": game.pk,
        "verified": commitment_ok and derived_ok and state_ok,
        "seed": game.seed,
        "seed_sha256": game.seed_sha256,
        "seed_matches_commitment": commitment_ok,
        "construction": construction,
        "client_seeds": [
            {"seat": seat.number, "name": seat.label(), "client_seed": seat.client_seed}
            for seat in seats
        ],
        "client_seed_message": message,
        "effective_seed": derived.hex(),
        "effective_seed_matches": derived_ok,
        "replayed_actions": game.log.count(),
        "final_state_matches": state_ok,
        "continued_from": game.origin,
    }
