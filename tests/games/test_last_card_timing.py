"""The "Last card!" catch ruling on the server's clock: a Catch in the first second after the
card lands is held, and takes effect at 1.0 s only if the player has not called by then. The
host closes that second like any window, so the log (and every replay of it) keeps the order."""

import pytest

from games import store
from tests.games.engines.color_clash.scenarios import hand, table
from tests.games.hosting_helpers import bot_client, claim, create_game

pytestmark = pytest.mark.django_db


def two_cards_left_game(organiser, clock) -> tuple[int, list]:
    game_id = create_game(organiser, "color_clash", 2, config={"mode": "classic"})
    players = [bot_client(claim(game_id, n, credential="token").token) for n in range(2)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    game = store.game(game_id)
    if game.status != "running":  # the client seeds' window: the deal follows its end
        clock.now = game.next_deadline.timestamp() + 0.01
        players[0].get(f"/api/games/{game_id}/")
    state = table([["R1", "B2"], ["Y3", "Y4", "Y5"]], "R5", draw=["B7", "B8", "B9"])
    type(store.game(game_id)).objects.filter(pk=game_id).update(state=state)
    return game_id, players


def act(player, game_id: int, action: dict):
    response = player.post(f"/api/games/{game_id}/actions", {"action": action}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_catch_within_the_first_second_and_a_call_at_0_6_s_costs_nothing(organiser, clock):
    game_id, (mover, catcher) = two_cards_left_game(organiser, clock)
    act(mover, game_id, {"type": "play", "card": "R1"})
    clock.advance(0.25)
    act(catcher, game_id, {"type": "catch", "target": 0})  # held, not refused
    window = catcher.get(f"/api/games/{game_id}/").json()["view"]["window"]
    assert window["held"] == [1] and window["grace"]
    clock.advance(0.35)
    act(mover, game_id, {"type": "call_last_card"})
    clock.advance(3.0)
    mover.get(f"/api/games/{game_id}/")
    game = store.game(game_id)
    assert hand(game.state, 0) == ["B2"]
    assert not any(e["type"] == "caught" for entry in game.log.all() for e in entry.events)


def test_a_catch_at_1_2_s_without_a_call_makes_the_player_draw_two(organiser, clock):
    game_id, (mover, catcher) = two_cards_left_game(organiser, clock)
    act(mover, game_id, {"type": "play", "card": "R1"})
    clock.advance(1.2)
    act(catcher, game_id, {"type": "catch", "target": 0})
    game = store.game(game_id)
    assert hand(game.state, 0) == ["B2", "B7", "B8"]
    actions = [(entry.seat, entry.action["type"]) for entry in game.log.order_by("seq")][-3:]
    # the host closed the first second at 1.0 s, before the Catch was applied
    assert actions == [(0, "play"), (None, "window_closed"), (1, "catch")]
    assert {"type": "caught", "seat": 1, "target": 0} in game.log.order_by("seq").last().events


def test_a_catch_held_in_the_first_second_lands_at_1_0_s_without_a_call(organiser, clock):
    game_id, (mover, catcher) = two_cards_left_game(organiser, clock)
    act(mover, game_id, {"type": "play", "card": "R1"})
    clock.advance(0.25)
    act(catcher, game_id, {"type": "catch", "target": 0})
    clock.advance(0.8)  # 1.05 s after the card: the held Catch has taken effect
    response = mover.post(
        f"/api/games/{game_id}/actions", {"action": {"type": "call_last_card"}}, format="json"
    )
    assert response.status_code in (400, 409), response.content
    game = store.game(game_id)
    assert hand(game.state, 0) == ["B2", "B7", "B8"]
