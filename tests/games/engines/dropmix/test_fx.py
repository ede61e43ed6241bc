"""One known-value scenario (at least) per FX effect form, using the FX lab of the shipped
catalogue; each FX drop scores its own +1 as well."""

import json

import pytest

from games.engines.base import IllegalAction
from games.engines.dropmix import ENGINE
from games.engines.dropmix.catalogue import DEFAULT_PATH
from tests.games.engines.dropmix.scenario import ScriptedRng, act, close, drop, game

OWN_RED_AND_BLUE = {2: [("candy-r2", 0, "red")], 4: [("candy-b2", 0, "blue")]}


def test_extra_move_allows_one_more_drop_matching_its_filter():
    state = game(
        hands={0: ["lab-extra-move", "candy-b1a", "candy-y2", "discovery-y1"]},
        on_board={2: [("candy-r2", 1, "red")]},  # song candy-s1
    )
    drop(state, 0, "lab-extra-move", 3)
    assert state["extras"] == [["drop", {"same_song": True}]]
    drop(state, 0, "discovery-y1", 1)  # no fit: the second base move
    drops = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "drop"]
    assert {a["card"] for a in drops} == {"candy-y2"}  # same song as candy-r2
    assert {"type": "pass"} in ENGINE.legal_actions(state, 0)
    drop(state, 0, "candy-y2", 3)
    assert ENGINE.windows(state)[0].name == "retract"
    assert state["scores"][0] == 3 + 1  # three drops; the first yellow filled a missing colour


def test_a_side_may_pass_on_its_extra_moves():
    state = game(hands={0: ["lab-extra-spin", "candy-r1a"]})
    drop(state, 0, "lab-extra-spin", 3)
    drop(state, 0, "candy-r1a", 2)
    act(state, 0, ScriptedRng(), type="pass")
    assert state["active"] == 1


def test_an_extra_move_in_a_team_can_be_made_by_either_member():
    state = game(4, hands={0: ["lab-extra-spin"], 2: ["velvet-r1a"]})
    drop(state, 0, "lab-extra-spin", 3)
    drop(state, 2, "velvet-r1a", 2)
    assert ENGINE.to_act(state) == [0, 2]
    assert {"type": "spin"} in ENGINE.legal_actions(state, 0)


def test_extra_spin_adds_a_move_that_must_be_a_spin():
    state = game(hands={0: ["lab-extra-spin", "candy-r1a", "candy-b1a"]})
    drop(state, 0, "lab-extra-spin", 3)
    drop(state, 0, "candy-r1a", 2)
    legal = ENGINE.legal_actions(state, 0)
    assert not [a for a in legal if a["type"] == "drop"]
    assert {"type": "spin"} in legal


def test_score_sets_with_one_filter_scores_each_matching_card():
    state = game(
        hands={0: ["candy-fx1"]},  # +1 per own yellow card in play
        on_board={1: [("candy-y2", 0, "yellow")], 3: [("steel-y3", 0, "yellow")]},
    )
    drop(state, 0, "candy-fx1", 2)
    assert state["scores"] == [1 + 2, 0]


def test_score_sets_with_several_filters_scores_complete_sets():
    state = game(
        hands={0: ["velvet-fx1"]},  # +2 per (red, blue) set
        on_board={
            1: [("candy-r1a", 0, "red")],
            2: [("candy-r2", 0, "red")],
            4: [("candy-b2", 0, "blue")],
        },
    )
    drop(state, 0, "velvet-fx1", 3)
    assert state["scores"] == [1 + 2, 0]  # two reds, one blue: one set


def test_score_sets_reads_a_wilds_instrument_for_its_slot_colour():
    state = game(
        hands={0: ["lab-score-sets"]},  # +2 per (drums, bass) set
        on_board={
            4: [("candy-wild", 0, "blue")],  # candy-wild plays drums as blue
            5: [("steel-wild", 0, "green")],  # steel-wild plays synth bass as green: no
        },
    )
    drop(state, 0, "lab-score-sets", 3)
    assert state["scores"] == [1, 0]
    state = game(
        hands={0: ["lab-score-sets"]},
        on_board={4: [("candy-wild", 0, "blue")], 5: [("velvet-g3", 0, "green")]},
    )
    drop(state, 0, "lab-score-sets", 3)
    assert state["scores"] == [1 + 2, 0]


def test_score_song_pairs_scores_each_pair_of_own_cards_from_one_song():
    state = game(
        hands={0: ["lab-song-pairs"]},  # +2 per pair
        on_board={
            1: [("candy-y2", 0, "yellow")],  # candy-s1
            2: [("candy-r2", 0, "red")],  # candy-s1
            4: [("candy-b2", 1, "blue")],  # candy-s1, but the opponent's
            5: [("candy-g2", 0, "green")],  # candy-s3
        },
    )
    drop(state, 0, "lab-song-pairs", 3)
    assert state["scores"] == [1 + 2, 0]


def test_draw_top_for_both_draws_for_the_dropper_and_the_opponents():
    state = game(
        3,
        hands={0: ["lab-draw-top"], 1: [], 2: []},
        decks={0: ["a-0"], 1: ["b-1"], 2: ["c-2"]},
    )
    drop(state, 0, "lab-draw-top", 3, ScriptedRng())
    assert state["hands"] == [["a-0"], ["b-1"], ["c-2"]]
    assert state["pending"] is None  # drawing made it final


def test_draw_choose_lets_the_dropper_pick_from_the_deck_then_shuffles():
    state = game(hands={0: ["lab-draw-choose"]}, decks={0: ["candy-y3", "candy-g3", "candy-r3"]})
    drop(state, 0, "lab-draw-choose", 3, ScriptedRng())
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.view(state, 0)["choose_from"] == ["candy-g3", "candy-r3", "candy-y3"]
    assert "choose_from" not in ENGINE.view(state, 1)
    assert ENGINE.view(state, 1)["choosing"] == {"seat": 0, "count": 1}
    act(state, 0, ScriptedRng(), type="choose", card="candy-g3")
    assert state["hands"][0] == ["candy-g3"] and sorted(state["decks"][0]) == [
        "candy-r3",
        "candy-y3",
    ]
    assert state["choices"] == [] and state["base_left"] == 1


def test_draw_redraw_replaces_the_whole_hand():
    state = game(hands={0: ["lab-draw-redraw", "candy-y3", "candy-g3"]}, decks={0: ["x", "y"]})
    drop(state, 0, "lab-draw-redraw", 3, ScriptedRng())
    # the scripted shuffle keeps order: the hand goes on top of the deck and is drawn back
    assert state["hands"][0] == ["candy-g3", "candy-y3"]
    assert state["decks"][0] == ["x", "y"]


def test_clear_by_filters_clears_the_opponents_matching_cards_without_points():
    state = game(
        hands={0: ["lab-clear-filters"]},  # level 1 or green
        on_board={
            1: [("steel-r1a", 1, "red")],
            2: [("steel-r2", 1, "red")],
            4: [("candy-b1a", 0, "blue")],  # own: kept
            5: [("steel-b1b", 1, "blue"), ("steel-g3", 1, "green")],
        },
        scores=(0, 5),
    )
    drop(state, 0, "lab-clear-filters", 3)
    assert [bool(stack) for stack in state["stacks"]] == [False, True, True, True, False]
    assert sorted(state["discards"][1]) == ["steel-b1b", "steel-g3", "steel-r1a"]
    assert state["scores"] == [1, 5]


def test_clear_adjacent_for_both_clears_both_neighbours_and_costs_points_when_it_says_so():
    state = game(
        hands={0: ["lab-clear-adjacent"]},
        on_board={
            2: [("candy-r2", 0, "red")],
            3: [("steel-y2", 1, "yellow")],
            4: [("steel-b2", 1, "blue")],
            5: [("steel-g2", 1, "green")],
        },
        scores=(4, 4),
    )
    drop(state, 0, "lab-clear-adjacent", 3)
    assert [len(stack) for stack in state["stacks"]] == [0, 0, 2, 0, 1]
    assert state["scores"] == [4 + 1 - 1, 4 - 1]


def test_clear_random_clears_one_random_opponent_card_and_is_final():
    state = game(
        hands={0: ["lab-clear-random"]},
        on_board={1: [("steel-r1a", 1, "red")], 4: [("steel-b2", 1, "blue")]},
    )
    drop(state, 0, "lab-clear-random", 3, ScriptedRng(1))
    assert state["stacks"][0] and not state["stacks"][3]
    assert state["pending"] is None


def test_score_changes_points_flatly():
    state = game(hands={0: ["candy-fx2"]}, scores=(3, 5))  # opponent -2
    drop(state, 0, "candy-fx2", 3)
    assert state["scores"] == [4, 3]


def test_on_cover_of_an_empty_slot():
    state = game(hands={0: ["lab-on-cover"]}, scores=(0, 3))
    drop(state, 0, "lab-on-cover", 2)
    assert state["scores"] == [1 + 2, 3]


def test_on_cover_of_a_colour():
    state = game(
        hands={0: ["lab-on-cover"]}, on_board={3: [("steel-y2", 1, "yellow")]}, scores=(0, 3)
    )
    drop(state, 0, "lab-on-cover", 3)
    assert state["scores"] == [1, 2]


def test_block_stops_matching_drops_while_the_fx_is_in_play():
    state = game(hands={0: ["lab-block"], 1: ["steel-r1a", "steel-r2"]})
    drop(state, 0, "lab-block", 3)
    act(state, None, ScriptedRng(), type="timeout", seats=[0])
    assert state["active"] == 1
    with pytest.raises(IllegalAction, match="blocks"):
        drop(state, 1, "steel-r1a", 2)
    drop(state, 1, "steel-r2", 2)


def test_conditions_must_all_hold_for_the_effects():
    unmet = game(hands={0: ["lab-conditions"]}, on_board={2: [("candy-r2", 0, "red")]})
    drop(unmet, 0, "lab-conditions", 3)
    assert unmet["scores"] == [1, 0]
    met = game(hands={0: ["lab-conditions"]}, on_board=OWN_RED_AND_BLUE)
    drop(met, 0, "lab-conditions", 3)
    assert met["scores"] == [1 + 3, 0]


def test_an_fx_covers_the_colour_under_it():
    state = game(hands={0: ["candy-fx2", "steel-r1a"]}, on_board={2: [("candy-r1b", 1, "red")]})
    drop(state, 0, "candy-fx2", 2)
    assert "red" in ENGINE.view(state, None)["missing_colours"]
    drop(state, 0, "steel-r1a", 1, colour="red")
    assert state["scores"][0] == 1 + 2


def test_the_spin_window_result_happens_after_an_extra_spin():
    state = game(
        hands={0: ["lab-extra-spin", "candy-r1a"]}, on_board={4: [("steel-b1a", 1, "blue")]}
    )
    drop(state, 0, "lab-extra-spin", 3)
    drop(state, 0, "candy-r1a", 2)
    act(state, 0, type="spin")
    close(state, "spin", ScriptedRng(0))
    assert state["stacks"][3] == [] and state["active"] == 1


def test_draw_choose_for_both_lets_each_opponent_choose_in_turn():
    fx = {
        "id": "fx-both-choose",
        "kind": "fx",
        "playlist": "fxlab",
        "name": "Swap Meet",
        "level": 1,
        "effects": [{"form": "draw", "who": "both", "count": 1, "mode": "choose"}],
    }
    catalogue = json.loads(DEFAULT_PATH.read_text())
    catalogue["cards"].append(fx)
    state = game(
        hands={0: ["fx-both-choose"], 1: []},
        decks={0: ["candy-y3"], 1: ["steel-g3", "steel-y3"]},
        catalogue=catalogue,
    )
    drop(state, 0, "fx-both-choose", 3, ScriptedRng())
    act(state, 0, ScriptedRng(), type="choose", card="candy-y3")
    assert ENGINE.to_act(state) == [1] and ENGINE.decision(state, 1) is not None
    act(state, None, ScriptedRng(), type="timeout", seats=[1])  # takes the top card
    assert state["hands"][1] == ["steel-y3"] and state["active"] == 0
