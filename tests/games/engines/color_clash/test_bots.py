"""Computer players: always legal, finish games, and play sensibly."""

import random

import pytest

from games.engines.color_clash import ENGINE
from games.engines.color_clash.bots import heuristic_bot, random_bot
from tests.games.engines.color_clash.scenarios import act, play, table


def bot_game(bots, mode, seed, match="one_round"):
    """Each step: the seats that may act are asked in turn; a window closes when none acts."""
    seats = len(bots)
    rng = random.Random(seed)
    state = ENGINE.setup(ENGINE.validate_config({"mode": mode, "match": match}, seats), seats, rng)
    for _ in range(100_000):
        if state["over"]:
            return state
        for seat in ENGINE.to_act(state):
            action = bots[seat](state, seat, rng)
            if action is not None:
                ENGINE.apply(state, seat, action, rng)  # raises if the bot were illegal
                break
        else:
            ENGINE.apply(state, None, {"type": "window_closed", "name": "last_card"}, rng)
    raise AssertionError("the bots' game did not end")


@pytest.mark.parametrize("mode", ["classic", "family"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_bots_finish_games_with_legal_moves(seats, mode):
    bots = [heuristic_bot if seat % 2 == 0 else random_bot for seat in range(seats)]
    for seed in range(5):
        state = bot_game(bots, mode, seed)
        assert ENGINE.outcome(state).ranking


def test_heuristic_bots_finish_a_first_to_500_match():
    state = bot_game([heuristic_bot] * 3, "classic", 1, match="to_500")
    assert max(state["scores"]) >= 500


def test_the_heuristic_bot_beats_the_random_bot():
    wins = sum(
        ENGINE.outcome(bot_game([heuristic_bot, random_bot], "family", seed)).winners == [0]
        for seed in range(60)
    )
    assert wins >= 40


def test_keeps_wilds_while_a_coloured_card_fits():
    state = table([["W", "R1", "B2", "Y3"], ["G1"]], "R5")
    assert heuristic_bot(state, 0, random.Random(0)) == play("R1")


def test_plays_a_wild_when_nothing_else_fits_naming_the_colour_it_holds_most():
    state = table([["W", "B1", "Y2", "Y3"], ["G1"]], "R5")
    assert heuristic_bot(state, 0, random.Random(0)) == play("W", "yellow")


def test_calls_last_card_before_playing_its_next_to_last_card():
    state = table([["R1", "B2"], ["G1", "G2"]], "R5")
    assert heuristic_bot(state, 0, random.Random(0)) == {"type": "call_last_card"}
    act(state, 0, {"type": "call_last_card"})
    assert heuristic_bot(state, 0, random.Random(0)) == play("R1")


def test_catches_now_and_then():
    state = table([["R1", "B2"], ["G1", "G2", "G3"]], "R5")
    act(state, 0, play("R1"))
    answers = [heuristic_bot(state, 1, random.Random(seed)) for seed in range(40)]
    assert {"type": "catch", "target": 0} in answers and None in answers
    assert heuristic_bot(state, 0, random.Random(0)) == {"type": "call_last_card"}


def test_draws_when_nothing_fits_and_passes_on_a_useless_draw():
    state = table([["B1", "B2", "B3"], ["G1"]], "R5", draw=["R7"])
    assert heuristic_bot(state, 0, random.Random(0)) == {"type": "draw"}
    act(state, 0, {"type": "draw"})
    assert heuristic_bot(state, 0, random.Random(0)) == play("R7")
