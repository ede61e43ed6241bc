"""Bracket geometry, without a database: every bracket the formats generate is drawn as a tree."""

import itertools

import pytest

from tournaments.bracket_layout import place, sections
from tournaments.formats.json_api import bracket_json


def stage_of(fmt: str, participants: int, **options) -> dict:
    """The stage shape of the API detail, built from the pure bracket's JSON."""
    brackets = bracket_json(fmt, participants, **options)["brackets"]
    return {
        "rounds": [
            {
                "bracket": bracket["name"],
                "number": round_["number"],
                "matches": [{"code": m["id"], "slots": m["slots"]} for m in round_["matches"]],
            }
            for bracket in brackets
            for round_ in bracket["rounds"]
        ]
    }


def drawn(section) -> list[list[tuple[str, int, int, str]]]:
    return [
        [(c.match["code"], c.row, c.span, c.link) for c in column.cells]
        for column in section.columns
    ]


def test_an_eight_bracket_centres_each_match_between_its_two_feeders():
    (main,) = sections(stage_of("single_elimination", 8))
    assert main.rows == 4
    assert drawn(main) == [
        [
            ("W1.1", 1, 1, "down"),
            ("W1.2", 2, 1, "up"),
            ("W1.3", 3, 1, "down"),
            ("W1.4", 4, 1, "up"),
        ],
        [("W2.1", 1, 2, "down"), ("W2.2", 3, 2, "up")],
        [("W3.1", 1, 4, "")],
    ]
    assert [c.from_end for c in main.columns] == [2, 1, 0]


def test_byes_keep_their_place_in_the_first_column():
    (main,) = sections(stage_of("single_elimination", 5))
    first = main.columns[0].cells
    assert [c.match["code"] for c in first] == ["W1.1", "W1.2", "W1.3", "W1.4"]
    assert [None in c.match["slots"] for c in first] == [True, False, True, True]
    assert drawn(main)[1] == [("W2.1", 1, 2, "down"), ("W2.2", 3, 2, "up")]


def test_the_third_place_match_is_drawn_apart_from_the_tree():
    (main,) = sections(stage_of("single_elimination", 8, third_place=True))
    assert [m["code"] for m in main.extras] == ["P3"]
    assert drawn(main)[-1] == [("W3.1", 1, 4, "")]


def test_double_elimination_draws_winners_losers_and_the_reset():
    winners, losers, final = sections(stage_of("double_elimination", 8, grand_final="reset"))
    assert [s.name for s in (winners, losers, final)] == ["winners", "losers", "final"]
    assert [len(c.cells) for c in winners.columns] == [4, 2, 1]
    # Losers: 2 matches, then a drop round of 2 (straight across), halved to 1, then a drop.
    assert drawn(losers) == [
        [("L1.1", 1, 1, "across"), ("L1.2", 2, 1, "across")],
        [("L2.1", 1, 1, "down"), ("L2.2", 2, 1, "up")],
        [("L3.1", 1, 2, "across")],
        [("L4.1", 1, 2, "")],
    ]
    assert drawn(final) == [[("GF1", 1, 1, "across")], [("GF2", 1, 1, "")]]


@pytest.mark.parametrize("size", [2, 3, 6, 13, 32, 256])
def test_every_generated_double_elimination_bracket_connects_each_column(size):
    for section in sections(stage_of("double_elimination", size, grand_final="reset")):
        columns = section.columns
        for column, following in itertools.pairwise(columns):
            assert all(cell.link in {"up", "down", "across"} for cell in column.cells)
            assert len(following.cells) in {len(column.cells), len(column.cells) // 2}
        if columns:
            assert all(cell.link == "" for cell in columns[-1].cells)
            assert section.rows == len(columns[0].cells)
        # What the stylesheet draws from: a column's cells share its height equally.
        for column in columns:
            span = column.cells[0].span
            assert [(c.row, c.span) for c in column.cells] == [
                (1 + i * span, span) for i in range(len(column.cells))
            ]
            assert span * len(column.cells) == section.rows


def test_a_round_of_an_unexpected_size_is_stacked_without_connectors():
    columns, rows = place([[{"code": "A"}, {"code": "B"}], [{"code": "C"}] * 3])
    assert [c.link for c in columns[0].cells] == ["", ""]
    assert [(c.row, c.span) for c in columns[1].cells] == [(1, 1), (2, 1), (3, 1)]
    assert rows == 3


def test_no_rounds_draw_nothing():
    assert place([]) == ([], 0)
    assert sections({"rounds": []}) == []
