"""The pure repair arithmetic: what a corrected result changes downstream (no database)."""

import pytest

from tournaments.formats import FormatError, double_elimination, single_elimination
from tournaments.formats.bracket import slot_json
from tournaments.formats.repair import Held, expected, problems, repair


def empty(brackets) -> dict[str, Held]:
    """A new bracket as the host starts it: first rounds hold their seeds (entrant id =
    seed), everything else waits."""
    matches = {}
    for match in (m for b in brackets for r in b.rounds for m in r.matches):
        slots = (slot_json(match.slots[0]), slot_json(match.slots[1]))
        root = not any(isinstance(slot, str) for slot in slots)
        matches[match.id] = Held(
            match.id,
            slots,
            *(slots if root else (None, None)),
            filled=root,
            played_if_won_by_slot=match.extra.get("played_if_won_by_slot"),
        )
    return matches


def fill(matches: dict[str, Held], seeds) -> dict[str, Held]:
    """Fill every match its feeders decide, as the host does (entrant id = seed)."""
    while True:
        should = expected(list(matches.values()), seeds)
        changed = False
        for code, held in matches.items():
            s = should[code]
            if s.filled and not held.filled:
                matches[code] = Held(
                    code, held.slots, s.home, s.away, s.winner, s.loser, True, s.decided,
                    played_if_won_by_slot=held.played_if_won_by_slot,
                )  # fmt: skip
                changed = True
        if not changed:
            return matches


def play(matches: dict[str, Held], code: str, winner: int) -> None:
    held = matches[code]
    loser = held.away if winner == held.home else held.home
    matches[code] = Held(
        code, held.slots, held.home, held.away, winner, loser, True, True, True,
        held.played_if_won_by_slot,
    )  # fmt: skip


def test_a_corrected_first_round_resets_both_brackets_of_a_double_elimination():
    seeds = {n: n for n in range(1, 5)}
    matches = fill(empty(double_elimination.generate(4, grand_final="reset")), seeds)
    for code, winner in [("W1.1", 1), ("W1.2", 2), ("W2.1", 1), ("L1.1", 3), ("L2.1", 2)]:
        play(matches, code, winner)
        matches = fill(matches, seeds)
    assert problems(list(matches.values()), seeds) == []
    fixed = repair(list(matches.values()), seeds, "W1.1", 4, 1)
    assert fixed.resets == ("W2.1", "L1.1", "L2.1")
    assert fixed.refills == ("GF1",)  # filled (2 v 1 to play) but not started


def test_a_bye_winner_placed_in_round_two_stays_when_its_neighbour_is_corrected():
    seeds = {1: 1, 2: 2, 3: 3}
    matches = fill(empty(single_elimination.generate(3)), seeds)
    assert matches["W2.1"].slots == (1, "W1.2:winner")
    play(matches, "W1.2", 2)
    matches = fill(matches, seeds)
    assert (matches["W2.1"].home, matches["W2.1"].away) == (1, 2)
    assert repair(list(matches.values()), seeds, "W1.2", 3, 2).refills == ("W2.1",)


def test_problems_name_a_match_that_holds_the_wrong_pair():
    seeds = {n: n for n in range(1, 5)}
    matches = fill(empty(single_elimination.generate(4)), seeds)
    play(matches, "W1.1", 1)
    play(matches, "W1.2", 2)
    matches = fill(matches, seeds)
    final = matches["W2.1"]
    matches["W2.1"] = Held("W2.1", final.slots, 4, 2, filled=True)
    assert problems(list(matches.values()), seeds) == [
        "W2.1 holds entrant 4 v entrant 2; its feeders make it entrant 1 v entrant 2"
    ]


def test_a_correction_of_an_unknown_match_is_refused():
    seeds = {1: 1, 2: 2}
    matches = fill(empty(single_elimination.generate(2)), seeds)
    with pytest.raises(FormatError, match=r"no match 'W9\.9'"):
        repair(list(matches.values()), seeds, "W9.9", 1, 2)
