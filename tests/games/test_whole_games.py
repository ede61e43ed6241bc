"""Whole games of every engine, through the HTTP API alone and over SSE, with every message
checked for hidden cards: a delivered view must not change when what its viewer cannot see
is redealt."""

import json
import random
import threading

import httpx
import pytest

from games import engines, services
from games.engines.conformance import canonical, replay
from games.models import GameSession
from games.services import SeatSpec
from tests.games.hosting_helpers import (
    FakeClock,
    claim,
    create_game,
    guest_tokens,
    organiser_client,
)

ENGINES = [
    ("drafting_trios", 2),
    ("dropmix", 2),
    ("dropmix", 4),
    ("color_clash", 2),
    ("color_clash", 3),
]


def choose(engine, key: str, state: dict, seat: int, legal: list[dict], rng) -> dict:
    """Color Clash rounds under uniformly random play run to ~1,300 actions; its computer
    player (which reads the state, as only a test may) keeps them short. Others play random."""
    if key == "color_clash":
        pick = engine.bots["heuristic"](state, seat, rng)
        if pick in legal:
            return pick
    return rng.choice(legal)


def assert_no_leak(engine, state: dict, seat: int | None, delivered: dict, rng) -> None:
    assert delivered == json.loads(json.dumps(engine.view(state, seat)))
    redealt = engine.resample_hidden(state, seat, rng)
    assert canonical(engine.view(redealt, seat)) == canonical(delivered)


@pytest.mark.django_db
@pytest.mark.parametrize("key, seats", ENGINES)
def test_players_finish_a_whole_game_through_the_http_api_alone(
    key, seats, django_user_model, monkeypatch
):
    clock = FakeClock()
    monkeypatch.setattr("games.services.core.now", clock)
    engine = engines.get(key)
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, key, seats)
    players = [claim(game_id, n) for n in range(seats)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    rng = random.Random(7)
    checks = random.Random(8)
    for _ in range(5000):
        state = players[0].state(game_id)
        if state["status"] != "running":
            break
        # Players whose clock runs move; optional moves (a Catch) are left to engine tests.
        owing = [p for p in players if state["clocks"][str(p.seat)]["running"]]
        movers = [(p, p.legal(game_id)) for p in owing]
        movers = [(p, legal) for p, legal in movers if legal]
        if not movers:  # only the rules' own windows are open: let the server close them
            clock.advance(min(w["remaining"] for w in state["windows"]) + 0.01)
            continue
        player, legal = rng.choice(movers)
        current = GameSession.objects.get(pk=game_id).state
        response = player.act(
            game_id,
            choose(engine, key, current, player.seat, legal, rng),
            expected_version=state["version"],
            client_action_id=f"x{state['version']}",
        )
        assert response.status_code == 200, response.content
        body = response.json()
        game = GameSession.objects.get(pk=game_id)
        assert_no_leak(engine, game.state, player.seat, body["state"]["view"], checks)
    final = players[0].state(game_id)
    assert final["status"] == "finished", "the game did not end"
    assert final["outcome"]["winners"]
    verified = organiser.get(f"/api/games/{game_id}/verify").json()
    assert verified["verified"] is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key, seats", [("drafting_trios", 2), ("dropmix", 3), ("color_clash", 3)])
def test_every_sse_message_of_a_whole_game_carries_only_its_viewers_view(
    key, seats, asgi_server, settings, postgres_only, monkeypatch
):
    clock = FakeClock()
    monkeypatch.setattr("games.services.core.now", clock)
    engine = engines.get(key)
    game = services.game_create(engine_key=key, seats=[SeatSpec() for _ in range(seats)])
    tokens = guest_tokens(game, seats)
    viewers: list[int | None] = [*range(seats), None]
    received: dict[int | None, list[dict]] = {viewer: [] for viewer in viewers}
    ready = threading.Barrier(len(viewers) + 1)

    def listen(viewer: int | None) -> None:
        headers = {"Authorization": f"Seat {tokens[viewer]}"} if viewer is not None else {}
        url = f"{asgi_server}/live/games/{game.pk}/"
        with httpx.stream("GET", url, headers=headers, timeout=60) as stream:
            ready.wait()
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    payload = json.loads(line[6:])
                    received[viewer].append(payload)
                    if payload["status"] == "finished":
                        return

    threads = [threading.Thread(target=listen, args=(v,)) for v in viewers]
    for thread in threads:
        thread.start()
    services.game_start(game_id=game.pk, by=None)
    ready.wait()
    rng = random.Random(3)
    while True:
        current = GameSession.objects.get(pk=game.pk)
        if current.status != "running":
            break
        movers = [s for s in range(seats) if engine.decision(current.state, s) is not None]
        if not movers:  # only the rules' own windows are open: the server closes them
            clock.advance(min(w["deadline"] for w in current.windows) - clock.now + 0.01)
            services.enforce_deadline(game_id=game.pk)
            continue
        seat = rng.choice(movers)
        legal = engine.legal_actions(current.state, seat)
        services.act(
            game_id=game.pk, seat=seat, action=choose(engine, key, current.state, seat, legal, rng)
        )
    for thread in threads:
        thread.join(60)

    finished = GameSession.objects.get(pk=game.pk)
    log = [(e.seat, e.action) for e in finished.log.order_by("seq")]
    seed = finished.rng_seed  # what the deal drew from: the server seed and the client seeds
    checks = random.Random(5)
    for viewer, messages in received.items():
        assert messages and messages[-1]["status"] == "finished"
        versions = [m["version"] for m in messages]
        assert versions == sorted(set(versions))
        for message in messages:
            assert message["seat"] == viewer
            state = replay(engine, finished.config, seats, seed, log[: message["version"]])
            assert_no_leak(engine, state, viewer, message["view"], checks)
