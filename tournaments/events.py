"""What happened to a tournament, told to the outside world (webhooks) once it is committed.

The services call ``emit`` where a tournament starts or finishes, a match becomes ready, gets a
result or is reset, and a dispute is filed or ruled. Receivers of ``tournament_event`` (the
webhooks) hear of it only after the transaction commits, so a rolled-back change is never told.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.dispatch import Signal

if TYPE_CHECKING:
    from tournaments.models import Entrant, Match

EVENTS = (
    "tournament.started",
    "match.ready",
    "match.result",
    "match.reset",
    "dispute.filed",
    "dispute.ruled",
    "tournament.finished",
    # Public notices and reminders (check-in, pairings, agreed match times), sent by
    # ``tournaments.notices`` to Discord endpoints only, never through ``emit``.
    "notice.public",
)

# Sent after the commit; keyword arguments ``tournament_id``, ``event`` and ``data`` (JSON-ready).
tournament_event = Signal()


def emit(tournament_id: int, event: str, **data: Any) -> None:
    """Tell ``tournament_event`` receivers of ``event`` once the current transaction commits."""
    if event not in EVENTS:
        raise ValueError(f"unknown tournament event {event!r}")
    # Robust: the change is committed by then; a receiver's failure is logged, and never
    # turns the request that made the change into an error.
    transaction.on_commit(
        lambda: tournament_event.send(
            sender=None, tournament_id=tournament_id, event=event, data=data
        ),
        robust=True,
    )


def _side(entrant: Entrant | None) -> dict[str, Any] | None:
    return None if entrant is None else {"id": entrant.pk, "name": entrant.display_name}


def match_data(match: Match) -> dict[str, Any]:
    """A match as its events tell it, as it stands when the event happens: where it is in the
    bracket, its two sides (by entrant id and display name), its result and hosted games."""
    return {
        "match": {
            "code": match.code,
            "stage": match.stage.number,
            "bracket": match.round.bracket,
            "round": match.round.number,
            "status": match.status,
            "home": _side(match.home),
            "away": _side(match.away),
            "best_of": match.best_of,
            "result_kind": match.result_kind,
            "home_score": match.home_score,
            "away_score": match.away_score,
            "winner": match.winner_id,
            "games": list(match.match_games.order_by("number").values_list("game_id", flat=True)),
        }
    }
