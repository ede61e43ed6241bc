from __future__ import annotations

import pytest

from tests.games.hosting_helpers import FakeClock


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    """The server's clock, moved by hand: the games' (``games.services.core.now``) and the
    notifications' own, which is the same time."""
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    monkeypatch.setattr("notifications.clock.now", fake)
    return fake


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(
        "ana", email="ana@example.org", password="pw-player-123"
    )
