"""Placements by format, in the pure layer: knockouts by the round of elimination, Genius
seasons by the episode. No database."""

import pytest

from tests.tournaments.brackets import play
from tournaments.formats import FormatError
from tournaments.formats.json_api import bracket_json, placements_json


def results_of(fmt: str, n: int, pick=None, **options) -> dict:
    bracket = bracket_json(fmt, n, **options)
    played = play(bracket, pick or (lambda _id, a, b: min(a, b)))
    return {k: {"winner": w, "loser": lo} for k, (w, lo) in played.items() if lo is not None}


def table(fmt: str, n: int, results: dict, **options) -> list[tuple]:
    state = {"format": fmt, "participants": n, "results": results, **options}
    rows = placements_json(state)["standings"]
    return [(r["id"], r["rank"], r["eliminated_in"], r["round_reached"]) for r in rows]


def ranks(rows: list[tuple]) -> dict[int, int]:
    return {player: rank for player, rank, *_ in rows}


def test_single_elimination_quarter_final_losers_share_fifth():
    rows = table("single_elimination", 8, results_of("single_elimination", 8))
    assert rows == [
        (1, 1, None, "W3"),
        (2, 2, "W3", "W3"),
        (3, 3, "W2", "W2"),
        (4, 3, "W2", "W2"),  # no third-place match: both semi-final losers are third
        (5, 5, "W1", "W1"),
        (6, 5, "W1", "W1"),
        (7, 5, "W1", "W1"),
        (8, 5, "W1", "W1"),
    ]


def test_the_third_place_match_splits_the_semi_final_losers():
    # Seed 4 beats seed 3 for bronze.
    results = results_of(
        "single_elimination",
        8,
        lambda match, a, b: max(a, b) if match == "P3" else min(a, b),
        third_place=True,
    )
    rows = table("single_elimination", 8, results, third_place=True)
    assert rows[:4] == [
        (1, 1, None, "W3"),
        (2, 2, "W3", "W3"),
        (4, 3, "W2", "P3"),
        (3, 4, "P3", "P3"),
    ]
    assert {rank for _, rank, *_ in rows[4:]} == {5}


def test_before_the_third_place_match_both_semi_final_losers_are_third():
    results = results_of("single_elimination", 8, third_place=True)
    del results["P3"]
    assert [r for _, r, *_ in table("single_elimination", 8, results, third_place=True)] == [
        1, 2, 3, 3, 5, 5, 5, 5,
    ]  # fmt: skip


def test_players_still_in_share_the_top_rank_mid_bracket():
    results = results_of("single_elimination", 8)
    for later in ("W2.1", "W2.2", "W3.1"):
        del results[later]
    assert ranks(table("single_elimination", 8, results)) == {
        1: 1, 4: 1, 2: 1, 3: 1, 8: 5, 5: 5, 7: 5, 6: 5,
    }  # fmt: skip


def test_a_bye_does_not_count_as_a_round_played():
    rows = table("single_elimination", 5, results_of("single_elimination", 5))
    assert rows == [
        (1, 1, None, "W3"),
        (2, 2, "W3", "W3"),
        (3, 3, "W2", "W2"),
        (4, 3, "W2", "W2"),
        (5, 5, "W1", "W1"),
    ]


@pytest.mark.parametrize("grand_final", ["single", "reset"])
def test_double_elimination_ranks_by_the_losers_round_of_elimination(grand_final):
    rows = table(
        "double_elimination",
        8,
        results_of("double_elimination", 8, grand_final=grand_final),
        grand_final=grand_final,
    )
    assert rows == [
        (1, 1, None, "GF1"),
        (2, 2, "GF1", "GF1"),
        (3, 3, "L4", "L4"),
        (4, 4, "L3", "L3"),
        (5, 5, "L2", "L2"),
        (6, 5, "L2", "L2"),
        (7, 7, "L1", "L1"),
        (8, 7, "L1", "L1"),
    ]


def test_a_played_bracket_reset_decides_first_and_second():
    # The losers-bracket champion (seed 2) wins GF1, so GF2 is played; seed 2 wins it too.
    def pick(match, a, b):
        return max(a, b) if match in ("GF1", "GF2") else min(a, b)

    results = results_of("double_elimination", 4, pick, grand_final="reset")
    assert "GF2" in results
    rows = table("double_elimination", 4, results, grand_final="reset")
    assert rows[:2] == [(2, 1, None, "GF2"), (1, 2, "GF2", "GF2")]
    # Before GF2, both finalists are still in: neither has been eliminated.
    del results["GF2"]
    rows = table("double_elimination", 4, results, grand_final="reset")
    assert rows[:2] == [(1, 1, None, "GF1"), (2, 1, None, "GF1")]


def test_without_a_grand_final_the_losers_bracket_champion_is_second():
    rows = table(
        "double_elimination",
        8,
        results_of("double_elimination", 8, grand_final="none"),
        grand_final="none",
    )
    assert rows[:3] == [(1, 1, None, "W3"), (2, 2, None, "L4"), (3, 3, "L4", "L4")]


def test_a_genius_season_ranks_later_eliminations_higher():
    state = {
        "format": "genius",
        "episodes": 5,
        "players": [
            {"id": 1, "eliminated_in": None},  # the champion
            {"id": 2, "eliminated_in": 5},  # lost the final (episode 5)
            {"id": 3, "eliminated_in": 1},
            {"id": 4, "eliminated_in": 3},
            {"id": 5, "eliminated_in": 4},
            {"id": 6, "eliminated_in": 2},
        ],
    }
    rows = placements_json(state)["standings"]
    assert [(r["id"], r["rank"], r["eliminated_in"]) for r in rows] == [
        (1, 1, None), (2, 2, 5), (5, 3, 4), (4, 4, 3), (6, 5, 2), (3, 6, 1),
    ]  # fmt: skip


def test_players_still_in_a_season_rank_above_every_eliminated_one():
    state = {
        "format": "genius",
        "episodes": 3,
        "players": [
            {"id": 1, "eliminated_in": 2},
            {"id": 2, "eliminated_in": None},
            {"id": 3, "eliminated_in": None},
            {"id": 4, "eliminated_in": 2},  # two Death Matches in episode 2
            {"id": 5, "eliminated_in": 1},
        ],
    }
    rows = placements_json(state)["standings"]
    assert [(r["id"], r["rank"], r["round_reached"]) for r in rows] == [
        (2, 1, 3), (3, 1, 3), (1, 3, 2), (4, 3, 2), (5, 5, 1),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"format": "swiss"}, "placements are by format"),
        ({"format": "single_elimination", "participants": 4, "results": []}, '"results" maps'),
        (
            {"format": "single_elimination", "participants": 4, "results": {"W9.1": {}}},
            "a result is",
        ),
        (
            {
                "format": "single_elimination",
                "participants": 4,
                "results": {"W9.1": {"winner": 1, "loser": 4}},
            },
            "no match 'W9.1'",
        ),
        (
            {
                "format": "single_elimination",
                "participants": 4,
                "results": {"W1.1": {"winner": 1, "loser": 2}},
            },
            r"W1.1 is played by seeds \[1, 4\]",
        ),
        (
            {
                "format": "single_elimination",
                "participants": 4,
                "results": {"W1.1": {"winner": 1, "loser": 9}},
            },
            "there is no seed 9",
        ),
        ({"format": "genius", "players": [{"id": 1, "eliminated_in": 0}]}, "episode number"),
        ({"format": "genius", "players": "everyone"}, '"players" lists'),
    ],
)
def test_bad_placement_states_are_refused_with_a_reason(state, message):
    with pytest.raises(FormatError, match=message):
        placements_json(state)
