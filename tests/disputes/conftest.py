import pytest

from tests.games.hosting_helpers import FakeClock


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake
