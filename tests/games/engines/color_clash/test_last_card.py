"""The "Last card!" call: before or within the window, Catch, Family night's automatic call."""

import pytest

from games.engines.base import IllegalAction, Window
from games.engines.color_clash import ENGINE
from tests.games.engines.color_clash.scenarios import act, hand, play, table

CALL = {"type": "call_last_card"}
CLOSE = {"type": "window_closed", "name": "last_card"}
GRACE_OVER = {"type": "window_closed", "name": "last_card_grace"}


def two_cards_left(seats=3, mode="classic"):
    hands = [["R1", "B2"], ["Y3", "Y4", "Y5"], ["G6", "G7", "G8"]][:seats]
    return table(hands, "R5", draw=["B7", "B8", "B9"], config={"mode": mode})


def test_call_before_playing_the_next_to_last_card_opens_no_window():
    state = two_cards_left()
    assert CALL in ENGINE.legal_actions(state, 0)
    act(state, 0, CALL)
    assert state["called"][0] and state["turn"] == 0
    act(state, 0, play("R1"))
    assert state["window"] is None and ENGINE.windows(state) == []
    assert ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction, match="too late"):
        act(state, 1, {"type": "catch", "target": 0})


def test_uncalled_next_to_last_card_opens_a_3_second_window_where_nobody_plays():
    state = two_cards_left()
    act(state, 0, play("R1"))
    assert ENGINE.windows(state) == [Window("last_card", 3.0, 0), Window("last_card_grace", 1.0, 0)]
    assert ENGINE.to_act(state) == [0, 1, 2]
    assert ENGINE.legal_actions(state, 0) == [CALL]
    assert ENGINE.legal_actions(state, 1) == [{"type": "catch", "target": 0}]
    assert ENGINE.decision(state, 1) is None  # the next turn's clock waits for the window
    with pytest.raises(IllegalAction, match="window is open"):
        act(state, 1, play("Y3"))


def test_calling_within_the_window_is_safe():
    state = two_cards_left()
    act(state, 0, play("R1"))
    act(state, 0, CALL)
    assert state["window"] is None and state["called"][0] and ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction, match="too late"):
        act(state, 2, {"type": "catch", "target": 0})


def test_catch_after_the_first_second_before_the_call_makes_the_player_draw_two():
    state = two_cards_left()
    act(state, 0, play("R1"))
    act(state, None, GRACE_OVER)
    events = act(state, 2, {"type": "catch", "target": 0})
    assert {"type": "caught", "seat": 2, "target": 0} in events
    assert hand(state, 0) == ["B2", "B7", "B8"]
    assert state["window"] is None and ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction, match="your turn"):
        act(state, 0, CALL)


def test_catch_after_the_window_closed_has_no_effect():
    state = two_cards_left()
    act(state, 0, play("R1"))
    with pytest.raises(IllegalAction, match="host"):
        act(state, 1, CLOSE)
    act(state, None, CLOSE)
    with pytest.raises(IllegalAction, match="too late"):
        act(state, 1, {"type": "catch", "target": 0})
    assert hand(state, 0) == ["B2"]


def test_nobody_catches_themselves_or_the_wrong_seat():
    state = two_cards_left()
    act(state, 0, play("R1"))
    with pytest.raises(IllegalAction, match="whose"):
        act(state, 1, {"type": "catch", "target": 2})
    with pytest.raises(IllegalAction, match="yourself"):
        act(state, 0, {"type": "catch", "target": 0})


def test_call_only_on_your_turn_holding_two_cards():
    state = table([["R1", "B2", "B3"], ["Y3", "Y4"]], "R5")
    assert CALL not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="two cards"):
        act(state, 0, CALL)
    with pytest.raises(IllegalAction, match="your turn"):
        act(state, 1, CALL)


def test_drawing_after_calling_resets_the_call():
    state = two_cards_left()
    act(state, 0, CALL)
    act(state, 0, {"type": "draw"})  # B9 does not match: the turn ends
    assert not state["called"][0]


def test_family_night_calls_automatically():
    state = two_cards_left(mode="family")
    assert CALL not in ENGINE.legal_actions(state, 0)
    events = act(state, 0, play("R1"))
    assert {"type": "last_card_called", "seat": 0, "automatic": True} in events
    assert state["window"] is None and state["called"][0]
    with pytest.raises(IllegalAction, match="Family night"):
        act(state, 0, CALL)


def test_two_players_reverse_as_skip_waits_for_the_window_then_plays_again():
    state = table([["RR", "B2"], ["Y3", "Y4", "Y5"]], "R5")
    act(state, 0, play("RR"))
    assert state["window"] == 0 and state["turn"] == 0
    act(state, None, CLOSE)
    assert ENGINE.to_act(state) == [0] and ENGINE.decision(state, 0) is not None


def test_catch_in_the_first_second_is_held_and_a_call_before_it_ends_voids_it():
    state = two_cards_left()
    act(state, 0, play("R1"))
    events = act(state, 2, {"type": "catch", "target": 0})  # a script, 0.25 s after the card
    assert events == [{"type": "catch_held", "seat": 2, "target": 0}]
    assert hand(state, 0) == ["B2"] and state["window"] == 0
    assert ENGINE.view(state, 2)["window"]["held"] == [2]
    assert {"type": "catch", "target": 0} not in ENGINE.legal_actions(state, 2)
    with pytest.raises(IllegalAction, match="already waiting"):
        act(state, 2, {"type": "catch", "target": 0})
    events = act(state, 0, CALL)  # the person calls at 0.6 s
    assert {"type": "catch_dropped", "seats": [2], "target": 0} in events
    assert not any(event["type"] == "caught" for event in events)
    assert hand(state, 0) == ["B2"] and state["window"] is None and ENGINE.windows(state) == []
    assert ENGINE.to_act(state) == [1]


def test_catch_held_in_the_first_second_takes_effect_when_it_ends_without_a_call():
    state = two_cards_left()
    act(state, 0, play("R1"))
    act(state, 1, {"type": "catch", "target": 0})
    act(state, 2, {"type": "catch", "target": 0})
    events = act(state, None, GRACE_OVER)
    assert {"type": "caught", "seat": 1, "target": 0} in events
    assert {"type": "drew", "seat": 0, "count": 2, "penalty": True} in events
    assert hand(state, 0) == ["B2", "B7", "B8"]
    assert state["window"] is None and ENGINE.windows(state) == []
    with pytest.raises(IllegalAction, match="your turn"):
        act(state, 0, CALL)


def test_the_first_second_passing_without_a_catch_leaves_the_window_open():
    state = two_cards_left()
    act(state, 0, play("R1"))
    events = act(state, None, GRACE_OVER)
    assert events == [{"type": "window_closed", "name": "last_card_grace", "seat": 0}]
    assert ENGINE.windows(state) == [Window("last_card", 3.0, 0)]
    with pytest.raises(IllegalAction, match="no such window"):
        act(state, None, GRACE_OVER)
    act(state, 0, CALL)
    assert hand(state, 0) == ["B2"] and state["window"] is None
