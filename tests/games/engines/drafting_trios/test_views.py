"""What each seat sees: own cards private, the table public, pending choices never shown."""

import json

from games.engines.drafting_trios import ENGINE

from .scenarios import at_draft, at_play, both, new_game, rng


def test_a_seat_sees_its_own_hand_and_pile_and_only_counts_of_the_other():
    state = at_draft([["R1", "R2", "R3", "R4", "R5", "R6"], ["G1"] * 6])
    mine, spectator = ENGINE.view(state, 0), ENGINE.view(state, None)
    assert mine["hand"] == ["R1", "R2"] and mine["pile"] == ["R1", "R2", "R3", "R4", "R5", "R6"]
    assert mine["seats"]["1"]["hand_count"] == 2 and mine["seats"]["1"]["pile_count"] == 6
    assert "G1" not in str(mine)
    assert "hand" not in spectator and "pile" not in spectator
    assert "R1" not in str(spectator) and "G1" not in str(spectator)
    assert mine["to_act"] == [0, 1] and mine["phase"] == "draft"


def test_picks_and_discards_are_shown_to_their_owner_only():
    state = at_draft([["R1", "R2", "R3", "R4", "R5", "R6"], ["G1"] * 6])
    both(
        state,
        {"type": "draft", "pick": "R6", "discard": "R5"},
        {"type": "draft", "pick": "G1", "discard": "G1"},
    )
    mine, theirs = ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert mine["picks"] == ["R6"] and mine["discards"] == ["R5"]
    assert theirs["picks"] == ["G1"] and "R5" not in str(theirs)
    assert theirs["pile"] == ["R1", "R2", "R3", "R4"]  # the swapped pile is theirs to see now


def test_revealed_actions_and_categories_are_public_after_resolution():
    state = at_play([["R6", "G6", "B6", "R1", "R2"], ["G1", "G2", "G3", "G4", "G5"]])
    ENGINE.apply(
        state, 0, {"type": "trio", "category": "high_cards", "cards": ["B6", "G6", "R6"]}, rng()
    )
    assert "high_cards" not in str(ENGINE.view(state, 1)["revealed"])
    ENGINE.apply(state, 1, {"type": "discard", "cards": ["G1", "G2", "G3"]}, rng())
    spectator = ENGINE.view(state, None)
    assert spectator["revealed"][0]["cards"] == ["B6", "G6", "R6"]
    assert spectator["revealed"][1] == {"seat": 1, "type": "discard", "cards": ["G1", "G2", "G3"]}
    assert spectator["seats"]["0"]["categories"]["high_cards"]["state"] == "filled"
    assert spectator["seats"]["1"]["total"] == 5


def test_assist_previews_show_the_best_score_per_open_category_only_when_flagged():
    hands = [["R4", "R5", "R6", "G1", "B1"], ["G1", "G2", "G3", "G4", "G5"]]
    assert "previews" not in ENGINE.view(at_play(hands), 0)
    previews = ENGINE.view(at_play(hands, config={"assist_previews": True}), 0)["previews"]
    assert previews["royal_flush"] == 50 and previews["all_red"] == 21
    assert previews["low_cards"] == 20 - (1 + 1 + 4) + 3


def test_a_redeal_of_hidden_cards_changes_them_but_not_the_view():
    state = new_game()
    copy = ENGINE.resample_hidden(state, 0, rng())
    assert copy["piles"][0] == state["piles"][0]
    assert copy["piles"][1] != state["piles"][1] or copy["decks"][1] != state["decks"][1]
    assert ENGINE.view(copy, 0) == ENGINE.view(state, 0)


def test_a_view_shares_nothing_mutable_with_the_state():
    state = at_play([["R6", "G6", "B6", "R1", "R2"], ["G1", "G2", "G3", "G4", "G5"]])
    both(
        state,
        {"type": "trio", "category": "high_cards", "cards": ["B6", "G6", "R6"]},
        {"type": "discard", "cards": ["G1", "G2", "G3"]},
    )
    before = json.dumps(state, sort_keys=True)
    view = ENGINE.view(state, 0)
    view["seats"]["0"]["categories"]["high_cards"]["trio"].append("Y1")
    view["revealed"][0]["cards"].clear()
    view["hand"].clear()
    view["roles"]["0"] = "DMO"
    assert json.dumps(state, sort_keys=True) == before
