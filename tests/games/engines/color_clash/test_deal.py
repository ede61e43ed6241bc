"""Dealing, the first card in Classic and Family night, and who deals and starts."""

from games.engines.color_clash import ENGINE
from games.engines.color_clash.cards import NOTATION
from games.engines.color_clash.rounds import end_round
from tests.games.engines.color_clash.scenarios import ArrangedDeck, deck_turning


def start(*turned, seats=2, mode="classic", positions=()):
    config = ENGINE.validate_config({"mode": mode}, seats)
    rng = ArrangedDeck(deck_turning(*turned, seats=seats), positions)
    return ENGINE.setup(config, seats, rng)


def top(state):
    return NOTATION[state["discard_pile"][-1]]


def test_seven_cards_each_and_the_rest_in_the_pile():
    state = start("R5", seats=4)
    assert [len(hand) for hand in state["hands"]] == [7] * 4
    assert len(state["draw_pile"]) == 108 - 28 - 1
    assert top(state) == "R5" and state["color"] == 0


def test_round_one_dealer_is_the_last_seat_and_the_next_seat_starts():
    state = start("B3", seats=4)
    assert state["dealer"] == 3 and state["turn"] == 0 and state["direction"] == 1


def test_classic_wild_draw_four_goes_back_into_the_pile_and_another_is_turned():
    state = start("W4", "G7", positions=[0])  # returned to the bottom of the pile
    assert top(state) == "G7"
    assert NOTATION[state["draw_pile"][0]] == "W4"
    assert len(state["discard_pile"]) == 1


def test_classic_skip_first_skips_the_first_player():
    state = start("RS", seats=3)
    assert state["turn"] == 1


def test_classic_reverse_first_lets_the_dealer_start_the_other_way():
    state = start("YR", seats=4)
    assert state["turn"] == 3 and state["direction"] == -1


def test_classic_draw_two_first_makes_the_first_player_draw_two_and_lose_the_turn():
    state = start("GD", seats=3)
    assert len(state["hands"][0]) == 9 and state["turn"] == 1


def test_classic_wild_first_lets_the_first_player_choose_then_play():
    state = start("W", seats=2)
    assert state["turn"] == 0 and state["choosing_color"] and state["color"] is None
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "choose_color", "color": name} for name in ("red", "blue", "yellow", "green")
    ]
    serial = state["serial"]
    ENGINE.apply(state, 0, {"type": "choose_color", "color": "yellow"}, None)
    assert state["color"] == 2 and state["turn"] == 0 and state["serial"] == serial
    assert {"type": "draw"} in ENGINE.legal_actions(state, 0)


def test_family_night_keeps_turning_until_a_number():
    state = start("W4", "RS", "W", "B8", mode="family")
    assert top(state) == "B8" and state["turn"] == 0 and state["direction"] == 1
    assert [NOTATION[card] for card in state["discard_pile"]] == ["W4", "RS", "W", "B8"]


def test_dealer_and_first_player_move_one_seat_each_round():
    state = ENGINE.setup(ENGINE.validate_config({"match": "five_rounds"}, 3), 3, ArrangedDeck([]))
    seen = []
    for _ in range(3):
        seen.append((state["round"], state["dealer"]))
        end_round(state, ArrangedDeck([]))
    assert seen == [(1, 2), (2, 0), (3, 1)]
