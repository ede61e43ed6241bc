"""A turn: matching, Wilds, drawing, passing, action cards, reshuffles and the turn timer."""

import pytest

from games.engines.base import IllegalAction
from games.engines.color_clash import ENGINE
from games.engines.color_clash.cards import NOTATION
from tests.games.engines.color_clash.scenarios import act, hand, play, table


def plays(state, seat=0):
    return sorted(
        (action["card"], action.get("color", ""))
        for action in ENGINE.legal_actions(state, seat)
        if action["type"] == "play"
    )


def test_match_by_colour_number_or_symbol_and_wilds_always():
    state = table([["R2", "B5", "BS", "G9", "W", "Y5"], ["R1"]], "G5")
    assert plays(state) == [
        ("B5", ""),
        ("G9", ""),
        ("W", "blue"),
        ("W", "green"),
        ("W", "red"),
        ("W", "yellow"),
        ("Y5", ""),
    ]
    state = table([["RS", "B5"], ["R1"]], "GS")
    assert plays(state) == [("RS", "")]


def test_two_copies_of_a_card_give_one_action_and_either_may_be_played():
    state = table([["R5", "R5", "B1"], ["R1"]], "R3")
    assert plays(state) == [("R5", "")]
    act(state, 0, play("R5"))
    assert hand(state, 0) == ["B1", "R5"]


def test_a_card_that_does_not_match_is_refused_with_a_reason():
    state = table([["B7", "R1"], ["R1"]], "G5")
    with pytest.raises(IllegalAction, match="matches neither"):
        act(state, 0, play("B7"))
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 0, play("G5"))
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 1, play("R1"))


def test_wild_sets_the_colour_to_match_next():
    state = table([["W", "B1", "B2"], ["Y3", "G4"]], "R5")
    with pytest.raises(IllegalAction, match="needs a colour"):
        act(state, 0, play("W"))
    act(state, 0, play("W", "green"))
    assert state["color"] == 3 and state["turn"] == 1
    assert plays(state, 1) == [("G4", "")]


def test_wild_draw_four_only_without_a_card_of_the_colour_in_force():
    holding_red = table([["W4", "R1", "B2"], ["Y3"]], "R5")
    assert ("W4", "blue") not in plays(holding_red)
    with pytest.raises(IllegalAction, match="no red card"):
        act(holding_red, 0, play("W4", "blue"))
    # a red 5 on top but blue in force after a Wild: holding red is fine, blue is not
    state = table([["W4", "R1", "G2"], ["Y3", "Y4"]], "W", color="blue")
    assert ("W4", "red") in plays(state)
    act(state, 0, play("W4", "red"))
    assert len(state["hands"][1]) == 6 and state["turn"] == 0 and state["color"] == 0


def test_draw_then_play_the_drawn_card_at_once():
    state = table([["B1", "B2"], ["Y3", "Y4"]], "R5", draw=["R7", "G1"])
    serial = state["serial"]
    act(state, 0, {"type": "draw"})
    assert state["turn"] == 0 and state["drawn"] is not None
    assert ENGINE.decision(state, 0).serial == serial  # drawing adds no time
    assert ENGINE.legal_actions(state, 0) == [play("R7"), {"type": "pass"}]
    with pytest.raises(IllegalAction, match="only play the card you drew"):
        act(state, 0, play("B1"))
    with pytest.raises(IllegalAction, match="already drawn"):
        act(state, 0, {"type": "draw"})
    act(state, 0, play("R7"))
    assert state["turn"] == 1 and hand(state, 0) == ["B1", "B2"]


def test_drawn_card_that_cannot_be_played_is_kept_and_the_turn_ends():
    state = table([["B1", "B2"], ["Y3", "Y4"]], "R5", draw=["G1"])
    serial = state["serial"]
    act(state, 0, {"type": "draw"})
    assert hand(state, 0) == ["B1", "B2", "G1"]
    assert state["turn"] == 1 and state["serial"] == serial + 1


def test_pass_only_after_drawing_or_when_nothing_can_be_drawn():
    state = table([["B1", "B2"], ["Y3", "Y4"]], "R5", draw=["R7"])
    with pytest.raises(IllegalAction, match="only after drawing"):
        act(state, 0, {"type": "pass"})
    act(state, 0, {"type": "draw"})
    act(state, 0, {"type": "pass"})
    assert state["turn"] == 1 and hand(state, 0) == ["B1", "B2", "R7"]


def test_empty_pile_reshuffles_the_discards_under_the_top_card():
    state = table([["B1", "B2"], ["Y3", "Y4"]], "R5", rest="discard")
    assert state["draw_pile"] == [] and len(state["discard_pile"]) == 104
    act(state, 0, {"type": "draw"}, seed=3)
    assert len(state["discard_pile"]) == 1 and NOTATION[state["discard_pile"][0]] == "R5"
    assert len(state["draw_pile"]) == 102 and len(state["hands"][0]) == 3


def test_nothing_to_draw_and_no_play_means_pass():
    state = table([["B1", "B2", "B3"], ["Y3", "Y4"]], "R5", rest=None)
    assert ENGINE.legal_actions(state, 0) == [{"type": "pass"}]
    act(state, 0, {"type": "pass"})
    assert state["turn"] == 1
    playable = table([["B1", "R2", "B3"], ["Y3", "Y4"]], "R5", rest=None)
    assert ENGINE.legal_actions(playable, 0) == [play("R2")]
    with pytest.raises(IllegalAction, match="must play"):
        act(playable, 0, {"type": "pass"})


def test_skip_skips_the_next_player():
    state = table([["RS", "B1"], ["Y3"], ["G4"]], "R5")
    act(state, 0, play("RS"))
    assert state["turn"] == 2


def test_reverse_changes_direction():
    state = table([["RR", "B1"], ["Y3"], ["G4"]], "R5")
    act(state, 0, play("RR"))
    assert state["direction"] == -1 and state["turn"] == 2


def test_reverse_with_two_players_left_acts_as_skip():
    state = table([["RR", "B1", "B2"], ["Y3"]], "R5")
    act(state, 0, play("RR"))
    assert state["turn"] == 0 and state["direction"] == -1


def test_draw_two_makes_the_next_draw_two_and_lose_the_turn_no_stacking():
    state = table([["RD", "B1", "B2"], ["GD", "Y3"], ["G4"]], "R5", draw=["B7", "B8"])
    act(state, 0, play("RD"))
    assert hand(state, 1) == ["B7", "B8", "GD", "Y3"]
    assert state["turn"] == 2  # seat 1 cannot answer with its own Draw Two
    assert ENGINE.legal_actions(state, 1) == []


def test_wild_draw_four_makes_the_next_draw_four_and_lose_the_turn():
    state = table([["W4", "B1"], ["Y3"], ["G4"]], "R5", draw=["B7", "B8", "B9", "G1"])
    act(state, 0, play("W4", "blue"))
    assert len(state["hands"][1]) == 5 and state["turn"] == 2 and state["color"] == 1


def test_timeout_draws_one_and_ends_the_turn_never_plays():
    state = table([["R1", "R2"], ["Y3"]], "R5", draw=["R7"])
    decision = ENGINE.decision(state, 0)
    assert decision.phase == "turn"
    timeout = ENGINE.timeout_action(state, [0])
    assert timeout == {"type": "timeout", "seats": [0]}
    act(state, None, timeout)
    assert hand(state, 0) == ["R1", "R2", "R7"] and state["turn"] == 1
    assert ENGINE.decision(state, 1).serial == decision.serial + 1


def test_timeout_after_drawing_just_ends_the_turn():
    state = table([["B1", "B2"], ["Y3"]], "R5", draw=["R7", "G2"])
    act(state, 0, {"type": "draw"})
    act(state, None, {"type": "timeout", "seats": [0]})
    assert hand(state, 0) == ["B1", "B2", "R7"] and state["turn"] == 1


def test_timeout_is_a_system_action_for_the_seat_to_play_only():
    state = table([["B1", "B2"], ["Y3"]], "R5")
    with pytest.raises(IllegalAction, match="host"):
        act(state, 0, {"type": "timeout", "seats": [0]})
    with pytest.raises(IllegalAction, match="whose turn"):
        act(state, None, {"type": "timeout", "seats": [1]})
    assert ENGINE.decision(state, 1) is None


def test_unknown_actions_are_refused():
    state = table([["B1", "B2"], ["Y3"]], "R5")
    for action in ({"type": "dance"}, {"type": ["play"]}, {}):
        with pytest.raises(IllegalAction, match="unknown action"):
            ENGINE.validate(state, 0, action)
