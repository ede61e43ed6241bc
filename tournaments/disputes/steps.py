"""The disputed game as a staff admin steps through it: every logged action with the whole
state after it, each seat's own view as it was then, the clocks (who was thinking, for how
long), and the fairness commitment with, once the game is over, its verification.

Everything here holds hidden information: only staff admins' pages and API read it."""

from __future__ import annotations

from typing import Any

from games import replays
from games.models import GameSession
from games.verification import verify_game
from tournaments.models import Dispute


def disputed_game(dispute: Dispute) -> int | None:
    """The game a dispute is about: the one it names, else its match's latest game (a
    dispute of a match's result that was filed without naming one of its games)."""
    if dispute.game_id is not None:
        return dispute.game_id
    games = dispute.match.match_games.order_by("-number").values_list("game_id", flat=True)
    return games.first()


def log(dispute: Dispute) -> dict[str, Any]:
    game_id = disputed_game(dispute)
    if game_id is None:
        return {"game": None, "seats": [], "steps": [], "fairness": None}
    game = GameSession.objects.get(pk=game_id)
    if game.state is None:  # never started: nothing was dealt
        return {"game": game.pk, "seats": [], "steps": [], "fairness": fairness(game)}
    replay = replays.steps(game, full=True)
    previous = replay["started"]
    for number, frame in enumerate(replay["steps"]):
        frame["number"] = number
        frame["thought"] = round(frame["at"] - previous, 3)  # since the step before
        frame["disputed"] = number in dispute.moves
        previous = frame["at"]
    return {
        "game": game.pk,
        "engine": game.engine,
        "status": game.status,
        "paused": game.is_paused,
        "origin": game.origin,
        "seats": replay["seats"],
        "steps": replay["steps"],
        "fairness": fairness(game),
    }


def fairness(game: GameSession) -> dict[str, Any]:
    """The seed's commitment; after the end, the seed and whether the log verifies."""
    if not game.is_over:
        return {"seed_sha256": game.seed_sha256, "seed": None, "verified": None}
    checked = verify_game(game)
    return {
        "seed_sha256": game.seed_sha256,
        "seed": game.seed,
        "verified": checked["verified"],
        "final_state_matches": checked["final_state_matches"],
        "seed_matches_commitment": checked["seed_matches_commitment"],
    }
