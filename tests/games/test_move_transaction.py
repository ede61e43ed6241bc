"""A move's transaction in two round trips (``games.store.move_transaction``): BEGIN travels
with the lock's statements and COMMIT with the save's; what a move commits, refuses or rolls
back is what ``transaction.atomic()`` did."""

import re
import tempfile

import pytest
from django.db import connection, transaction
from psycopg import pq
from rest_framework.test import APIClient

from games import services
from games.invites import invite_for
from games.models import GameEvent, GameSession
from games.services import SeatSpec
from hosting.core.identity import Guest
from tests.games.hosting_helpers import register_tiny

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seats(postgres_only):
    register_tiny()
    game = services.game_create(
        engine_key="high_card",
        seats=[SeatSpec(), SeatSpec()],
        config={"hand_size": 3, "applause_seconds": 0.01},
    )
    tokens = []
    for number in range(2):
        guest = Guest(id=f"guest-{number}", name=f"Player {number}")
        claim = services.seat_claim(
            game_id=game.pk, number=number, guest=guest, invite=invite_for(game)
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Seat {claim.token}")
        tokens.append(client)
    services.game_start(by=None, game_id=game.pk)
    return game.pk, tokens


def sent_queries(call):
    """Run ``call`` and return its answer and each query string the client sent to PostgreSQL
    meanwhile (libpq's protocol trace: one "Query" message per round trip)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            answer = call()
        finally:
            pgconn.untrace()
        trace.seek(0)
        # One entry per protocol message; a query's own line breaks continue its entry.
        entries = re.split(r"\n(?=[FB]\t)", trace.read())
    return answer, [
        e.split("\t", 3)[3].strip() for e in entries if e.startswith("F\t") and "\tQuery\t" in e
    ]


def mover(game_id, clients):
    for client in clients:
        legal = client.get(f"/api/games/{game_id}/legal").json().get("actions", [])
        if legal:
            return client, legal[0]
    raise AssertionError("no seat may act")


def test_a_move_is_two_round_trips_with_begin_and_commit_inside(seats):
    game_id, clients = seats
    client, action = mover(game_id, clients)
    response, queries = sent_queries(
        lambda: client.post(
            f"/api/games/{game_id}/actions",
            {"action": action, "client_action_id": "a-1"},
            format="json",
        )
    )
    assert response.status_code == 200, response.content
    assert len(queries) == 2, queries
    assert queries[0].startswith('"BEGIN;') and "FOR UPDATE" in queries[0]
    assert queries[1].endswith('COMMIT"') and "INSERT INTO" in queries[1]
    assert GameEvent.objects.filter(game_id=game_id, client_action_id="a-1").count() == 1
    assert GameSession.objects.get(pk=game_id).version == response.json()["version"]
    assert not connection.in_atomic_block and connection.get_autocommit()


def test_a_refusal_and_a_repeat_change_nothing_and_leave_no_transaction_open(seats):
    game_id, clients = seats
    client, action = mover(game_id, clients)
    version = GameSession.objects.get(pk=game_id).version
    refused = client.post(
        f"/api/games/{game_id}/actions", {"action": {"type": "play", "card": -1}}, format="json"
    )
    assert refused.status_code == 400
    first = client.post(
        f"/api/games/{game_id}/actions", {"action": action, "client_action_id": "b"}, format="json"
    )
    again = client.post(
        f"/api/games/{game_id}/actions", {"action": action, "client_action_id": "b"}, format="json"
    )
    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == first.json()["version"] == version + 1
    assert GameEvent.objects.filter(game_id=game_id, client_action_id="b").count() == 1
    status = connection.connection.info.transaction_status
    assert status == pq.TransactionStatus.IDLE and connection.get_autocommit()


def test_inside_another_transaction_it_is_that_transaction(seats):
    """Nested (an eager task, a caller's atomic block): no BEGIN or COMMIT of its own, and the
    caller's rollback takes the move back."""
    game_id, clients = seats
    client, action = mover(game_id, clients)
    version = GameSession.objects.get(pk=game_id).version
    with pytest.raises(RuntimeError), transaction.atomic():
        response, queries = sent_queries(
            lambda: client.post(f"/api/games/{game_id}/actions", {"action": action}, format="json")
        )
        assert response.status_code == 200
        # psycopg's own BEGIN of the caller's transaction, then savepoints: none of its own
        assert not any(q.startswith('"BEGIN;') or "COMMIT" in q for q in queries), queries
        raise RuntimeError("the caller gives up")
    assert GameSession.objects.get(pk=game_id).version == version
