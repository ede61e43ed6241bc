"""The errors the tournaments' write paths answer with.

``hosting.core.errors`` holds the service-wide shape (a 400, 403, 404 or 409 with a message);
a refusal of a tournament's own rules is a ``TournamentUserError``, a 400 like any user error.
"""

from __future__ import annotations

from hosting.core.errors import UserError


class TournamentUserError(UserError):
    pass
