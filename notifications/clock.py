"""The notifications' clock: ``now()``, which tests move (with ``games.services.core.now``,
the server clock of the games, that the same tests move too: see tests/notifications)."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def now() -> float:
    return time.time()


def moment() -> datetime:
    """``now()`` as an aware datetime (reads ``now`` at each call, so a test can move it)."""
    return datetime.fromtimestamp(now(), tz=UTC)
