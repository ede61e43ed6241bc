import random
from collections import Counter

import pytest

from tests.tournaments.brackets import play
from tournaments.formats import FormatError
from tournaments.formats.double_elimination import reset_needed
from tournaments.formats.json_api import bracket_json


def by_name(bracket: dict) -> dict[str, list]:
    return {b["name"]: b["rounds"] for b in bracket["brackets"]}


def count(rounds: list) -> int:
    return sum(len(r["matches"]) for r in rounds)


@pytest.mark.parametrize(("n", "winners", "losers", "losers_rounds"), [
    (4, 3, 2, 2),
    (8, 7, 6, 4),
    (16, 15, 14, 6),
])  # fmt: skip
def test_bracket_sizes(n, winners, losers, losers_rounds):
    brackets = by_name(bracket_json("double_elimination", n))
    assert count(brackets["winners"]) == winners
    assert count(brackets["losers"]) == losers
    assert len(brackets["losers"]) == losers_rounds
    assert count(brackets["final"]) == 1


@pytest.mark.parametrize(("grand_final", "finals"), [("none", 0), ("single", 1), ("reset", 2)])
def test_grand_final_options(grand_final, finals):
    brackets = by_name(bracket_json("double_elimination", 8, grand_final=grand_final))
    assert count(brackets.get("final", [])) == finals


def drops(rounds: list, number: int) -> list:
    return [m["slots"][0] for m in rounds[number - 1]["matches"]]


def test_loser_drop_order_for_4():
    losers = by_name(bracket_json("double_elimination", 4))["losers"]
    assert [m["slots"] for m in losers[0]["matches"]] == [["W1.1:loser", "W1.2:loser"]]
    assert drops(losers, 2) == ["W2.1:loser"]


def test_loser_drop_order_for_8():
    losers = by_name(bracket_json("double_elimination", 8))["losers"]
    assert [m["slots"] for m in losers[0]["matches"]] == [
        ["W1.1:loser", "W1.2:loser"],
        ["W1.3:loser", "W1.4:loser"],
    ]
    assert drops(losers, 2) == ["W2.2:loser", "W2.1:loser"]
    assert drops(losers, 4) == ["W3.1:loser"]


def test_loser_drop_order_for_16():
    losers = by_name(bracket_json("double_elimination", 16))["losers"]
    assert drops(losers, 2) == ["W2.4:loser", "W2.3:loser", "W2.2:loser", "W2.1:loser"]
    assert drops(losers, 4) == ["W3.2:loser", "W3.1:loser"]
    assert drops(losers, 6) == ["W4.1:loser"]
    assert [m["slots"] for m in losers[2]["matches"]] == [
        ["L2.1:winner", "L2.2:winner"],
        ["L2.3:winner", "L2.4:winner"],
    ]


def test_losers_of_32_alternate_reverse_and_half_swap():
    losers = by_name(bracket_json("double_elimination", 32))["losers"]
    assert drops(losers, 2) == [f"W2.{i}:loser" for i in range(8, 0, -1)]
    assert drops(losers, 4) == ["W3.3:loser", "W3.4:loser", "W3.1:loser", "W3.2:loser"]
    assert drops(losers, 6) == ["W4.2:loser", "W4.1:loser"]


@pytest.mark.parametrize("n", [*range(2, 18), 24, 32, 33])
@pytest.mark.parametrize("grand_final", ["none", "single", "reset"])
def test_everyone_but_the_champion_is_out_after_two_losses(n, grand_final):
    bracket = bracket_json("double_elimination", n, grand_final=grand_final)
    rng = random.Random(n)
    results = play(bracket, lambda _id, a, b: rng.choice((a, b)))
    losses = Counter(loser for _winner, loser in results.values() if loser is not None)
    two_loss_players = [p for p, c in losses.items() if c == 2]
    assert max(losses.values()) <= 2
    survivors = set(range(1, n + 1)) - set(two_loss_players)
    # Without a grand final both bracket champions survive; with one, only the champion,
    # unless the losers' champion won a single final (then both finish with one loss).
    assert len(survivors) in ((2,) if grand_final == "none" else (1, 2))
    if grand_final == "reset":
        assert len(survivors) == 1


def test_reset_is_played_only_when_the_losers_champion_wins_the_first_final():
    bracket = bracket_json("double_elimination", 8, grand_final="reset")
    upset = play(bracket, lambda match_id, a, b: max(a, b) if match_id == "GF1" else min(a, b))
    assert upset["GF1"] == (2, 1)
    assert upset["GF2"] in ((1, 2), (2, 1))
    chalk = play(bracket, lambda _id, a, b: min(a, b))
    assert chalk["GF1"] == (1, 2)
    assert chalk["GF2"] == (None, None)
    assert reset_needed(2) and not reset_needed(1)


def test_unknown_grand_final_is_refused():
    with pytest.raises(FormatError, match="none, single, reset"):
        bracket_json("double_elimination", 8, grand_final="double")
