"""Accounts authenticate as Django's ModelBackend does; the user of a signed-in request is read
with one fixed statement.

Every signed-in request (a browser player's move included) loads its user after its session:
through the ORM's query compiler that cost 760 us of CPU, written out 250-360 us (PostgreSQL,
in process). Permissions, password checks and ``is_active`` stay ModelBackend's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db import connections, router

from hosting.core import rows


class AccountBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        """The active user with this primary key (already converted from the session's)."""
        model = get_user_model()
        db = connections[router.db_for_read(model)]
        where = f"WHERE {db.ops.quote_name(model._meta.pk.column)} = %s"
        found = rows.load(db, model, where, [user_id])
        user = found[0] if found else None
        return user if user is not None and self.user_can_authenticate(user) else None
