"""The Drafting Trios computer player: it drafts towards what it can still fill, spends power
cards for what they are worth, and beats a random player."""

import random

from benchmarks.bots import play
from games.engines.base import seed_bytes
from games.engines.drafting_trios import ENGINE
from games.engines.drafting_trios.computer import computer
from tests.games.engines.drafting_trios.scenarios import at_draft, at_play, fill

COMPUTER = ENGINE.bots["computer"]


def test_the_computer_is_what_computer_seats_play():
    assert next(key for key in ENGINE.bots if key != "random") == "computer"
    assert COMPUTER is computer


def test_it_drafts_the_card_that_completes_a_trio_in_an_open_category():
    state = at_draft([["R3", "B1", "G6", "Y2"], ["G1", "G2", "G3", "G4"]], hands=[["R3", "G3"], []])
    action = COMPUTER(state, 0, random.Random(1))
    assert action["pick"] == "R3"  # three of a kind: TripleThreat 35


def test_it_does_not_draft_for_a_category_it_already_filled():
    state = at_draft([["R3", "G6", "B1", "Y2"], ["G1"] * 4], hands=[["R3", "B3", "G6", "Y6"], []])
    fill(state, 0, ["triple_threat", "double_trouble"], score=20)
    action = COMPUTER(state, 0, random.Random(1))
    assert action["pick"] != "R3"  # the three 3s score nowhere it can still fill


def test_it_passes_on_the_weakest_cards_and_keeps_the_strong_ones_from_the_opponent():
    state = at_draft([["R4", "R5", "R6", "B1"], ["G1"] * 4], hands=[["R4", "R5"], []])
    action = COMPUTER(state, 0, random.Random(1))
    assert action["pick"] == "R6" and action["discard"] != "B1"


def test_it_plays_visible_zero_over_a_poor_trio():
    # paid with two power cards (value 0); R1, B2, Y4 would make 16 in Low Cards
    hand = ["visible_zero", "plus_one", "mulligan", "R1", "B2", "Y4"]
    state = at_play([hand, ["G1", "G2", "G3", "G4", "G5"]])
    action = COMPUTER(state, 0, random.Random(1))
    assert action["type"] == "power" and action["card"] == "visible_zero"


def test_it_lays_a_strong_trio_rather_than_spend_a_weak_power():
    state = at_play([["R4", "R5", "R6", "plus_one", "G1"], ["G1", "G2", "G3", "G4", "G5"]])
    action = COMPUTER(state, 0, random.Random(1))
    assert action == {"type": "trio", "category": "royal_flush", "cards": ["R4", "R5", "R6"]}


def test_it_never_fills_a_category_with_nothing_when_a_discard_scores():
    state = at_play([["R1", "G4", "B6", "Y2"], ["G1", "G2", "G3", "G4", "G5"]])
    for category in ["all_red", "all_blue", "all_green", "all_yellow", "high_cards", "low_cards"]:
        fill(state, 0, [category], score=10)
    action = COMPUTER(state, 0, random.Random(1))
    assert action["type"] == "discard"


def test_it_beats_a_random_player_in_most_games():
    wins = 0
    for number in range(20):
        players = ["computer", "random"] if number % 2 == 0 else ["random", "computer"]
        winners = play(ENGINE, seed_bytes(f"t{number}"), players, random.Random(number))
        wins += players.index("computer") in winners
    assert wins >= 17
