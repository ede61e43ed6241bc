"""Views: own hand only, counts for everyone, no hand for spectators, notation throughout."""

import random

from games.engines.color_clash import ENGINE
from tests.games.engines.color_clash.scenarios import act, table

KEYS = {
    "hand_counts",
    "top",
    "color",
    "direction",
    "to_act",
    "draw_pile",
    "discard_pile",
    "places",
    "scores",
    "round",
}


def test_a_seat_sees_its_hand_and_the_table():
    state = table([["W", "R1", "B2"], ["Y3", "Y4"]], "G5", draw=["G7"], rest="draw")
    seen = ENGINE.view(state, 0)
    assert KEYS | {"hand"} <= set(seen)
    assert seen["hand"] == ["R1", "B2", "W"]
    assert seen["hand_counts"] == {"0": 3, "1": 2}
    assert seen["top"] == "G5" and seen["color"] == "green" and seen["direction"] == 1
    assert seen["to_act"] == [0] and seen["scores"] == {"0": 0, "1": 0}
    assert seen["draw_pile"] == 108 - 6 and seen["discard_pile"] == 1
    assert seen["places"] == [] and seen["round"] == 1
    assert ENGINE.view(state, 1)["hand"] == ["Y3", "Y4"]


def test_a_spectator_sees_no_hand():
    state = table([["R1", "B2", "B3"], ["Y3", "Y4"]], "G5")
    seen = ENGINE.view(state, None)
    assert set(seen) >= KEYS and "hand" not in seen


def test_only_the_drawer_sees_which_card_it_drew():
    state = table([["B1", "B2", "B3"], ["Y3", "Y4"]], "R5", draw=["R7"])
    act(state, 0, {"type": "draw"})
    assert ENGINE.view(state, 0)["drawn"] == "R7"
    assert "drawn" not in ENGINE.view(state, 1) and ENGINE.view(state, 1)["drew"]


def test_resample_hidden_redeals_what_the_viewer_cannot_see():

    state = table([["B1", "B2", "B3"], ["Y3", "Y4"]], "R5", rest="draw")
    copy = ENGINE.resample_hidden(state, 0, random.Random(1))
    assert copy["hands"][0] == state["hands"][0]
    assert copy["hands"][1] != state["hands"][1] and len(copy["hands"][1]) == 2
    assert copy["draw_pile"] != state["draw_pile"]
    assert ENGINE.view(copy, 0) == ENGINE.view(state, 0)
