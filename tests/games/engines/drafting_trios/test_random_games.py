"""Properties over many random games: the hand invariant, and the bots."""

import random

from games.engines.base import StepRng, seed_bytes
from games.engines.drafting_trios import ENGINE
from games.engines.drafting_trios.cards import PLUS_ONE


def play(bots, seed, on_play_start=None):
    """One game between ``bots`` (one per seat); returns the outcome."""
    key = seed_bytes(f"random games {seed}")
    state = ENGINE.setup(ENGINE.validate_config({}, 2), 2, StepRng(key, 0))
    policy = random.Random(seed)
    step, serial = 0, None
    while ENGINE.outcome(state) is None:
        if on_play_start and state["stage"] == "play" and state["serial"] != serial:
            serial = state["serial"]
            on_play_start(state)
        seat = policy.choice(ENGINE.to_act(state))
        action = bots[seat](state, seat, policy)
        step += 1
        ENGINE.apply(state, seat, action, StepRng(key, step))
    return ENGINE.outcome(state)


def test_every_playing_phase_starts_with_five_cards_or_six_after_plus_one():
    checked = []

    def hands_hold_five_or_six(state):
        for seat in (0, 1):
            expected = 6 if PLUS_ONE in state["used"][seat] else 5
            assert len(state["hands"][seat]) == expected, (state["round"], seat)
        checked.append(state["round"])

    random_bot = ENGINE.bots["random"]
    for seed in range(1000):
        play([random_bot, random_bot], seed, hands_hold_five_or_six)
    assert len(checked) > 1000 * 10


def test_the_greedy_bot_beats_the_random_one():
    greedy, random_bot = ENGINE.bots["greedy"], ENGINE.bots["random"]
    wins = 0
    for seed in range(20):
        seats = [greedy, random_bot] if seed % 2 else [random_bot, greedy]
        greedy_seat = seats.index(greedy)
        wins += play(seats, seed).winners == [greedy_seat]
    assert wins >= 16
