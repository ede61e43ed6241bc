"""Fixtures of the hosted-game tests: the server clock held by hand, the test engine, an
organiser's API client."""

import pytest

from tests.games.hosting_helpers import FakeClock, organiser_client, register_tiny


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


@pytest.fixture
def engine():
    return register_tiny()


@pytest.fixture
def organiser(django_user_model):
    return organiser_client(django_user_model)
