"""What happened to a tournament, told to the outside world (webhooks) once it is committed.

The services call ``emit`` where a tournament starts or finishes, a match becomes ready, gets a
result or is reset, and a dispute is filed or ruled. Receivers of ``tournament_event`` (the
webhooks) hear of it only after the transaction commits, so a rolled-back change is never told.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

EVENTS = (
    "tournament.started",
    "match.ready",
    "match.result",
    "match.reset",
    "dispute.filed",
    "dispute.ruled",
    "tournament.finished",
)

# Sent after the commit; keyword arguments ``tournament_id``, ``event`` and ``data`` (JSON-ready).
tournament_event = Signal()


def emit(tournament_id: int, event: str, **data: Any) -> None:
    """Tell ``tournament_event`` receivers of ``event`` once the current transaction commits."""
    if event not in EVENTS:
        raise ValueError(f"unknown tournament event {event!r}")
    transaction.on_commit(
        lambda: tournament_event.send(
            sender=None, tournament_id=tournament_id, event=event, data=data
        )
    )
