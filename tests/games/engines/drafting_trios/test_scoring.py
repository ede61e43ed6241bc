"""Known values of every category, through the public ``score_trio``."""

import pytest

from games.engines.drafting_trios.scoring import CATEGORIES, InvalidTrio, score_trio


@pytest.mark.parametrize(
    ("category", "cards", "points"),
    [
        # All <colour>: 5 per card of the colour, + the highest value when all three are.
        ("all_red", ["R1", "R2", "R3"], 18),
        ("all_red", ["R6", "R5", "G6"], 10),
        ("all_red", ["B1", "G2", "Y3"], 0),
        ("all_blue", ["B4", "B5", "B6"], 21),
        ("all_green", ["G2", "G2", "G2"], 17),
        ("all_yellow", ["Y6", "R1", "B1"], 5),
        ("all_yellow", ["Y3", "Y1", "burn"], 10),
        # High Cards: the sum, +3 for three different colours.
        ("high_cards", ["R6", "G6", "B6"], 21),
        ("high_cards", ["R6", "R6", "R5"], 17),
        ("high_cards", ["R1", "R1", "G1"], 3),
        # Low Cards: 20 - sum, +3 for three different colours.
        ("low_cards", ["R1", "G1", "B1"], 20),
        ("low_cards", ["R6", "R6", "R6"], 2),
        ("low_cards", ["R6", "G6", "B6"], 5),
        # DoubleTrouble: 20 if two share a value.
        ("double_trouble", ["R3", "G3", "B5"], 23),
        ("double_trouble", ["R3", "R3", "R5"], 20),
        ("double_trouble", ["R1", "G2", "B3"], 0),
        # TripleThreat: 35 for three of a value, +3 three colours, +7 one colour.
        ("triple_threat", ["R4", "G4", "B4"], 38),
        ("triple_threat", ["R4", "R4", "R4"], 42),
        ("triple_threat", ["R4", "R4", "G4"], 35),
        ("triple_threat", ["R1", "R2", "R3"], 0),
        # Low Straight: consecutive with the highest at most 4.
        ("low_straight", ["R2", "G3", "B4"], 28),
        ("low_straight", ["R1", "R2", "R3"], 25),
        ("low_straight", ["B2", "R1", "G3"], 28),
        ("low_straight", ["R3", "G4", "B5"], 0),
        ("low_straight", ["R1", "G2", "B4"], 0),
        ("low_straight", ["R2", "G2", "B3"], 0),
        # High Straight: consecutive with the lowest at least 3; no wrap-around.
        ("high_straight", ["R3", "G4", "B5"], 28),
        ("high_straight", ["R4", "R5", "R6"], 25),
        ("high_straight", ["R2", "G3", "B4"], 0),
        ("high_straight", ["R5", "G6", "B1"], 0),
        # Royal Flush: 4, 5, 6 of one colour, no colour bonus.
        ("royal_flush", ["R4", "R5", "R6"], 50),
        ("royal_flush", ["Y6", "Y4", "Y5"], 50),
        ("royal_flush", ["R4", "G5", "R6"], 0),
        ("royal_flush", ["R3", "R4", "R5"], 0),
    ],
)
def test_known_values(category, cards, points):
    assert score_trio(category, cards) == points


def test_royal_flush_cards_score_less_as_a_high_straight_and_more_off_colour():
    assert score_trio("royal_flush", ["R4", "R5", "R6"]) == 50
    assert score_trio("high_straight", ["R4", "R5", "R6"]) == 25
    assert score_trio("royal_flush", ["R4", "G5", "B6"]) == 0
    assert score_trio("high_straight", ["R4", "G5", "B6"]) == 28


def test_a_power_card_has_value_zero_and_no_colour():
    assert score_trio("high_cards", ["R6", "G6", "burn"]) == 12
    assert score_trio("low_cards", ["R1", "G1", "bonus"]) == 18
    assert score_trio("double_trouble", ["burn", "bonus", "R1"]) == 20
    assert score_trio("low_straight", ["visible_zero", "R1", "R2"]) == 25


@pytest.mark.parametrize(
    ("category", "cards", "without_flag", "with_flag"),
    [
        ("double_trouble", ["R1", "G2", "B3"], 0, 3),
        ("triple_threat", ["R1", "G2", "B3"], 0, 3),
        ("triple_threat", ["R1", "R2", "R3"], 0, 7),
        ("low_straight", ["R4", "G5", "B6"], 0, 3),
        ("high_straight", ["R1", "G2", "B3"], 0, 3),
        ("high_straight", ["R1", "R2", "R3"], 0, 0),
        ("royal_flush", ["R1", "G2", "B3"], 0, 0),
        ("high_cards", ["R1", "G2", "B3"], 9, 9),
    ],
)
def test_colour_bonus_on_failed_trio_flag(category, cards, without_flag, with_flag):
    assert score_trio(category, cards) == without_flag
    assert score_trio(category, cards, colour_bonus_on_failed_trio=True) == with_flag


def test_every_category_has_a_rule():
    assert len(CATEGORIES) == 11
    for category in CATEGORIES:
        assert score_trio(category, ["R4", "R5", "R6"]) >= 0


@pytest.mark.parametrize(
    ("category", "cards", "message"),
    [
        ("all_purple", ["R1", "R2", "R3"], "unknown category"),
        ("high_cards", ["R1", "R2"], "exactly three cards"),
        ("high_cards", ["R1", "R2", "R3", "R4"], "exactly three cards"),
        ("high_cards", "R1R2R3", "exactly three cards"),
        ("high_cards", ["R1", "R2", "X9"], "'X9' is not a card"),
        ("high_cards", ["R1", "R2", "R7"], "'R7' is not a card"),
    ],
)
def test_an_invalid_trio_raises_a_clear_error(category, cards, message):
    with pytest.raises(InvalidTrio, match=message):
        score_trio(category, cards)
