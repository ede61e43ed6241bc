"""50 clients posting, retrying and racing a timer on one game: nothing lost or doubled."""

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import engines, services
from games.engines.conformance import canonical, replay
from games.invites import invite_for
from games.models import GameEvent, GameSession
from games.services import SeatSpec
from tests.games.hosting_helpers import register_tiny, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 50
SEATS = 4


def test_fifty_clients_racing_a_timer_lose_and_double_nothing(postgres_only):
    register_tiny()
    game = services.game_create(
        engine_key="high_card",
        seats=[SeatSpec() for _ in range(SEATS)],
        config={"hand_size": 5, "applause_seconds": 0.01},
        time_control={"allowances": {"turn": 0.4}},
    )
    tokens = {}
    for number in range(SEATS):
        claim = services.seat_claim(
            game_id=game.pk, number=number, guest=_guest(number), invite=invite_for(game)
        )
        tokens[number] = claim.token
    services.game_start(game_id=game.pk, by=None)

    answers: list[tuple[int, str, int, dict]] = []  # (seat, client id, status, body)
    lock = threading.Lock()
    stop = threading.Event()

    def client_loop(index: int) -> None:
        seat = index % SEATS
        client = _client(tokens[seat])
        while not stop.is_set():
            state = client.get(f"/api/games/{game.pk}/").json()
            if state["status"] != "running":
                break
            legal = client.get(f"/api/games/{game.pk}/legal").json().get("actions", [])
            if not legal:
                time.sleep(0.005)
                continue
            action = legal[index % len(legal)]
            client_id = f"{seat}-{state['version']}-{index}"
            for _ in range(2):  # every client retries its post once, as a flaky network would
                response = client.post(
                    f"/api/games/{game.pk}/actions",
                    {"action": action, "client_action_id": client_id},
                    format="json",
                )
                with lock:
                    answers.append((seat, client_id, response.status_code, response.json()))
        connection.close()

    def timer_loop() -> None:
        while not stop.is_set():
            services.enforce_deadline(game_id=game.pk)
            time.sleep(0.01)
        connection.close()

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(CLIENTS)]
    threads.append(threading.Thread(target=timer_loop))
    for thread in threads:
        thread.start()
    finished = wait_for(lambda: GameSession.objects.get(pk=game.pk).status == "finished", 120)
    stop.set()
    for thread in threads:
        thread.join(30)
    assert finished

    final = GameSession.objects.get(pk=game.pk)
    log = list(final.log.order_by("seq"))
    # Versions strictly increase, with no gap.
    assert [e.seq for e in log] == list(range(1, final.version + 1))
    # No action lost: every accepted first answer is in the log under its client id.
    by_client_id = {(e.seat, e.client_action_id): e for e in log if e.client_action_id}
    accepted = [(s, c, b) for s, c, status, b in answers if status == 200]
    assert accepted
    for seat, client_id, body in accepted:
        event = by_client_id[(seat, client_id)]
        assert event.seq == body["version"]
    # None applied twice: a client id appears once in the log, and retries said "repeated".
    ids = [(e.seat, e.client_action_id) for e in log if e.client_action_id]
    assert len(ids) == len(set(ids))
    # Once a submission is accepted, every later post of it (a retry, or a slow client seeing
    # the same version again) is answered "repeated" with the first version. A retry may also
    # be the first acceptance, when a timeout made the refused action legal in between.
    for seat, client_id, first in accepted:
        later = [(st, b) for s, c, st, b in answers if (s, c) == (seat, client_id)]
        later = later[[b for _, b in later].index(first) + 1 :]
        assert all(st == 200 and b["repeated"] for st, b in later), later
        assert all(b["version"] == first["version"] for _, b in later)
    # A retry that arrives after the end is still recognised, and changes nothing.
    seat, client_id, first = next((s, c, b) for s, c, b in accepted if not b["repeated"])
    late = _client(tokens[seat]).post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "play", "card": 0}, "client_action_id": client_id},
        format="json",
    )
    assert late.status_code == 200
    assert late.json()["repeated"] and late.json()["version"] == first["version"]
    # Refusals were readable 4xx: out of turn, stale, or the game moved on.
    assert {status for _, _, status, _ in answers} <= {200, 400, 409}
    # The timer raced the clients and won some turns.
    assert any(e.seat is None and e.action["type"] == "timeout" for e in log)
    # The final state is exactly the replay of the log from the seed.
    engine = engines.get("high_card")
    rebuilt = replay(
        engine,
        final.config,
        SEATS,
        final.rng_seed,  # the effective seed: the server seed with the client seeds
        [(e.seat, e.action) for e in log],
    )
    assert canonical(rebuilt) == canonical(final.state)
    assert GameEvent.objects.filter(game=final).count() == final.version


def _guest(number: int):
    from hosting.core.identity import Guest

    return Guest(id=f"guest-{number}", name=f"Player {number}")


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Seat {token}")
    return client
