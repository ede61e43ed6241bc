"""The DropMix Clash computer player: it scores (the missing colour, a Full Mix), spins the
Equalizer when the opponent leads, and beats a random player."""

import random

from benchmarks.bots import play
from games.engines.base import seed_bytes
from games.engines.dropmix import ENGINE
from tests.games.engines.dropmix.scenario import game

COMPUTER = ENGINE.bots["computer"]
OPPONENT_HOLDS = {
    slot: [(card, 1, colour)]
    for slot, card, colour in [
        (1, "steel-r1a", "red"),
        (2, "steel-r2", "red"),
        (4, "steel-b2", "blue"),
    ]
}


def test_the_computer_is_what_computer_seats_play():
    assert next(key for key in ENGINE.bots if key != "random") == "computer"


def test_it_takes_the_missing_colour_bonus():
    state = game(hands={0: ["candy-r1a", "candy-b1a"]}, on_board={2: [("steel-r2", 1, "red")]})
    assert COMPUTER(state, 0, random.Random(1)) == {"type": "drop", "card": "candy-b1a", "slot": 4}
    assert state["hands"][0] == ["candy-r1a", "candy-b1a"]  # tried on copies only


def test_it_completes_a_full_mix():
    mine = {
        slot: [(card, 0, colour)]
        for slot, card, colour in [
            (1, "steel-r1a", "red"),
            (2, "steel-r2", "red"),
            (3, "steel-y2", "yellow"),
            (4, "steel-b2", "blue"),
        ]
    }
    state = game(hands={0: ["candy-g3", "candy-r1a"]}, on_board=mine)
    action = COMPUTER(state, 0, random.Random(1))
    assert action["type"] == "drop" and action["slot"] == 5


def test_it_spins_the_equalizer_when_the_opponent_leads():
    state = game(hands={0: ["candy-g3"]}, on_board=OPPONENT_HOLDS, scores=(4, 9))
    assert COMPUTER(state, 0, random.Random(1)) == {"type": "spin"}


def test_it_drops_rather_than_spin_when_it_leads_and_the_board_is_even():
    board = {2: [("steel-r2", 1, "red")]}
    state = game(hands={0: ["candy-g3", "candy-b1a"]}, on_board=board, scores=(12, 3))
    assert COMPUTER(state, 0, random.Random(1))["type"] == "drop"


def test_it_beats_a_random_player_in_most_games():
    wins = 0
    for number in range(20):
        players = ["computer", "random"] if number % 2 == 0 else ["random", "computer"]
        winners = play(ENGINE, seed_bytes(f"t{number}"), players, random.Random(number))
        wins += players.index("computer") in winners
    assert wins >= 16
