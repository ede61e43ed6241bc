"""Simultaneous secret drafting: picks, discards, pile swaps, Mulligan, decks running out."""

import pytest

from games.engines.base import IllegalAction
from games.engines.drafting_trios import ENGINE

from .scenarios import at_draft, at_play, both, discard_three, draft_through, fill, new_game, rng


def test_first_round_drafts_five_cards_in_five_steps_with_pile_swaps():
    state = new_game()
    start = [list(pile) for pile in state["piles"]]
    serials = set()
    for step in range(5):
        serials.add(ENGINE.decision(state, 0).serial)
        picks = []
        for seat in (0, 1):
            pile = sorted(state["piles"][seat])
            picks.append({"type": "draft", "pick": pile[0], "discard": pile[-1]})
        both(state, *picks, step=step * 2 + 1)
        if step == 0:
            left = list(start[1])
            left.remove(picks[1]["pick"])
            left.remove(picks[1]["discard"])
            assert sorted(state["piles"][0]) == sorted(left)  # seat 0 now holds seat 1's pile
    assert len(serials) == 5
    assert [len(hand) for hand in state["hands"]] == [5, 5]
    assert [len(pile) for pile in state["discard_piles"]] == [5, 5]
    assert state["stage"] == "play"
    assert ENGINE.decision(state, 1).phase == "play"


def test_later_rounds_draft_three_cards_from_piles_of_six():
    state = at_draft([["R1", "R2", "R3", "R4", "R5", "R6"], ["G1", "G2", "G3", "G4", "G5", "G6"]])
    draft_through(state)
    assert state["stage"] == "play"
    assert [len(hand) for hand in state["hands"]] == [5, 5]
    assert state["picks"] == [["R1", "G3", "R5"], ["G1", "R3", "G5"]]
    assert state["tossed"] == [["R2", "G4", "R6"], ["G2", "R4", "G6"]]
    assert state["discard_piles"] == [["R2", "G4", "R6"], ["G2", "R4", "G6"]]


def test_a_pick_and_discard_must_come_from_the_pile():
    state = at_draft([["R1", "R2", "R3", "R4", "R5", "R6"], ["G1"] * 6])
    with pytest.raises(IllegalAction, match="pick one card of your pile"):
        ENGINE.apply(state, 0, {"type": "draft", "pick": "G1", "discard": "R2"}, rng())
    with pytest.raises(IllegalAction, match="pick one card of your pile"):
        ENGINE.apply(state, 0, {"type": "draft", "pick": "R1", "discard": "R1"}, rng())
    ENGINE.apply(state, 1, {"type": "draft", "pick": "G1", "discard": "G1"}, rng())  # two copies
    with pytest.raises(IllegalAction, match="already made your choice"):
        ENGINE.apply(state, 1, {"type": "draft", "pick": "G1", "discard": "G1"}, rng())


def test_a_choice_is_stored_unseen_until_both_have_chosen():
    state = at_draft([["R1", "R2", "R3", "R4", "R5", "R6"], ["G1"] * 6])
    events = ENGINE.apply(state, 0, {"type": "draft", "pick": "R6", "discard": "R1"}, rng())
    assert events == [{"type": "chosen", "seat": 0}]
    assert state["hands"][0] == ["R1", "R2"]  # nothing moves before the step resolves
    assert ENGINE.decision(state, 0) is None
    assert ENGINE.decision(state, 1) is not None
    opponent = ENGINE.view(state, 1)
    assert opponent["chosen"] == {"0": True, "1": False}
    assert "R6" not in str({k: v for k, v in opponent.items() if k != "hand"})
    assert ENGINE.view(state, 0)["my_choice"] == {"type": "draft", "pick": "R6", "discard": "R1"}


def test_mulligan_restarts_the_drafting_with_fresh_piles():
    decks = [["B1"] * 20, ["B2"] * 20]
    state = at_draft([["R1"] * 6, ["G1"] * 6], decks=decks)
    state["mulligans"][0] = 2
    assert {"type": "mulligan"} in ENGINE.legal_actions(state, 0)
    assert {"type": "mulligan"} not in ENGINE.legal_actions(state, 1)
    serial = state["serial"]
    events = both(state, {"type": "mulligan"}, {"type": "draft", "pick": "G1", "discard": "G1"})
    assert {"type": "mulligan", "seat": 0} in events
    assert state["mulligans"][0] == 1
    assert state["piles"] == [["B1"] * 6, ["B2"] * 6]
    assert state["discard_piles"] == [["R1"] * 6, ["G1"] * 6]
    assert state["hands"] == [["R1", "R2"], ["G1", "G2"]]  # seat 1's pick lapsed
    assert state["step"] == 0 and state["serial"] > serial
    draft_through(state)
    assert [len(hand) for hand in state["hands"]] == [5, 5]


def test_when_both_spend_a_mulligan_only_the_first_received_is_spent():
    state = at_draft([["R1"] * 6, ["G1"] * 6])
    state["mulligans"] = [2, 2]
    ENGINE.apply(state, 1, {"type": "mulligan"}, rng(1))
    ENGINE.apply(state, 0, {"type": "mulligan"}, rng(2))
    assert state["mulligans"] == [2, 1]


def test_a_mulligan_is_refused_in_round_one_or_after_the_first_step():
    state = new_game()
    state["mulligans"][0] = 2
    with pytest.raises(IllegalAction, match="first pick of a later drafting phase"):
        ENGINE.apply(state, 0, {"type": "mulligan"}, rng())
    later = at_draft([["R1"] * 6, ["G1"] * 6])
    later["mulligans"][0] = 2
    both(later, *({"type": "draft", "pick": c, "discard": c} for c in ("R1", "G1")))
    with pytest.raises(IllegalAction, match="first pick"):
        ENGINE.apply(later, 0, {"type": "mulligan"}, rng())
    with pytest.raises(IllegalAction, match="no mulligan charge"):
        ENGINE.apply(at_draft([["R1"] * 6, ["G1"] * 6]), 0, {"type": "mulligan"}, rng())


def test_a_deck_running_out_reshuffles_the_own_discard_pile():
    state = at_draft([["R1"] * 6, ["G1"] * 6], decks=[["B1", "B2"], ["B3"] * 10])
    state["discard_piles"][0] = ["Y5"] * 3
    draft_through(state)
    fill(state, 0, ["all_red"])
    events = both(
        state,
        {"type": "discard", "cards": sorted(state["hands"][0])[:3]},
        {"type": "discard", "cards": sorted(state["hands"][1])[:3]},
    )
    assert {"type": "reshuffled", "seat": 0, "deck": 3 + 3 + 3} in events
    # the two deck cards first, then four from the reshuffled discards
    assert state["round"] == 3
    assert sorted(state["piles"][0][:2]) == ["B1", "B2"]
    assert len(state["piles"][0]) == 6


def test_a_short_deck_draws_what_exists_and_uneven_piles_still_draft():
    state = at_draft([["R1", "R2", "R3"], ["G1"] * 6])
    draft_through(state)
    # seat 0: 3 -> 1, then 4 -> 2 after the swap, then the single card; seat 1 likewise
    assert state["stage"] == "play"
    assert sum(len(hand) for hand in state["hands"]) == 4 + 5


def test_a_single_card_pile_is_picked_with_no_discard():
    state = at_draft([["R1"], ["G1", "G2"]])
    assert ENGINE.legal_actions(state, 0) == [{"type": "draft", "pick": "R1", "discard": None}]
    with pytest.raises(IllegalAction, match="pick it, with no discard"):
        ENGINE.apply(state, 0, {"type": "draft", "pick": "R1", "discard": "R1"}, rng())


def test_no_pile_can_be_formed_so_the_game_ends_after_the_round():
    state = at_play([["R1", "R2", "R3", "R4", "R5"], ["G1"] * 5], decks=[[], ["B1"] * 30])
    trio = {"type": "trio", "category": "low_straight", "cards": ["R1", "R2", "R3"]}
    events = both(state, trio, {"type": "discard", "cards": ["G1", "G1", "G1"]})
    assert {"type": "no_pile", "seat": 0} in events
    assert state["round"] == 3 and state["last_round"] is True
    assert state["piles"] == [[], ["B1"] * 6]
    draft_through(state)  # seat 0 still drafts from seat 1's pile after the swap
    assert len(state["hands"][0]) == 3
    both(state, discard_three(state, 0), discard_three(state, 1))
    outcome = ENGINE.outcome(state)
    assert outcome.reason == "no_pile"
    assert outcome.scores == {0: 25 + 5, 1: 5 + 5}
