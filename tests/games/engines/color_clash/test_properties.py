"""Properties over random play: cards are conserved, scores are the cards left, and a Wild
Draw Four is never legal while its player holds the colour in force."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import conformance
from games.engines.base import IllegalAction, StepRng, seed_bytes
from games.engines.color_clash import ENGINE
from games.engines.color_clash.cards import COLOR, COLORS, DECK_SIZE, NOTATION, hand_points

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "seats": st.integers(2, 6),
        "mode": st.sampled_from(["classic", "family"]),
        "substitutes": st.sets(st.integers(0, 5), max_size=3),
    }
)


def random_play(game, match="one_round", max_steps=100_000):
    """Yield the state after setup and after every random legal action."""
    seats = game["seats"]
    substitutes = sorted(seat for seat in game["substitutes"] if seat < seats)
    config = {"mode": game["mode"], "match": match, "substitutes": substitutes}
    config = ENGINE.validate_config(config, seats)
    seed = seed_bytes(game["seed"])
    policy = random.Random(game["seed"])
    state = ENGINE.setup(config, seats, StepRng(seed, 0))
    yield state
    for step in range(1, max_steps + 1):
        choice = conformance.choose_random(ENGINE, state, policy)
        if choice is None:
            return
        ENGINE.apply(state, *choice, StepRng(seed, step))
        yield state


def all_cards(state):
    return sorted(
        [card for hand in state["hands"] for card in hand]
        + state["draw_pile"]
        + state["discard_pile"]
    )


@settings(max_examples=40, deadline=None)
@given(games)
def test_the_108_cards_are_always_in_the_hands_and_piles(game):
    for state in random_play(game, max_steps=400):
        assert all_cards(state) == list(range(DECK_SIZE))


@settings(max_examples=25, deadline=None)
@given(games)
def test_the_round_winner_scores_the_cards_left_in_the_other_hands(game):
    went_out = False
    for state in random_play(game):
        if state["places"] and not went_out:
            went_out = True
            winner = state["places"][0]
            points = state["round_points"] or [
                int(v) for v in state["rounds"][-1]["points"].values()
            ]
            left = sum(hand_points(hand) for hand in state["hands"])
            expected = 0 if winner in state["substitutes"] else left
            assert points[winner] == expected
            assert sum(points) == expected
    assert went_out and state["over"]
    assert state["scores"] == [state["rounds"][0]["points"][str(s)] for s in range(game["seats"])]


@settings(max_examples=40, deadline=None)
@given(games)
def test_wild_draw_four_is_never_legal_while_holding_the_colour_in_force(game):
    for state in random_play(game, max_steps=400):
        seat = state["turn"]
        if seat is None or state["window"] is not None or state["choosing_color"]:
            continue
        hand = state["hands"][seat]
        holds_color = any(COLOR[card] == state["color"] for card in hand)
        listed = any(a.get("card") == "W4" for a in ENGINE.legal_actions(state, seat))
        if holds_color:
            assert not listed
            if "W4" in [NOTATION[card] for card in hand] and state["drawn"] is None:
                with pytest.raises(IllegalAction, match="Wild Draw Four"):
                    ENGINE.validate(state, seat, {"type": "play", "card": "W4", "color": COLORS[0]})
        elif "W4" in [NOTATION[card] for card in hand] and state["drawn"] is None:
            assert listed
