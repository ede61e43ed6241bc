"""A page or an endpoint whose database is unreachable answers 503 with Retry-After, not a
500: the connection is pointed at a port nobody listens on, as a failover would leave it."""

from __future__ import annotations

import socket
from contextlib import contextmanager

import pytest
from django.db import connection


@contextmanager
def database_unreachable():
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        dead_port = free.getsockname()[1]
    kept = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=dead_port, NAME="unreachable")
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(kept)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a network database to lose")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_page_without_its_database_says_so_with_503(client, language):
    with database_unreachable():
        response = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    page = response.content.decode()
    assert ("Back in a moment" if language == "en" else "Скоро вернёмся") in page
    assert client.get("/tournaments/").status_code == 200  # the next request reconnects
