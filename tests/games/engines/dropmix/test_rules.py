"""Known-value scenarios for the rules of a turn: drops, scoring, moves, the Equalizer,
retracts, end-of-turn draws, the reshuffle, winning and timeouts."""

import random

import pytest

from games.engines.base import IllegalAction, StepRng, seed_bytes
from games.engines.dropmix import ENGINE
from tests.games.engines.dropmix.scenario import ScriptedRng, act, close, drop, game


def refused(state, seat, **action):
    with pytest.raises(IllegalAction) as refusal:
        ENGINE.apply(state, seat, action, ScriptedRng())
    return refusal.value.reason


# --- where a card may go -------------------------------------------------------------------


def test_a_regular_card_only_goes_on_a_slot_accepting_its_colour():
    state = game(hands={0: ["candy-r1a"]})
    assert "it accepts: blue" in refused(state, 0, type="drop", card="candy-r1a", slot=4)
    drop(state, 0, "candy-r1a", 1)
    assert state["stacks"][0] == [["candy-r1a", 0, "red"]]


def test_a_card_covers_only_a_top_card_of_its_level_or_lower():
    state = game(
        hands={0: ["candy-r1a", "candy-r2"]},
        on_board={2: [("steel-r2", 1, "red")]},
    )
    assert "cannot cover the level 2" in refused(state, 0, type="drop", card="candy-r1a", slot=2)
    drop(state, 0, "candy-r2", 2)
    assert [entry[0] for entry in state["stacks"][1]] == ["steel-r2", "candy-r2"]


def test_no_card_is_played_while_a_copy_is_in_play_even_on_that_copy():
    state = game(hands={0: ["candy-r3"]}, on_board={2: [("candy-r3", 1, "red")]})
    assert "already in play" in refused(state, 0, type="drop", card="candy-r3", slot=2)
    assert "already in play" in refused(state, 0, type="drop", card="candy-r3", slot=1)


def test_a_copy_under_another_card_is_not_in_play():
    state = game(
        hands={0: ["candy-r1a"]},
        on_board={2: [("candy-r1a", 1, "red"), ("steel-r3", 1, "red")]},
    )
    drop(state, 0, "candy-r1a", 1)
    assert state["stacks"][0][-1][0] == "candy-r1a"


def test_a_wild_takes_the_slot_colour_and_names_it_on_a_two_colour_slot():
    state = game(hands={0: ["candy-wild", "steel-wild"]})
    assert "name the colour" in refused(state, 0, type="drop", card="candy-wild", slot=1)
    drop(state, 0, "candy-wild", 1, colour="red")
    drop(state, 0, "steel-wild", 4)
    assert state["stacks"][0][-1] == ["candy-wild", 0, "red"]
    assert state["stacks"][3][-1] == ["steel-wild", 0, "blue"]


def test_legal_actions_list_both_colours_for_a_wild_on_a_two_colour_slot_only():
    state = game(hands={0: ["candy-wild"]})
    drops = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "drop"]
    assert {a["slot"]: a.get("colour") for a in drops if a["slot"] in (2, 3, 4)} == {
        2: None,
        3: None,
        4: None,
    }
    assert sorted(a["colour"] for a in drops if a["slot"] == 1) == ["red", "yellow"]
    assert sorted(a["colour"] for a in drops if a["slot"] == 5) == ["blue", "green"]


def test_fx_cards_go_on_any_slot_and_have_no_colour():
    state = game(hands={0: ["candy-fx2"]})
    slots = {a["slot"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "drop"}
    assert slots == {1, 2, 3, 4, 5}


def test_the_middle_slot_colour_is_configurable():
    state = game(hands={0: ["candy-g2"]}, middle_slot_colour="green")
    drop(state, 0, "candy-g2", 3)
    assert state["stacks"][2][-1] == ["candy-g2", 0, "green"]


def test_check_in_side_comes_from_the_first_drop():
    state = game(hands={0: ["candy-b1a", "candy-r1a"]})
    drop(state, 0, "candy-b1a", 4)
    drop(state, 0, "candy-r1a", 1)
    assert state["checkin"][0] == "right"


# --- scoring --------------------------------------------------------------------------------


def test_each_drop_scores_one_and_no_missing_colour_bonus_on_the_first_turn():
    state = game(turn=1, hands={0: ["candy-r1a", "candy-b1a"]})
    drop(state, 0, "candy-r1a", 2)
    drop(state, 0, "candy-b1a", 4)
    assert state["scores"] == [2, 0]


def test_a_colour_missing_from_the_mix_scores_one_more_after_the_first_turn():
    state = game(
        hands={0: ["candy-b1a", "candy-r2"]},
        on_board={2: [("steel-r1a", 1, "red")], 3: [("steel-y2", 1, "yellow")]},
    )
    assert ENGINE.view(state, None)["board"][3]["highlighted"] == ["blue"]
    drop(state, 0, "candy-b1a", 4)  # blue was missing: 2
    drop(state, 0, "candy-r2", 2)  # red is in the mix: 1
    assert state["scores"] == [3, 0]


def test_a_wild_scores_the_missing_colour_it_plays():
    state = game(hands={0: ["candy-wild"]}, on_board={4: [("steel-b1a", 1, "blue")]})
    drop(state, 0, "candy-wild", 5, colour="green")
    assert state["scores"] == [2, 0]


def test_full_mix_scores_once_when_it_newly_happens():
    state = game(
        hands={0: ["candy-b1a"]},
        on_board={
            1: [("candy-r1a", 0, "red")],
            2: [("candy-r2", 0, "red")],
            3: [("candy-y2", 0, "yellow")],
            5: [("candy-g2", 0, "green")],
        },
    )
    events = drop(state, 0, "candy-b1a", 4)
    # +1 drop, +1 blue was missing, +1 Full Mix
    assert state["scores"] == [3, 0]
    assert state["full_mix"] == 0
    assert any(e["type"] == "dropped" for e in events)


def test_full_mix_is_not_scored_again_while_it_lasts():
    state = game(
        hands={0: ["candy-r3"]},
        on_board={
            1: [("candy-r1a", 0, "red")],
            2: [("candy-r2", 0, "red")],
            3: [("candy-y2", 0, "yellow")],
            4: [("candy-b1a", 0, "blue")],
            5: [("candy-g2", 0, "green")],
        },
    )
    drop(state, 0, "candy-r3", 2)
    assert state["scores"] == [1, 0]


def test_scores_never_go_below_zero():
    state = game(active=1, hands={1: ["lab-score"]}, scores=(1, 0))
    drop(state, 1, "lab-score", 2)  # -3 to both sides, after its own +1
    assert state["scores"] == [0, 0]


@pytest.mark.parametrize(("floor", "expected"), [(-1, [-1, -1]), (-5, [-2, -2]), (None, [-2, -2])])
def test_the_score_floor_is_configurable(floor, expected):
    state = game(active=1, hands={1: ["lab-score"]}, scores=(1, 0), score_floor=floor)
    events = drop(state, 1, "lab-score", 2)  # side 1 gains 1 (to 1), then both lose 3
    assert state["scores"] == expected
    lost = {e["side"]: e["points"] for e in events if e["type"] == "lost"}
    assert lost == {0: 1 - expected[0], 1: 1 - expected[1]}


# --- turns ----------------------------------------------------------------------------------


def test_a_single_player_makes_two_moves_then_the_last_one_waits_for_its_window():
    state = game(hands={0: ["candy-r1a", "candy-b1a", "candy-g2"]})
    drop(state, 0, "candy-r1a", 2)
    assert ENGINE.to_act(state) == [0]
    drop(state, 0, "candy-b1a", 4)
    assert [w.name for w in ENGINE.windows(state)] == ["retract"]
    assert ENGINE.windows(state)[0].seconds == 3.0
    assert ENGINE.legal_actions(state, 0) == [{"type": "retract"}]
    close(state, "retract")
    assert state["active"] == 1 and state["turn"] == 3


def test_end_of_turn_draws_two_for_a_single_player_up_to_seven():
    state = game(hands={0: ["candy-r1a", "candy-b1a"] + ["candy-y3"] * 6})
    drop(state, 0, "candy-r1a", 2)
    drop(state, 0, "candy-b1a", 4)
    assert ENGINE.view(state, 0)["players"][0]["cards_owed"] == 1
    close(state, "retract")
    assert len(state["hands"][0]) == 7


def test_end_of_turn_draws_one_for_each_team_member_up_to_five():
    state = game(4, hands={0: ["pixel-y3"] * 5, 2: ["velvet-b1a"]})
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(0, 5))
    drop(state, 2, "velvet-b1a", 4)
    close(state, "retract")
    assert len(state["hands"][0]) == 5  # at the limit: draws nothing
    assert len(state["hands"][2]) == 1  # played its only card, drew one
    assert state["active"] == 1


def test_opening_hands_are_five_for_a_single_player_and_three_for_team_members():
    state = ENGINE.setup(ENGINE.validate_config({}, 3), 3, StepRng(seed_bytes(9), 0))
    assert [len(hand) for hand in state["hands"]] == [5, 3, 3]
    assert [len(deck) for deck in state["decks"]] == [25, 12, 12]


def test_the_first_side_is_drawn_at_random():
    firsts = {
        ENGINE.setup(ENGINE.validate_config({}, 2), 2, StepRng(seed_bytes(n), 0))["active"]
        for n in range(20)
    }
    assert firsts == {0, 1}


def test_each_team_member_makes_one_move():
    state = game(4, hands={0: ["pixel-r1a", "pixel-b1a"], 2: ["velvet-b1a"]})
    drop(state, 0, "pixel-r1a", 2)
    assert "made your move" in refused(state, 0, type="drop", card="pixel-b1a", slot=4)
    assert ENGINE.decision(state, 0) is None and ENGINE.decision(state, 2) is not None


def test_after_a_teams_first_move_is_a_spin_either_member_makes_the_second():
    state = game(4, hands={0: ["pixel-r1a"], 2: ["velvet-b1a"]})
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(0, 5))  # level 1; the opponents' board is empty: 5 != 0
    assert ENGINE.to_act(state) == [0, 2]
    drop(state, 0, "pixel-r1a", 2)
    assert ENGINE.windows(state)[0].name == "retract"


def test_the_team_of_two_in_1v2_draws_one_each_and_the_single_player_two():
    state = game(3, active=1, hands={1: ["pixel-r1a"], 2: ["velvet-b1a"]})
    drop(state, 1, "pixel-r1a", 2)
    drop(state, 2, "velvet-b1a", 4)
    close(state, "retract")
    assert [len(state["hands"][s]) for s in (1, 2)] == [1, 1]


# --- the Equalizer --------------------------------------------------------------------------


def test_a_spin_clears_the_opponents_cards_at_the_level_and_costs_a_point_each():
    state = game(
        hands={0: ["candy-r1a"]},
        on_board={
            1: [("steel-r1a", 1, "red")],
            2: [("steel-r1b", 1, "red"), ("steel-r2", 1, "red")],
            4: [("steel-b2", 1, "blue")],
            5: [("candy-g2", 0, "green")],
        },
        scores=(3, 5),
    )
    act(state, 0, type="spin")  # pending: nothing drawn yet
    assert state["stacks"][1] and ENGINE.windows(state)[0].seconds == 2.0
    close(state, "spin", ScriptedRng(4))  # 4 -> level 2
    assert state["stacks"][1] == [] and state["stacks"][3] == []  # whole stack discarded
    assert state["stacks"][0] and state["stacks"][4]  # level 1 and own card stay
    assert state["scores"] == [3, 3]
    assert sorted(state["discards"][1]) == ["steel-b2", "steel-r1b", "steel-r2"]
    assert state["last_spin"]["result"] == "2"


def test_clear_mode_top_discards_only_the_top_card_and_uncovers_the_one_beneath():
    state = game(
        on_board={
            2: [("candy-r1a", 0, "red"), ("steel-r2", 1, "red")],  # side 0's card beneath
            4: [("steel-b1", 1, "blue"), ("steel-b2", 1, "blue")],
        },
        scores=(3, 5),
        clear_mode="top",
    )
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(4))  # level 2: both of side 1's top cards
    assert state["stacks"][1] == [["candy-r1a", 0, "red"]]  # back in play, for side 0
    assert state["stacks"][3] == [["steel-b1", 1, "blue"]]
    assert sorted(state["discards"][1]) == ["steel-b2", "steel-r2"]
    assert state["scores"] == [3, 3]  # one point per card cleared, as with whole stacks


def test_x_clears_all_the_opponents_cards():
    state = game(
        on_board={1: [("steel-r1a", 1, "red")], 4: [("steel-b3", 1, "blue")]}, scores=(0, 4)
    )
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(11))
    assert state["stacks"][0] == [] and state["stacks"][3] == [] and state["scores"] == [0, 2]


def test_a_spin_with_nothing_to_clear_still_counts_as_a_move():
    state = game(on_board={1: [("steel-r1a", 1, "red")]})
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(8))  # level 3
    assert state["stacks"][0] and state["base_left"] == 1


@pytest.mark.parametrize(("bonus_draw", "points"), [(0, 1), (1, 0), (11, 0)])
def test_a_spin_against_an_empty_board_scores_one_in_twelve(bonus_draw, points):
    state = game(on_board={2: [("candy-r2", 0, "red")]})
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(0, bonus_draw))
    assert state["scores"] == [points, 0]


def test_wheel_weights_are_configurable():
    state = game(wheel={"1": 0, "2": 0, "3": 0, "X": 5}, on_board={2: [("steel-r1a", 1, "red")]})
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(0))
    assert state["last_spin"]["result"] == "X" and state["stacks"][1] == []


# --- pending moves and retracting -----------------------------------------------------------


def test_a_first_move_can_be_retracted_until_the_second_is_made():
    state = game(hands={0: ["candy-r1a", "candy-b1a"]}, scores=(2, 0))
    drop(state, 0, "candy-r1a", 2)
    act(state, 0, type="retract")
    assert state["stacks"][1] == [] and state["hands"][0] == ["candy-r1a", "candy-b1a"]
    assert state["scores"] == [2, 0] and state["base_left"] == 2
    drop(state, 0, "candy-b1a", 4)  # made in place of the retracted move: final at once
    assert state["pending"] is None
    drop(state, 0, "candy-r1a", 2)  # a fresh move may be retracted again
    assert state["pending"]["card"] == "candy-r1a"
    assert ENGINE.legal_actions(state, 0) == [{"type": "retract"}]


def test_making_the_second_move_makes_the_first_final():
    state = game(hands={0: ["candy-r1a", "candy-b1a"]})
    drop(state, 0, "candy-r1a", 2)
    drop(state, 0, "candy-b1a", 4)
    assert state["pending"]["card"] == "candy-b1a"


def test_a_spin_can_be_retracted_before_its_result_is_fixed():
    state = game(on_board={2: [("steel-r1a", 1, "red")]})
    act(state, 0, type="spin")
    act(state, 0, type="retract")
    assert state["stacks"][1] and state["base_left"] == 2 and not ENGINE.windows(state)
    act(state, 0, ScriptedRng(0), type="spin")  # in place of a retracted move: drawn at once
    assert state["stacks"][1] == [] and state["pending"] is None


def test_a_move_that_drew_cards_cannot_be_retracted():
    state = game(hands={0: ["pixel-fx1"]}, decks={0: ["candy-y3", "candy-g3"]})
    drop(state, 0, "pixel-fx1", 3, ScriptedRng())
    assert state["pending"] is None and state["hands"][0] == ["candy-g3"]
    assert {"type": "retract"} not in ENGINE.legal_actions(state, 0)


def test_only_the_player_who_made_the_move_retracts_it():
    state = game(4, hands={0: ["pixel-r1a"]})
    drop(state, 0, "pixel-r1a", 2)
    assert "no pending move" in refused(state, 2, type="retract")


# --- decks running out, winning, timeouts ---------------------------------------------------


def test_an_empty_deck_is_rebuilt_from_discards_and_covered_cards():
    state = game(
        hands={0: ["candy-r1a", "candy-b1a"] + ["candy-y3"] * 5},
        decks={0: []},
        on_board={2: [("candy-r1b", 0, "red"), ("steel-r2", 1, "red")]},
    )
    state["discards"][0] = ["candy-g2"]
    drop(state, 0, "candy-r1a", 1)
    drop(state, 0, "candy-b1a", 4)
    close(state, "retract")
    assert sorted(state["hands"][0][-2:]) == ["candy-g2", "candy-r1b"]
    assert state["stacks"][1] == [["steel-r2", 1, "red"]] and state["discards"][0] == []


def test_reaching_the_target_wins_at_once_with_the_sides_seats_first():
    state = game(
        3,
        active=1,
        hands={1: ["pixel-r1a"]},
        on_board={1: [("candy-r1b", 0, "red")]},
        scores=(5, 20),
    )
    drop(state, 1, "pixel-r1a", 2)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == [1, 2] and outcome.ranking == [[1, 2], [0]]
    assert outcome.scores == {0: 5, 1: 21, 2: 21} and outcome.reason == "target"
    assert ENGINE.to_act(state) == [] and state["pending"] is None


def test_the_acting_sides_gains_land_before_losses():
    state = game(hands={0: ["lab-score"]}, scores=(20, 20))
    drop(state, 0, "lab-score", 3)  # +1 then -3 to both: side 0 reaches 21 first
    assert state["winner"] == 0 and state["scores"] == [21, 20]


def test_target_fifteen_is_configurable():
    state = game(hands={0: ["candy-r1a"]}, scores=(14, 0), target=15)
    drop(state, 0, "candy-r1a", 2)
    assert state["winner"] == 0


def test_a_timeout_forfeits_the_rest_of_the_turn():
    state = game(hands={0: ["candy-r1a", "candy-b1a"] + ["candy-y3"] * 3})
    drop(state, 0, "candy-r1a", 2)
    assert ENGINE.timeout_action(state, [0]) == {"type": "timeout", "seats": [0]}
    act(state, None, ScriptedRng(), type="timeout", seats=[0])
    assert state["stacks"][1] and state["scores"] == [2, 0]  # the pending drop stands
    assert state["active"] == 1 and len(state["hands"][0]) == 6


def test_a_timeout_during_a_pending_spin_fixes_its_result_first():
    state = game(4, on_board={2: [("candy-r1a", 1, "red")]})
    act(state, 0, type="spin")
    assert ENGINE.decision(state, 2) is None  # the spin window runs, not a clock
    close(state, "spin", ScriptedRng(0))
    act(state, None, ScriptedRng(), type="timeout", seats=[2])
    assert state["stacks"][1] == [] and state["active"] == 1


def test_only_seats_whose_clock_runs_can_time_out():
    state = game()
    assert "clock is running" in refused(state, None, type="timeout", seats=[1])


def test_decision_serial_changes_per_turn():
    state = game(hands={0: ["candy-r1a", "candy-b1a"]})
    first = ENGINE.decision(state, 0)
    drop(state, 0, "candy-r1a", 2)
    assert ENGINE.decision(state, 0) == first
    drop(state, 0, "candy-b1a", 4)
    close(state, "retract")
    assert ENGINE.decision(state, 1).serial != first.serial
    assert ENGINE.decision(state, 1).phase == "turn"


def test_system_actions_come_only_from_the_host():
    state = game()
    assert "comes from the host" in refused(state, 0, type="window_closed", name="retract")
    assert "no such window" in refused(state, None, type="window_closed", name="retract")


def test_a_retracted_last_move_made_again_is_final_and_ends_the_turn():
    state = game(hands={0: ["candy-r1a", "candy-b1a", "candy-g2"]})
    drop(state, 0, "candy-r1a", 2)
    drop(state, 0, "candy-b1a", 4)
    act(state, 0, type="retract")
    drop(state, 0, "candy-g2", 5, ScriptedRng())
    assert state["active"] == 1 and not ENGINE.windows(state)


def test_listed_drops_are_exactly_the_placements_the_rules_allow():
    rng = random.Random(3)
    for number in range(40):
        state = ENGINE.setup(ENGINE.validate_config({}, 2), 2, StepRng(seed_bytes(number), 0))
        for _ in range(rng.randrange(60)):
            acting = ENGINE.to_act(state)
            if ENGINE.outcome(state):
                break
            if acting:
                seat = acting[0]
                actions = ENGINE.legal_actions(state, seat)
                ENGINE.apply(state, seat, rng.choice(actions), rng)
            else:
                name = ENGINE.windows(state)[0].name
                ENGINE.apply(state, None, {"type": "window_closed", "name": name}, rng)
        for seat in (0, 1):
            listed = {
                (a["card"], a["slot"], a.get("colour"))
                for a in ENGINE.legal_actions(state, seat)
                if a["type"] == "drop"
            }
            for card in set(state["hands"][seat]):
                for slot in range(1, 6):
                    for colour in (None, "yellow", "red", "blue", "green"):
                        action = {"type": "drop", "card": card, "slot": slot}
                        if colour:
                            action["colour"] = colour
                        try:
                            ENGINE.validate(state, seat, action)
                        except IllegalAction:
                            assert (card, slot, colour) not in listed
                        else:
                            allowed = (card, slot, colour) in listed or (card, slot, None) in listed
                            assert allowed, action
