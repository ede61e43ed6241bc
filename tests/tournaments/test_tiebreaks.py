"""Tie-breaks on a worked example, every value computed by hand from FIDE C.07 (the 2026
amendment by default, and its 2024 version where unplayed rounds differ).

Six players, four rounds (ids are pairing numbers):

    round 1: 1-4 1-0      5-2 0-1       3-6 draw
    round 2: 2-1 draw     6-5 +- (5 forfeits)   4-3 0-1
    round 3: 1-3 1-0      4-6 draw      2 half-point bye   5 absent
    round 4: 6-1 0-1      3-2 draw      4 pairing bye      5 absent (withdrawn)

Scores: 1: 3.5, 2: 2.5, 3: 2.0, 6: 2.0, 4: 1.5, 5: 0.

Adjusted scores, as opponents see them (16.3): 5's absences in rounds 3 and 4 are requested
byes followed only by voluntary unplayed rounds, so they count as draws: 5 -> 1.0. 2's
half-point bye is followed by a played game and counts as given (0.5): 2 -> 2.5. The rest
are their scores.

Own unplayed rounds meet a dummy (16.4) scoring the player's own score, capped by half a
point per round (2.0) for byes and by the scheduled opponent's adjusted score for forfeits:
2's bye -> min(2.5, 2.0) = 2.0; 4's pairing bye -> min(1.5, 2.0) = 1.5;
6's forfeit win -> min(2.0, adj 5 = 1.0) = 1.0; 5's forfeit loss and absences -> 0.
"""

import pytest

from tournaments.formats import FormatError
from tournaments.formats.json_api import standings_json
from tournaments.tiebreaks import DEFAULT_REGULATIONS, REGULATIONS, TIEBREAKS


def game(white: int, black: int, result: str) -> dict:
    return {"white": white, "black": black, "result": result}


WORKED = {
    "players": [{"id": i, "rating": 2000 - i} for i in range(1, 7)],
    "total_rounds": 4,
    "rounds": [
        {"games": [game(1, 4, "1-0"), game(5, 2, "0-1"), game(3, 6, "1/2-1/2")]},
        {"games": [game(2, 1, "1/2-1/2"), game(6, 5, "+-"), game(4, 3, "0-1")]},
        {
            "games": [game(1, 3, "1-0"), game(4, 6, "1/2-1/2")],
            "byes": [{"player": 2, "points": 0.5, "kind": "half"}],
        },
        {
            "games": [game(6, 1, "0-1"), game(3, 2, "1/2-1/2")],
            "byes": [{"player": 4, "points": 1, "kind": "pab"}],
        },
    ],
}

ALL = [
    "wins",
    "head_to_head",
    "buchholz",
    "buchholz_cut1",
    "median_buchholz",
    "sonneborn_berger",
    "koya",
    "progressive",
]


def values(key: str) -> dict[int, float]:
    standings = standings_json(WORKED, ALL)["standings"]
    return {row["id"]: row["tiebreaks"][key] for row in standings}


def test_points_and_order():
    standings = standings_json(WORKED, ["head_to_head", "buchholz"])["standings"]
    assert [(r["id"], r["rank"], r["points"]) for r in standings] == [
        (1, 1, 3.5),
        (2, 2, 2.5),
        (3, 3, 2.0),  # 3 and 6 drew their game; Buchholz 9.5 beats 8.0
        (6, 4, 2.0),
        (4, 5, 1.5),
        (5, 6, 0.0),
    ]


def test_buchholz():
    # 1: 4 (1.5) + 2 (2.5) + 3 (2.0) + 6 (2.0)       = 8.0
    # 2: 5 (adj 1.0) + 1 (3.5) + dummy 2.0 + 3 (2.0) = 8.5
    # 3: 6 (2.0) + 4 (1.5) + 1 (3.5) + 2 (2.5)       = 9.5
    # 4: 1 (3.5) + 3 (2.0) + 6 (2.0) + dummy 1.5     = 9.0
    # 5: 2 (2.5) + dummies 0 + 0 + 0                 = 2.5
    # 6: 3 (2.0) + dummy 1.0 + 4 (1.5) + 1 (3.5)     = 8.0
    assert values("buchholz") == {1: 8.0, 2: 8.5, 3: 9.5, 4: 9.0, 5: 2.5, 6: 8.0}


def test_buchholz_cut1_cuts_a_voluntary_unplayed_round_first():
    # 2 cuts its half-point bye (2.0), not its lowest value (1.0): 8.5 - 2.0 = 6.5.
    # 5 cuts a voluntary 0. The others cut their lowest: 1: -1.5, 3: -1.5, 4: -1.5,
    # 6: -1.0 (a forfeit win is not voluntary).
    assert values("buchholz_cut1") == {1: 6.5, 2: 6.5, 3: 8.0, 4: 7.5, 5: 2.5, 6: 7.0}


def test_median_buchholz():
    # Cut-1 as above, then the highest: 1: 6.5 - 2.5; 2: 6.5 - 3.5; 3: 8.0 - 3.5;
    # 4: 7.5 - 3.5; 5: 2.5 - 2.5; 6: 7.0 - 3.5.
    assert values("median_buchholz") == {1: 4.0, 2: 3.0, 3: 4.5, 4: 4.0, 5: 0.0, 6: 3.5}


def test_sonneborn_berger():
    # 1: 1x1.5 + .5x2.5 + 1x2.0 + 1x2.0 = 6.75
    # 2: 1x1.0 + .5x3.5 + .5x2.0 (bye v dummy) + .5x2.0 = 4.75
    # 3: .5x2.0 + 1x1.5 + 0x3.5 + .5x2.5 = 3.75
    # 4: 0 + 0 + .5x2.0 + 1x1.5 (pairing bye v dummy) = 2.5
    # 6: .5x2.0 + 1x1.0 (forfeit win v dummy) + .5x1.5 + 0 = 2.75
    assert values("sonneborn_berger") == {1: 6.75, 2: 4.75, 3: 3.75, 4: 2.5, 5: 0.0, 6: 2.75}


def test_wins_count_unplayed_wins():
    # WIN (7.1): rounds with a win's points, played or not (4's bye, 6's forfeit win).
    assert values("wins") == {1: 3, 2: 1, 3: 1, 4: 1, 5: 0, 6: 1}


def test_progressive():
    # Running scores summed: 1: 1+1.5+2.5+3.5; 2: 1+1.5+2+2.5; 3: .5+1.5+1.5+2;
    # 4: 0+0+.5+1.5; 6: .5+1.5+2+2.
    assert values("progressive") == {1: 8.5, 2: 7.0, 3: 5.5, 4: 2.0, 5: 0.0, 6: 6.0}


def test_koya():
    # Points against opponents with at least 2.0 (half of 4): players 1, 2, 3 and 6.
    # 1: .5 (v 2) + 1 (v 3) + 1 (v 6); 2: .5 + .5; 3: .5 (v 6) + 0 + .5 (v 2);
    # 4: .5 (v 6); 6: .5 (v 3).
    assert values("koya") == {1: 2.5, 2: 1.0, 3: 1.0, 4: 0.5, 5: 0.0, 6: 0.5}


def test_head_to_head_between_tied_players():
    # 3 and 6 are tied on 2.0 and drew each other: half a point each.
    assert values("head_to_head")[3] == values("head_to_head")[6] == 0.5


def test_head_to_head_separates_tied_players_who_met():
    state = {
        "players": [{"id": i, "rating": 2000 - i} for i in range(1, 5)],
        "total_rounds": 2,
        "rounds": [
            {"games": [game(1, 3, "1-0"), game(4, 2, "0-1")]},
            {"games": [game(2, 1, "1-0"), game(3, 4, "1-0")]},
        ],
    }
    # 2 has 2 points; 1 and 3 are tied on 1 point and 1 beat 3.
    standings = standings_json(state, ["head_to_head"])["standings"]
    assert [r["id"] for r in standings] == [2, 1, 3, 4]
    assert standings[1]["tiebreaks"]["head_to_head"] == 1.0
    assert standings[2]["tiebreaks"]["head_to_head"] == 0.0


def test_head_to_head_does_not_separate_players_who_have_not_all_met():
    state = {
        "players": [{"id": i} for i in range(1, 5)],
        "total_rounds": 1,
        "rounds": [{"games": [game(1, 2, "1-0"), game(3, 4, "1-0")]}],
    }
    standings = standings_json(state, ["head_to_head"])["standings"]
    assert [(r["id"], r["rank"], r["tiebreaks"]["head_to_head"]) for r in standings] == [
        (1, 1, 0.0),
        (3, 1, 0.0),
        (2, 3, 0.0),
        (4, 3, 0.0),
    ]


def test_game_score_and_engine_metrics():
    state = {
        "players": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}],
        "total_rounds": 1,
        "rounds": [
            {
                "games": [
                    {**game(1, 2, "1/2-1/2"), "scores": [30, 30], "metrics": {}},
                    {
                        **game(3, 4, "1/2-1/2"),
                        "scores": [30, 30],
                        "metrics": {"power_cards_activated": [1, 4]},
                    },
                ]
            }
        ],
    }
    standings = standings_json(state, ["game_score", "power_cards_played"])["standings"]
    assert [r["id"] for r in standings] == [4, 3, 1, 2]
    assert standings[0]["tiebreaks"] == {"game_score": 30.0, "power_cards_played": 4.0}
    generic = standings_json(state, ["metric:power_cards_activated"])["standings"]
    assert generic[0]["id"] == 4


def test_the_dmo_wins_a_tie():
    state = {
        "players": [{"id": 7, "rating": 2500}, {"id": 8, "rating": 1200}],
        "total_rounds": 1,
        "dmo": 8,
        "rounds": [{"games": [game(7, 8, "1/2-1/2")]}],
    }
    standings = standings_json(state, ["dmo_wins_tie"])["standings"]
    assert [(r["id"], r["rank"]) for r in standings] == [(8, 1), (7, 2)]


def test_regulation_version_is_reported():
    assert standings_json(WORKED, [])["regulations"] == DEFAULT_REGULATIONS == "fide-2026"
    assert standings_json(WORKED, [], "fide-2024")["regulations"] == "fide-2024"
    assert set(REGULATIONS) == {"fide-2024", "fide-2026"}


def test_before_the_2026_amendment_an_unplayed_round_meets_a_dummy_with_the_own_score():
    # 16.4 (2024): no cap. 2's half-point bye meets 2.5 (not 2.0), 6's forfeit win 2.0 (not
    # the forfeiting 5's adjusted 1.0); 4's pairing bye stays 1.5 and 5's rounds stay 0.
    rows = standings_json(WORKED, ["buchholz", "sonneborn_berger"], "fide-2024")["standings"]
    by_id = {r["id"]: r["tiebreaks"] for r in rows}
    assert {p: v["buchholz"] for p, v in by_id.items()} == {
        1: 8.0, 2: 9.0, 3: 9.5, 4: 9.0, 5: 2.5, 6: 9.0,
    }  # fmt: skip
    # SB: 2's bye .5 x 2.5 instead of .5 x 2.0; 6's forfeit win 1 x 2.0 instead of 1 x 1.0.
    assert by_id[2]["sonneborn_berger"] == 5.0 and by_id[6]["sonneborn_berger"] == 3.75
    # 3 still ranks above 6, tied on points (Buchholz 9.5 against 9.0).
    assert [r["id"] for r in rows] == [1, 2, 3, 6, 4, 5]


def test_an_unknown_regulation_version_is_refused_by_name():
    with pytest.raises(FormatError, match="unknown tie-break regulations 'fide-2022'"):
        standings_json(WORKED, [], "fide-2022")


def test_every_registered_tiebreak_runs_on_the_worked_example():
    rows = standings_json(WORKED, list(TIEBREAKS))["standings"]
    assert all(set(r["tiebreaks"]) == set(TIEBREAKS) for r in rows)


def test_unknown_tiebreak_is_a_readable_error():
    with pytest.raises(FormatError, match="unknown tie-break 'bucholz'"):
        standings_json(WORKED, ["bucholz"])


def test_unknown_dmo_is_refused():
    with pytest.raises(FormatError, match='unknown player id 99 in "dmo"'):
        standings_json({**WORKED, "dmo": 99}, [])


def test_round_robin_counts_forfeits_as_games_and_byes_as_nothing():
    # Three players, Berger table for 4 with the dummy 4 as the bye:
    # round 1: 2-3 1-0 (1 has the bye); round 2: 3-1 +- (1 forfeits; 2 has the bye);
    # round 3: 1-2 draw (3 has the bye). Scores: 1: 0.5, 2: 1.5, 3: 1.0.
    state = {
        "system": "round_robin",
        "players": [{"id": i, "rating": 2000 - i} for i in (1, 2, 3)],
        "total_rounds": 3,
        "rounds": [
            {"games": [game(2, 3, "1-0")]},
            {"games": [game(3, 1, "+-")]},
            {"games": [game(1, 2, "1/2-1/2")]},
        ],
    }
    rows = standings_json(state, ["sonneborn_berger", "buchholz"])["standings"]
    by_id = {r["id"]: r["tiebreaks"] for r in rows}
    # No dummies and no adjusted scores: 3's forfeit win over 1 counts as a win against
    # 1's 0.5; 3's bye in the last round is not turned into a draw for 2's benefit.
    # SB: 1: 0 x 1.0 + .5 x 1.5 = 0.75; 2: 1 x 1.0 + .5 x 0.5 = 1.25; 3: 0 + 1 x 0.5 = 0.5.
    assert {p: v["sonneborn_berger"] for p, v in by_id.items()} == {1: 0.75, 2: 1.25, 3: 0.5}
    # Buchholz: 1: 1.0 + 1.5; 2: 1.0 + 0.5; 3: 1.5 + 0.5.
    assert {p: v["buchholz"] for p, v in by_id.items()} == {1: 2.5, 2: 1.5, 3: 2.0}


def test_unknown_system_is_refused():
    with pytest.raises(FormatError, match='"system" must be'):
        standings_json({**WORKED, "system": "ladder"}, [])
