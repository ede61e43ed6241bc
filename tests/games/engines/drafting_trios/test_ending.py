"""End of game, totals, the tie-break chain down to the DMO, and timeouts."""

import pytest

from games.engines.base import IllegalAction
from games.engines.drafting_trios import ENGINE
from games.engines.drafting_trios.scoring import CATEGORIES

from .scenarios import at_play, both, fill, new_game, rng

ALL_BUT_HIGH_CARDS = [category for category in CATEGORIES if category != "high_cards"]


def last_round(config=None, seat_one_hand=("G6", "B6", "Y6", "G1", "G2")):
    """Seat 0 has one open category left (High Cards); both players have 0 points so far."""
    state = at_play([["R6", "G6", "B6", "R1", "R2"], list(seat_one_hand)], config=config)
    fill(state, 0, ALL_BUT_HIGH_CARDS)
    return state


def trio(*cards, category="high_cards"):
    return {"type": "trio", "category": category, "cards": sorted(cards)}


def test_the_game_ends_when_a_player_has_no_open_category_and_the_higher_total_wins():
    state = last_round()
    both(state, trio("R6", "G6", "B6"), {"type": "discard", "cards": ["G1", "G2", "Y6"]})
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [0] and outcome.ranking == [[0], [1]]
    assert outcome.scores == {0: 21, 1: 5}
    assert outcome.reason == "categories_closed"
    assert outcome.details["decided_by"] == "total"
    assert outcome.details["categories"]["0"]["high_cards"]["trio"] == ["B6", "G6", "R6"]
    assert ENGINE.to_act(state) == [] and ENGINE.decision(state, 0) is None
    assert ENGINE.legal_actions(state, 0) == []


def test_an_earthquake_can_end_the_game_by_destroying_the_last_open_category():
    state = last_round(seat_one_hand=("earthquake", "G4", "G5", "G1", "G2"))
    quake = {"type": "power", "card": "earthquake", "cost": ["G4", "G5"], "category": "high_cards"}
    both(state, {"type": "discard", "cards": ["B6", "G6", "R6"]}, quake)
    assert state["categories"][0]["high_cards"]["state"] == "destroyed"
    assert ENGINE.outcome(state).winners == [0]  # 5 points to 0


def test_a_tie_goes_to_more_power_cards_activated():
    state = last_round(seat_one_hand=("visible_zero", "burn", "bonus", "G1", "G2"))
    state["extra_points"][0] = 9  # 21 + 9 = 30 = VisibleZero's 30
    state["activated"][0] = 0
    visible = {"type": "power", "card": "visible_zero", "cost": ["bonus", "burn"]}
    both(state, trio("R6", "G6", "B6"), visible)
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {0: 30, 1: 30}
    assert outcome.winners == [1]
    assert outcome.details["decided_by"] == "power_cards_activated"
    assert outcome.metrics["power_cards_activated"] == {0: 0, 1: 1}


@pytest.mark.parametrize(
    ("roles", "dmo"), [({"0": "EC", "1": "DMO"}, 1), ({"0": "DMO", "1": "EC"}, 0)]
)
def test_a_full_tie_goes_to_the_dmo(roles, dmo):
    state = last_round(config={"roles": roles}, seat_one_hand=("G5", "B5", "Y5", "G1", "G2"))
    state["extra_points"] = [0, 3]  # 21 = 15 + 3 + 3
    state["activated"] = [2, 2]
    both(state, trio("R6", "G6", "B6"), trio("G5", "B5", "Y5"))
    outcome = ENGINE.outcome(state)
    assert outcome.scores == {0: 21, 1: 21}
    assert outcome.winners == [dmo]
    assert outcome.details["decided_by"] == "dmo"
    assert outcome.details["tie_break"] == {"power_cards_activated": {"0": 2, "1": 2}, "dmo": dmo}
    assert outcome.metrics["dmo"] == {0: dmo == 0, 1: dmo == 1}


def test_a_reserve_at_zero_loses_at_once():
    state = new_game()
    ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0], rng())
    with pytest.raises(IllegalAction, match="owe a choice"):
        ENGINE.apply(state, None, ENGINE.timeout_action(state, [0]), rng())
    with pytest.raises(IllegalAction, match="only the host"):
        ENGINE.apply(state, 1, ENGINE.timeout_action(state, [1]), rng())
    events = ENGINE.apply(state, None, ENGINE.timeout_action(state, [1]), rng())
    assert events[-1]["type"] == "game_over"
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [0] and outcome.reason == "timeout"
    assert outcome.details["decided_by"] == "timeout"


@pytest.mark.parametrize(
    ("roles", "dmo"), [({"0": "EC", "1": "DMO"}, 1), ({"0": "DMO", "1": "EC"}, 0)]
)
def test_both_reserves_at_zero_in_the_same_instant_go_to_the_dmo(roles, dmo):
    state = new_game({"roles": roles})
    action = ENGINE.timeout_action(state, [1, 0])
    assert action == {"type": "timeout", "seats": [0, 1]}
    ENGINE.apply(state, None, action, rng())
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [dmo] and outcome.details["decided_by"] == "timeout_tie_dmo"


def test_outcome_is_none_while_the_game_goes_on_and_json_at_the_end():
    state = last_round()
    assert ENGINE.outcome(state) is None
    both(state, trio("R6", "G6", "B6"), {"type": "discard", "cards": ["G1", "G2", "Y6"]})
    data = ENGINE.outcome(state).to_json()
    assert data["scores"] == {"0": 21, "1": 5}
    assert data["metrics"]["dmo"] == {"0": False, "1": True}


def test_system_actions_other_than_a_timeout_are_refused():
    state = new_game()
    with pytest.raises(IllegalAction, match="no timed windows"):
        ENGINE.apply(state, None, {"type": "window_closed", "name": "x"}, rng())
    with pytest.raises(IllegalAction, match="names the seats"):
        ENGINE.apply(state, None, {"type": "timeout", "seats": []}, rng())
    with pytest.raises(IllegalAction, match="an object with a type"):
        ENGINE.validate(state, 0, ["draft"])
