"""Rule-set flags, roles, the decks of 154 and the time control the engine exposes."""

from collections import Counter

import pytest

from games.engines.base import ConfigError
from games.engines.drafting_trios import ENGINE
from games.engines.drafting_trios.cards import new_deck

from .scenarios import new_game


def test_defaults_are_those_of_the_rules_file():
    assert ENGINE.validate_config({}, 2) == {
        "roles": {"0": "EC", "1": "DMO"},
        "power_cards_in_trios": False,
        "colour_bonus_on_failed_trio": False,
        "assist_previews": False,
        "short_hand": "pass",
    }


def test_flags_are_stored_with_each_game():
    state = new_game({"power_cards_in_trios": True, "roles": {1: "EC", 0: "DMO"}})
    assert state["config"]["power_cards_in_trios"] is True
    assert state["config"]["roles"] == {"1": "EC", "0": "DMO"}


@pytest.mark.parametrize(
    ("config", "seats", "message"),
    [
        ({}, 3, "exactly 2 seats"),
        ({"speed": 1}, 2, "unknown config key"),
        ({"roles": {"0": "EC", "1": "EC"}}, 2, "exactly one seat the EC"),
        ({"roles": {"0": "EC"}}, 2, "seat 0 and seat 1"),
        ({"roles": ["EC", "DMO"]}, 2, "map each seat"),
        ({"assist_previews": "yes"}, 2, "assist_previews must be true or false"),
        ({"short_hand": "lose"}, 2, "short_hand must be one of pass, end_game"),
    ],
)
def test_bad_config_is_refused_with_a_clear_message(config, seats, message):
    with pytest.raises(ConfigError, match=message):
        ENGINE.validate_config(config, seats)


def test_a_deck_holds_154_cards_in_the_notation():
    deck = Counter(new_deck())
    assert sum(deck.values()) == 154
    assert deck["R1"] == deck["Y6"] == 5
    assert deck["visible_zero"] == 2
    assert deck["burn"] == deck["heart_of_the_cards"] == 4
    assert len(deck) == 24 + 9


def test_setup_draws_a_pile_of_ten_for_each_player_from_their_own_shuffled_deck():
    state = new_game()
    assert [len(pile) for pile in state["piles"]] == [10, 10]
    assert [len(deck) for deck in state["decks"]] == [144, 144]
    assert state["hands"] == [[], []]
    assert state["decks"][0] != state["decks"][1]
    assert ENGINE.to_act(state) == [0, 1]


def test_time_control_exposes_each_phase_allowance_and_the_reserve():
    control = ENGINE.default_time_control
    assert control["allowances"] == {"draft": 60, "play": 90, "choice": 30}
    assert control["reserve"] == 300
    assert control["policy"] == "lose"
    assert ENGINE.decision(new_game(), 0).phase == "draft"
    assert ENGINE.windows(new_game()) == []
