"""Going out, places, scoring, stalled rounds, substitutes, match lengths and the outcome."""

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.color_clash import ENGINE
from games.engines.color_clash.rounds import end_round
from tests.games.engines.color_clash.scenarios import act, hand, play, table


def test_first_out_scores_the_cards_left_in_the_other_hands():
    state = table([["R1"], ["B7", "YS", "W", "G0"]], "R5")
    events = act(state, 0, play("R1"))
    assert {"type": "went_out", "seat": 0, "place": 1} in events
    assert state["over"] and state["scores"] == [77, 0]
    result = ENGINE.outcome(state)
    assert result.winners == [0] and result.ranking == [[0], [1]]
    assert result.scores == {0: 77, 1: 0}
    assert result.details["rounds"] == [
        {"round": 1, "places": [0, 1], "winner": 0, "points": {"0": 77, "1": 0}, "stalled": False}
    ]
    assert result.details["totals"] == {"0": 77, "1": 0}


@pytest.mark.parametrize(("last", "drawn", "points"), [("RD", 2, 7 + 1 + 2), ("W4", 4, 7 + 10)])
def test_a_last_draw_two_or_draw_four_is_still_drawn_and_counts(last, drawn, points):
    state = table([[last], ["B7"]], "R5", draw=["B1", "B2", "B3", "B4"])
    action = play(last, "blue") if last == "W4" else play(last)
    act(state, 0, action)
    assert len(state["hands"][1]) == 1 + drawn
    assert state["scores"] == [points, 0]


def test_three_players_play_on_for_places_skipping_the_empty_seat():
    config = {"mode": "family", "match": "one_round"}
    state = table([["R1"], ["R2", "R4"], ["RS", "R6", "G7"]], "R9", config=config)
    act(state, 0, play("R1"))
    assert state["places"] == [0] and state["round_points"] == [2 + 4 + 20 + 6 + 7, 0, 0]
    assert not state["over"] and state["turn"] == 1
    act(state, 1, play("R2"))
    assert state["turn"] == 2
    act(state, 2, play("RS"))  # skips seat 1; seat 0 has left the round
    assert state["turn"] == 2
    act(state, 2, play("R6"))
    assert state["turn"] == 1
    act(state, 1, play("R4"))
    assert state["over"]
    record = state["rounds"][0]
    assert record["places"] == [0, 1, 2] and record["winner"] == 0
    assert record["points"] == {"0": 39, "1": 0, "2": 0}
    assert ENGINE.outcome(state).ranking == [[0], [1], [2]]


def test_skip_and_reverse_pass_over_empty_seats():
    hands = [["RS", "RR", "B1"], [], ["G1", "G2"], ["Y1", "Y2"]]
    state = table(hands, "R5", places=[1])
    act(state, 0, play("RS"))
    assert state["turn"] == 3  # seat 1 is empty, seat 2 is skipped
    state = table(hands, "R5", places=[1])
    act(state, 0, play("RR"))
    assert state["turn"] == 3 and state["direction"] == -1
    state = table(hands, "R5", places=[1], direction=-1)
    act(state, 0, play("RR"))
    assert state["turn"] == 2  # back clockwise, over the empty seat 1


def test_two_laps_with_nobody_able_to_play_or_draw_end_the_round_with_no_winner():
    # unreachable with the full deck (a Wild is always in some hand): the guard still holds
    state = table([["B1", "B2", "B3"], ["G1", "G2", "G3"]], "R5", rest=None)
    for seat in (0, 1, 0):
        act(state, seat, {"type": "pass"})
        assert not state["over"]
    act(state, 1, {"type": "pass"})
    assert state["over"] and state["scores"] == [0, 0]
    record = state["rounds"][0]
    assert record["stalled"] and record["winner"] is None and record["places"] == []
    result = ENGINE.outcome(state)
    assert result.winners == [] and result.ranking == [[0, 1]]


def test_a_substitute_going_out_first_means_nobody_scores():
    state = table([["R1"], ["B7", "W"]], "R5", config={"substitutes": [0]})
    act(state, 0, play("R1"))
    assert state["scores"] == [0, 0] and state["rounds"][0]["winner"] == 0
    assert state["rounds"][0]["substitutes"] == [0]


def test_the_host_puts_substitutes_in_and_out_of_seats():
    state = table([["R1", "B3", "B4"], ["B7", "W"]], "R5")
    events = act(state, None, {"type": "substitute", "seat": 0, "on": True})
    assert events == [{"type": "substitute", "seat": 0, "on": True}]
    assert ENGINE.view(state, None)["substitutes"] == [0]
    with pytest.raises(IllegalAction, match="already"):
        act(state, None, {"type": "substitute", "seat": 0, "on": True})
    with pytest.raises(IllegalAction, match="host"):
        act(state, 1, {"type": "substitute", "seat": 0, "on": False})
    with pytest.raises(IllegalAction, match="no seat"):
        act(state, None, {"type": "substitute", "seat": 5, "on": False})
    act(state, None, {"type": "substitute", "seat": 0, "on": False})
    assert state["substitutes"] == []


def finish_round(state, points, rng):
    state["round_points"] = points
    state["places"] = [points.index(max(points))]
    return end_round(state, rng)


def test_three_rounds_highest_total_wins_and_ties_share():
    rng = random.Random(4)
    state = ENGINE.setup(ENGINE.validate_config({"mode": "family"}, 3), 3, rng)
    finish_round(state, [50, 0, 0], rng)
    assert state["round"] == 2 and not state["over"]
    assert all(len(hand) == 7 for hand in state["hands"])
    finish_round(state, [0, 40, 0], rng)
    events = finish_round(state, [0, 10, 0], rng)
    assert state["over"] and events[-1]["type"] == "match_ended"
    result = ENGINE.outcome(state)
    assert result.winners == [0, 1] and result.ranking == [[0, 1], [2]]
    assert [record["round"] for record in result.details["rounds"]] == [1, 2, 3]
    assert result.metrics["rounds_won"] == {0: 1, 1: 2, 2: 0}


def test_five_rounds_and_first_to_500():
    rng = random.Random(5)
    state = ENGINE.setup(ENGINE.validate_config({"match": "five_rounds"}, 2), 2, rng)
    for _ in range(4):
        finish_round(state, [10, 0], rng)
    assert not state["over"]
    finish_round(state, [0, 10], rng)
    assert state["over"] and state["scores"] == [40, 10]

    state = ENGINE.setup(ENGINE.validate_config({"match": "to_500"}, 2), 2, rng)
    finish_round(state, [480, 0], rng)
    assert not state["over"]
    finish_round(state, [0, 30], rng)
    assert not state["over"]
    finish_round(state, [20, 0], rng)
    assert state["over"] and ENGINE.outcome(state).winners == [0]
    assert ENGINE.outcome(state).scores == {0: 500, 1: 30}


def test_first_to_500_ends_when_every_seat_is_a_substitute():
    rng = random.Random(6)
    config = ENGINE.validate_config({"match": "to_500", "substitutes": [0, 1]}, 2)
    state = ENGINE.setup(config, 2, rng)
    finish_round(state, [0, 0], rng)
    assert state["over"] and "substitute" in state["end_reason"]


def test_a_finished_match_refuses_every_action():
    state = table([["R1"], ["B7"]], "R5")
    act(state, 0, play("R1"))
    assert ENGINE.to_act(state) == [] and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        act(state, 1, {"type": "draw"})
    assert hand(state, 1) == ["B7"]
