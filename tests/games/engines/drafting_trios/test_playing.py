"""The playing phase: the three actions, the resolution order and all nine power cards."""

import pytest

from games.engines.base import IllegalAction
from games.engines.drafting_trios import ENGINE

from .scenarios import at_play, both, discard_three, draft_through, fill, rng

FILLER_DISCARD = {"type": "discard", "cards": ["G1", "G2", "G3"]}
OPPONENT = ["G1", "G2", "G3", "G4", "G5"]


def power(card, cost, **targets):
    return {"type": "power", "card": card, "cost": sorted(cost), **targets}


def test_a_trio_fills_its_category_with_its_score_and_leaves_the_hand():
    state = at_play([["R6", "G6", "B6", "R1", "R2"], OPPONENT])
    both(
        state,
        {"type": "trio", "category": "high_cards", "cards": ["B6", "R6", "G6"]},
        FILLER_DISCARD,
    )
    entry = state["categories"][0]["high_cards"]
    assert entry["state"] == "filled" and entry["score"] == 21
    assert entry["trio"] == ["B6", "G6", "R6"]
    assert "R6" not in ENGINE.view(state, 0)["hand"]
    assert ENGINE.view(state, None)["seats"]["0"]["total"] == 21
    assert state["revealed"][0] == {
        "seat": 0,
        "type": "trio",
        "category": "high_cards",
        "cards": ["B6", "G6", "R6"],
    }


def test_a_trio_scoring_zero_still_fills_its_category():
    state = at_play([["R1", "G3", "B5", "R2", "R4"], OPPONENT])
    both(
        state,
        {"type": "trio", "category": "royal_flush", "cards": ["B5", "G3", "R1"]},
        FILLER_DISCARD,
    )
    assert state["categories"][0]["royal_flush"]["state"] == "filled"
    assert state["categories"][0]["royal_flush"]["score"] == 0
    state["hands"][0] = ["R1", "R2", "Y1"]
    begin_play(state)
    with pytest.raises(IllegalAction, match="not open"):
        ENGINE.validate(
            state, 0, {"type": "trio", "category": "royal_flush", "cards": ["R1", "R2", "Y1"]}
        )


def test_power_cards_cannot_join_a_trio_unless_the_flag_allows_it():
    hands = [["burn", "R6", "G6", "R1", "R2"], OPPONENT]
    trio = {"type": "trio", "category": "high_cards", "cards": ["G6", "R6", "burn"]}
    with pytest.raises(IllegalAction, match="power cards cannot be part of it"):
        ENGINE.validate(at_play(hands), 0, trio)
    assert trio not in ENGINE.legal_actions(at_play(hands), 0)
    state = at_play(hands, config={"power_cards_in_trios": True})
    assert trio in ENGINE.legal_actions(state, 0)
    both(state, trio, FILLER_DISCARD)
    assert state["categories"][0]["high_cards"]["score"] == 12


def test_discarding_three_scores_five_or_ten_for_three_power_cards():
    state = at_play([["burn", "bonus", "mulligan", "R1", "R2"], ["G1", "G2", "burn", "G4", "G5"]])
    both(
        state,
        {"type": "discard", "cards": ["bonus", "burn", "mulligan"]},
        {"type": "discard", "cards": ["G1", "G2", "burn"]},
    )
    assert state["extra_points"] == [10, 5]
    assert all(entry["state"] == "open" for entry in state["categories"][0].values())
    assert state["discard_piles"][0] == ["bonus", "burn", "mulligan"]


def test_a_power_card_needs_its_cost_and_its_cards_are_discarded():
    state = at_play([["visible_zero", "R1", "R2", "bonus", "burn"], OPPONENT])
    with pytest.raises(IllegalAction, match="add up to 3; visible_zero costs 0"):
        ENGINE.validate(state, 0, power("visible_zero", ["R1", "R2"]))
    with pytest.raises(IllegalAction, match="do not hold"):
        ENGINE.validate(state, 0, power("plus_one", ["R1", "bonus"]))
    both(state, power("visible_zero", ["bonus", "burn"]), FILLER_DISCARD)
    assert state["extra_points"][0] == 30
    assert state["activated"] == [1, 0]
    assert sorted(state["discard_piles"][0]) == ["bonus", "burn", "visible_zero"]
    assert state["revealed"][0]["card"] == "visible_zero"


def test_plus_one_draws_now_and_the_hand_holds_six_from_then_on():
    decks = [["Y1"] * 30 + ["B6"], ["Y1"] * 30]
    state = at_play([["plus_one", "R1", "burn", "R5", "R6"], OPPONENT], decks=decks)
    both(state, power("plus_one", ["R1", "burn"]), FILLER_DISCARD)
    assert sorted(state["hands"][0]) == ["B6", "R5", "R6"]
    draft_through(state)
    assert len(state["hands"][0]) == 6 and len(state["hands"][1]) == 5
    state["hands"][0].extend(["plus_one", "R1", "burn"])
    with pytest.raises(IllegalAction, match="once per player"):
        ENGINE.validate(state, 0, power("plus_one", ["R1", "burn"]))


def test_mulligan_gives_two_charges_once_per_player():
    state = at_play([["mulligan", "R1", "R2", "mulligan", "R3"], OPPONENT])
    both(state, power("mulligan", ["R1", "R2"]), FILLER_DISCARD)
    assert state["mulligans"][0] == 2
    assert {"type": "mulligan"} in ENGINE.legal_actions(state, 0)
    both(state, {"type": "mulligan"}, next(iter(ENGINE.legal_actions(state, 1))))
    assert state["mulligans"][0] == 1


def test_heart_of_the_cards_names_a_card_before_the_piles_for_two_rounds():
    deck = ["B6"] + ["Y1"] * 40
    state = at_play([["heart_of_the_cards", "R2", "R3", "R4", "R5"], OPPONENT], decks=[deck, deck])
    both(state, power("heart_of_the_cards", ["R2", "R3"]), FILLER_DISCARD)
    assert state["stage"] == "name" and ENGINE.to_act(state) == [0]
    assert ENGINE.decision(state, 0).phase == "choice"
    events = ENGINE.apply(state, 0, {"type": "name", "card": "B6"}, rng())
    assert {"type": "card_named", "seat": 0} in events and "B6" not in str(events)
    assert "B6" in state["piles"][0]
    mine, theirs = ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert mine["named_card"] == "B6" and mine["named_card_found"] is True
    assert theirs["named_card"] is None and theirs["named_card_found"] is None
    draft_through(state)
    both(state, discard_three(state, 0), discard_three(state, 1))
    ENGINE.apply(state, 0, {"type": "name", "card": "R6"}, rng())  # second round: not in deck
    assert ENGINE.view(state, 0)["named_card_found"] is False
    draft_through(state)
    both(state, discard_three(state, 0), discard_three(state, 1))
    assert state["stage"] == "draft"  # the third round names nothing


def test_conversion_changes_the_rule_of_one_open_category_once():
    state = at_play([["conversion", "R3", "R4", "conversion", "R1"], OPPONENT])
    move = power("conversion", ["R3", "R4"], category="low_cards", rule="royal_flush")
    with pytest.raises(IllegalAction, match="different rule"):
        ENGINE.validate(state, 0, {**move, "rule": "low_cards"})
    both(state, move, FILLER_DISCARD)
    assert state["categories"][0]["low_cards"]["rule"] == "royal_flush"
    state["hands"][0] = ["Y4", "Y5", "Y6", "conversion", "R3"]
    begin_play(state)
    both(
        state,
        {"type": "trio", "category": "low_cards", "cards": ["Y4", "Y5", "Y6"]},
        FILLER_DISCARD,
    )
    assert state["categories"][0]["low_cards"]["score"] == 50


def begin_play(state):
    from games.engines.drafting_trios.table import PLAY, begin_step

    state["hands"][1] = ["G1", "G2", "G3", "G4", "G5"]
    begin_step(state, PLAY, [0, 1])


def test_earthquake_destroys_a_category_for_both_players():
    state = at_play([["earthquake", "R3", "R4", "R1", "R2"], OPPONENT])
    fill(state, 1, ["all_red"])
    with pytest.raises(IllegalAction, match="open for both"):
        ENGINE.validate(state, 0, power("earthquake", ["R3", "R4"], category="all_red"))
    both(state, power("earthquake", ["R3", "R4"], category="triple_threat"), FILLER_DISCARD)
    assert state["categories"][0]["triple_threat"]["state"] == "destroyed"
    assert state["categories"][1]["triple_threat"]["state"] == "destroyed"


def test_earthquake_on_a_category_the_opponent_fills_that_round_is_chosen_again():
    state = at_play([["earthquake", "R4", "R5", "R1", "R2"], ["G6", "B6", "Y6", "G1", "G2"]])
    quake = power("earthquake", ["R4", "R5"], category="high_cards")
    trio = {"type": "trio", "category": "high_cards", "cards": ["B6", "G6", "Y6"]}
    events = both(state, quake, trio)
    assert {"type": "earthquake_rechoice", "seat": 0} in events
    assert state["categories"][1]["high_cards"]["score"] == 21  # the trio resolved first
    assert state["stage"] == "quake" and ENGINE.to_act(state) == [0]
    assert ENGINE.decision(state, 0).phase == "choice"
    assert {"type": "earthquake", "category": "high_cards"} not in ENGINE.legal_actions(state, 0)
    ENGINE.apply(state, 0, {"type": "earthquake", "category": "low_cards"}, rng())
    assert state["categories"][0]["low_cards"]["state"] == "destroyed"
    assert state["categories"][1]["low_cards"]["state"] == "destroyed"
    assert state["categories"][1]["high_cards"]["state"] == "filled"
    assert state["revealed"][-1] == {"seat": 0, "type": "earthquake", "category": "low_cards"}
    assert state["round"] == 3


def test_bonus_scores_one_and_a_half_keeping_half_points():
    state = at_play([["bonus", "R4", "R5", "R6", "G6"], OPPONENT])
    both(state, power("bonus", ["R4", "R5"], category="high_cards"), FILLER_DISCARD)
    with pytest.raises(IllegalAction, match="no Bonus yet"):
        state["hands"][0] = ["bonus", "R4", "R5"]
        begin_play(state)
        ENGINE.validate(state, 0, power("bonus", ["R4", "R5"], category="high_cards"))
    state["hands"][0] = ["R6", "G6", "B5"]
    both(
        state,
        {"type": "trio", "category": "high_cards", "cards": ["B5", "G6", "R6"]},
        FILLER_DISCARD,
    )
    assert state["categories"][0]["high_cards"]["score"] == 20
    assert ENGINE.view(state, None)["seats"]["0"]["total"] == 30
    state["categories"][0]["low_cards"].update(state="filled", score=21, bonus=True)
    assert ENGINE.view(state, None)["seats"]["0"]["total"] == 61.5


def test_get_even_makes_each_open_category_worth_fifteen_at_the_end():
    state = at_play([["get_even", "R1", "R1", "R2", "R3"], OPPONENT])
    fill(state, 0, ["all_red", "all_blue", "all_green", "all_yellow", "high_cards", "low_cards"])
    fill(state, 1, ["all_red", "all_blue", "all_green", "all_yellow", "high_cards", "low_cards"])
    fill(state, 1, ["double_trouble", "triple_threat", "low_straight", "high_straight"])
    state["categories"][0]["royal_flush"]["bonus"] = True
    both(
        state,
        power("get_even", ["R1", "R1"]),
        {"type": "trio", "category": "royal_flush", "cards": ["G1", "G2", "G3"]},
    )
    outcome = ENGINE.outcome(state)
    assert outcome.reason == "categories_closed"
    assert outcome.scores[0] == 15 * 4 + 22.5
    assert outcome.details["categories"]["0"]["royal_flush"]["points"] == 22.5
    with pytest.raises(IllegalAction, match="game is over"):
        ENGINE.validate(state, 0, FILLER_DISCARD)


def test_burn_discards_the_opponents_hand_this_round_and_next_and_they_draw_it_back():
    state = at_play([["burn", "R6", "G6", "R1", "R2"], OPPONENT])
    both(state, power("burn", ["G6", "R6"]), FILLER_DISCARD)
    assert state["hands"][1] == [] and state["burn_draw"][1] == 2
    assert state["discard_piles"][1] == ["G1", "G2", "G3", "G4", "G5"]
    draft_through(state)
    assert len(state["hands"][1]) == 5 and state["burn_draw"][1] == 0
    both(state, discard_three(state, 0), discard_three(state, 1))
    assert state["hands"][1] == [] and state["burn_draw"][1] == 2  # the next round too
    assert len(state["hands"][0]) == 2
    draft_through(state)
    both(state, discard_three(state, 0), discard_three(state, 1))
    assert len(state["hands"][1]) == 2  # and no more


def test_burn_against_plus_one_discards_three_and_draws_three():
    state = at_play([["burn", "R6", "G6", "R1", "R2"], ["plus_one", "G1", "burn", "G4", "G5"]])
    both(state, power("burn", ["G6", "R6"]), power("plus_one", ["G1", "burn"]))
    assert state["hands"][1] == [] and state["burn_draw"][1] == 3
    draft_through(state)
    assert len(state["hands"][1]) == 6


def test_a_seat_with_fewer_than_three_cards_can_only_pass():
    state = at_play([["R1", "R2"], OPPONENT])
    assert ENGINE.legal_actions(state, 0) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="only pass"):
        ENGINE.validate(state, 0, {"type": "discard", "cards": ["R1", "R2", "R2"]})
    with pytest.raises(IllegalAction, match="three cards or more"):
        ENGINE.validate(state, 1, {"type": "pass"})
    both(state, {"type": "pass"}, FILLER_DISCARD)
    assert state["round"] == 3 and not state["last_round"]
    ended = at_play([["R1", "R2"], OPPONENT], config={"short_hand": "end_game"})
    both(ended, {"type": "pass"}, FILLER_DISCARD)
    assert ended["last_round"] is True


def test_unexpected_fields_and_unknown_actions_are_refused():
    state = at_play([["burn", "R6", "G6", "R1", "R2"], OPPONENT])
    with pytest.raises(IllegalAction, match="unexpected field"):
        ENGINE.validate(state, 0, {**power("burn", ["G6", "R6"]), "category": "all_red"})
    with pytest.raises(IllegalAction, match="you may choose: trio, power, discard, pass"):
        ENGINE.validate(state, 0, {"type": "draft", "pick": "R1", "discard": "R2"})
    with pytest.raises(IllegalAction, match="only a player"):
        ENGINE.validate(state, None, FILLER_DISCARD)
