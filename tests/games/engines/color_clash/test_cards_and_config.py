"""The deck, the notation, the points, and the configuration with its defaults."""

from collections import Counter

import pytest

from games.engines.base import ConfigError
from games.engines.color_clash import ENGINE
from games.engines.color_clash.cards import (
    COLOR,
    DECK_SIZE,
    IDS_BY_NOTATION,
    NOTATION,
    POINTS,
    hand_points,
)


def test_108_cards_with_unique_ids_and_the_uno_distribution():
    counts = Counter(NOTATION)
    assert len(NOTATION) == DECK_SIZE == 108
    assert sum(len(ids) for ids in IDS_BY_NOTATION.values()) == 108
    for letter in "RBYG":
        assert counts[f"{letter}0"] == 1
        for symbol in [*"123456789", "S", "R", "D"]:
            assert counts[f"{letter}{symbol}"] == 2
        assert sum(1 for name in NOTATION if name[0] == letter and name[:2] != "W4") == 25
    assert counts["W"] == 4 and counts["W4"] == 4
    assert [COLOR[card] for card in IDS_BY_NOTATION["W"]] == [-1] * 4


def test_points_numbers_face_value_symbols_20_wilds_50():
    def worth(name):
        return POINTS[IDS_BY_NOTATION[name][0]]

    assert [worth(f"G{value}") for value in range(10)] == list(range(10))
    assert worth("RS") == worth("BR") == worth("YD") == 20
    assert worth("W") == worth("W4") == 50
    assert hand_points([IDS_BY_NOTATION[name][0] for name in ("R7", "BS", "W4", "Y0")]) == 77


def test_defaults_classic_one_round_30s_and_family_three_rounds_90s():
    assert ENGINE.validate_config({}, 2) == {
        "mode": "classic",
        "match": "one_round",
        "substitutes": [],
        "turn_seconds": 30,
    }
    family = ENGINE.validate_config({"mode": "family"}, 4)
    assert family["match"] == "three_rounds" and family["turn_seconds"] == 90
    assert ENGINE.time_control(family)["allowances"] == {"turn": 90}
    assert ENGINE.default_time_control["allowances"] == {"turn": 30}
    assert ENGINE.default_time_control["policy"] == "draw_and_pass"


@pytest.mark.parametrize(
    ("config", "seats", "message"),
    [
        ({}, 1, "2 to 6 seats"),
        ({}, 7, "2 to 6 seats"),
        ({"mode": "party"}, 2, "mode"),
        ({"match": "best_of_7"}, 2, "match must be"),
        ({"turn_seconds": 20}, 2, "turn_seconds"),
        ({"substitutes": [2]}, 2, "substitutes"),
        ({"colour": "red"}, 2, "unknown setting"),
    ],
)
def test_bad_configs_say_what_to_fix(config, seats, message):
    with pytest.raises(ConfigError, match=message):
        ENGINE.validate_config(config, seats)
