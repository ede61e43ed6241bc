import pytest

from tests.tournaments.brackets import matches_in_order, play
from tournaments.formats import FormatError
from tournaments.formats.json_api import bracket_json


def first_round(bracket: dict) -> list[list]:
    return [m["slots"] for m in bracket["brackets"][0]["rounds"][0]["matches"]]


def test_eight_entrants_use_the_standard_first_round():
    assert first_round(bracket_json("single_elimination", 8)) == [[1, 8], [4, 5], [2, 7], [3, 6]]


def test_sixteen_entrants_keep_the_top_four_in_separate_quarters():
    assert first_round(bracket_json("single_elimination", 16)) == [
        [1, 16], [8, 9], [4, 13], [5, 12], [2, 15], [7, 10], [3, 14], [6, 11],
    ]  # fmt: skip


@pytest.mark.parametrize("n", range(2, 34))
def test_byes_go_to_the_top_seeds(n):
    size = 1 << (n - 1).bit_length()
    slots = first_round(bracket_json("single_elimination", n))
    assert len(slots) == size // 2
    assert sorted(s for pair in slots for s in pair if s is not None) == list(range(1, n + 1))
    bye_seeds = sorted(a if b is None else b for a, b in slots if None in (a, b))
    assert bye_seeds == list(range(1, size - n + 1))


@pytest.mark.parametrize("n", range(2, 34))
def test_top_seeds_meet_only_when_the_bracket_allows(n):
    # With the better seed always winning, the round where seeds a < b meet is fixed by the
    # seeding: 1 and 2 in the final, 1-4 no earlier than the semi-finals, and so on.
    bracket = bracket_json("single_elimination", n)
    rounds = bracket["brackets"][0]["rounds"]
    results = play(bracket, lambda _id, a, b: min(a, b))
    round_of = {m["id"]: r["number"] for r in rounds for m in r["matches"]}
    final_round = len(rounds)
    for match_id, (winner, loser) in results.items():
        if loser is None:
            continue
        # Two of the top 2^j seeds never meet before the round with 2^j players left.
        top = max(winner, loser)
        earliest = final_round - (top - 1).bit_length() + 1
        assert round_of[match_id] >= earliest, (match_id, winner, loser)
    final = rounds[-1]["matches"][0]["id"]
    assert results[final] == (1, 2)


@pytest.mark.parametrize("n", range(2, 34))
def test_every_real_match_eliminates_one_entrant(n):
    bracket = bracket_json("single_elimination", n)
    matches = matches_in_order(bracket)
    real = [m for m in matches if not m["bye"]]
    assert len(real) == n - 1
    bye_ids = {m["id"] for m in matches if m["bye"]}
    references = [s for m in matches for s in m["slots"] if isinstance(s, str)]
    assert not [r for r in references if r.split(":")[0] in bye_ids]


def test_third_place_match_is_played_by_the_semi_final_losers():
    bracket = bracket_json("single_elimination", 8, third_place=True)
    last = bracket["brackets"][0]["rounds"][-1]["matches"]
    assert [m["slots"] for m in last] == [
        ["W2.1:winner", "W2.2:winner"],
        ["W2.1:loser", "W2.2:loser"],
    ]
    results = play(bracket, lambda _id, a, b: min(a, b))
    assert results["P3"] == (3, 4)


def test_third_place_needs_semi_finals():
    with pytest.raises(FormatError, match="at least 3 entrants"):
        bracket_json("single_elimination", 2, third_place=True)


@pytest.mark.parametrize("bad", [0, 1, -3, "8", 2.5, True])
def test_bad_participant_counts_are_refused(bad):
    with pytest.raises(FormatError):
        bracket_json("single_elimination", bad)


def test_unknown_format_names_the_choices():
    with pytest.raises(FormatError, match="single_elimination, double_elimination"):
        bracket_json("ladder", 8)
