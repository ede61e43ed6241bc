"""Signals of a Genius season for other packages to hear (the notifications among them).

``rules_changed``: a season's rules have a new version (a host edited them or published a
clarification). Sent once the change is committed, with ``tournament`` (the Tournament),
``version`` (the new ``RulesVersion``) and ``players`` (the user ids of the players still in,
who should be told). Nothing secret travels with it: a clarification's asker stays unnamed.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

rules_changed = Signal()


def send_rules_changed(tournament: Any, version: Any, players: list[int]) -> None:
    transaction.on_commit(
        lambda: rules_changed.send(
            sender=None, tournament=tournament, version=version, players=players
        ),
        robust=True,
    )
