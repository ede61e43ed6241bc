"""The organisers' commands: the JSON shapes their scripts rely on, and readable errors."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args) -> dict:
    out = StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue())


def test_bracket_prints_seeds_byes_and_references():
    result = run("bracket", "--format", "single_elimination", "--participants", "6", "--json")
    assert result["format"] == "single_elimination" and result["participants"] == 6
    (main,) = result["brackets"]
    assert main["name"] == "main"
    first = main["rounds"][0]
    assert first["number"] == 1
    assert [m["slots"] for m in first["matches"]] == [[1, None], [4, 5], [2, None], [3, 6]]
    assert main["rounds"][1]["matches"][0]["slots"] == [1, "W1.2:winner"]


def test_double_elimination_with_a_reset_final():
    result = run(
        "bracket",
        "--format",
        "double_elimination",
        "--participants",
        "8",
        "--grand-final",
        "reset",
        "--json",
    )
    names = [b["name"] for b in result["brackets"]]
    assert names == ["winners", "losers", "final"]
    final = result["brackets"][2]
    assert len([m for r in final["rounds"] for m in r["matches"]]) == 2


def test_round_robin_double_cycle_has_home_first():
    result = run("bracket", "--format", "round_robin", "--participants", "4", "--cycles", "2")
    rounds = result["brackets"][0]["rounds"]
    assert len(rounds) == 6
    assert rounds[0]["matches"][0]["slots"] == [1, 4]  # FIDE Berger table, round 1
    assert rounds[3]["matches"][0]["slots"] == [4, 1]  # second cycle swaps colours


def test_swiss_and_standings_from_a_state_file(tmp_path):
    state = {
        "players": [{"id": i, "rating": 2500 - 10 * i} for i in range(1, 5)],
        "total_rounds": 3,
        "absent": [],
        "rounds": [
            {
                "games": [
                    {"white": 1, "black": 3, "result": "1-0"},
                    {"white": 4, "black": 2, "result": "0-1"},
                ],
                "byes": [],
            }
        ],
    }
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    pairing = run("swiss", "--input", str(path), "--json")
    assert pairing["bye"] is None
    pairs = {frozenset((p["white"], p["black"])) for p in pairing["pairings"]}
    assert pairs == {frozenset({1, 2}), frozenset({3, 4})}  # winners meet, no rematch
    table = run("standings", "--input", str(path), "--tiebreaks", "buchholz,wins", "--json")
    assert [row["id"] for row in table["standings"]][:2] in ([1, 2], [2, 1])
    assert set(table["standings"][0]["tiebreaks"]) == {"buchholz", "wins"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["bracket", "--format", "single_elimination", "--participants", "1"], "at least 2"),
        (["swiss", "--input", "/no/such/file.json"], "cannot read"),
        (["standings", "--input", "/dev/null", "--tiebreaks", "wins"], "not JSON"),
        (
            ["standings", "--input", "/dev/null", "--regulations", "fide-1999"],
            "unknown tie-break regulations 'fide-1999'; choose one of fide-2024, fide-2026",
        ),
    ],
)
def test_bad_input_is_a_readable_error(args, message):
    with pytest.raises(CommandError, match=message):
        call_command(*args, stdout=StringIO())


def test_unknown_tiebreak_is_named(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps({"players": [{"id": 1, "rating": 1}], "total_rounds": 1, "rounds": []})
    )
    with pytest.raises(CommandError, match="unknown tie-break 'nope'"):
        call_command("standings", "--input", str(path), "--tiebreaks", "nope", stdout=StringIO())


def test_standings_of_a_bracket_state_are_placements(tmp_path):
    path = tmp_path / "bracket.json"
    results = {"W1.1": {"winner": 1, "loser": 4}, "W1.2": {"winner": 3, "loser": 2}}
    path.write_text(
        json.dumps({"format": "single_elimination", "participants": 4, "results": results})
    )
    table = run("standings", "--input", str(path))
    assert table["ranking"] == "single_elimination"
    assert [(r["id"], r["rank"], r["eliminated_in"]) for r in table["standings"]] == [
        (1, 1, None), (3, 1, None), (2, 3, "W1"), (4, 3, "W1"),
    ]  # fmt: skip
