from itertools import combinations

import pytest

from tournaments.formats import FormatError
from tournaments.formats.json_api import bracket_json

# FIDE Handbook C.05 Annex 1, Berger tables: per round, (white, black) by board.
BERGER_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def table(n: int, **options) -> list[list[tuple]]:
    rounds = bracket_json("round_robin", n, **options)["brackets"][0]["rounds"]
    return [[tuple(m["slots"]) for m in r["matches"]] for r in rounds]


@pytest.mark.parametrize(("n", "expected"), [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8)])
def test_matches_the_published_berger_tables(n, expected):
    assert table(n) == expected


def test_match_ids_name_round_and_board():
    rounds = bracket_json("round_robin", 4)["brackets"][0]["rounds"]
    assert [m["id"] for m in rounds[1]["matches"]] == ["R2.1", "R2.2"]


@pytest.mark.parametrize("n", range(2, 16))
def test_everyone_meets_everyone_once_with_balanced_colours(n):
    rounds = table(n)
    games = [pair for round_ in rounds for pair in round_ if None not in pair]
    assert sorted(tuple(sorted(g)) for g in games) == list(combinations(range(1, n + 1), 2))
    for player in range(1, n + 1):
        whites = sum(1 for w, _b in games if w == player)
        blacks = sum(1 for _w, b in games if b == player)
        assert abs(whites - blacks) <= 1
        seen = [p for round_ in rounds for pair in round_ for p in pair if p == player]
        assert len(seen) == len(rounds)  # exactly one game or bye each round


def test_odd_count_gives_each_player_one_bye():
    rounds = table(5)
    assert len(rounds) == 5
    byes = [next(w for w, b in round_ if b is None) for round_ in rounds]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    # The bye is the dummy 6 of the Berger table for 6.
    assert [[pair for pair in r if None not in pair] for r in rounds] == [
        [pair for pair in r if 6 not in pair] for r in BERGER_6
    ]


def test_double_round_robin_repeats_with_colours_reversed():
    rounds = table(4, cycles=2)
    assert rounds[:3] == BERGER_4
    assert rounds[3:] == [[(b, w) for w, b in r] for r in BERGER_4]


def test_groups_are_dealt_in_snake_order():
    bracket = bracket_json("round_robin", 8, groups=2)
    names = [b["name"] for b in bracket["brackets"]]
    assert names == ["group A", "group B"]
    group_a = {
        s for r in bracket["brackets"][0]["rounds"] for m in r["matches"] for s in m["slots"]
    }
    assert group_a == {1, 4, 5, 8}
    assert bracket["brackets"][1]["rounds"][0]["matches"][0]["id"] == "B1.1"


@pytest.mark.parametrize("options", [{"cycles": 3}, {"groups": 5}])
def test_bad_options_are_refused(options):
    with pytest.raises(FormatError):
        bracket_json("round_robin", 8, **options)
