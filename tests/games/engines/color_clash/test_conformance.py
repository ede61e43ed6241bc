"""The shared conformance checks, for 2 to 6 seats in both modes, and random games that end.

Random legal play is slow to finish a Color Clash round (drawing is always allowed, so hands
wander: ~1,200 actions for two seats, ~7,000 for six), and the full checks cost about a
millisecond per action. So a few fully checked games run per seat count and mode, and
thousands more run without the per-step checks but still through every listed action, each
ending by the rules with an outcome that adds up. ``-m slow`` runs many more of both.
"""

import random

import pytest

from games.engines import conformance
from games.engines.color_clash import ENGINE

SEATS = [2, 3, 4, 5, 6]
MODES = ["classic", "family"]
CHECKED_GAMES = {2: 3, 3: 1, 4: 1, 5: 1, 6: 1}
PLAYED_GAMES = {2: 400, 3: 150, 4: 60, 5: 40, 6: 30}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", SEATS)
def test_random_playouts_keep_every_invariant(seats, mode):
    report = conformance.simulate(
        ENGINE,
        games=CHECKED_GAMES[seats],
        seed=f"checked-{mode}",
        seats=seats,
        config={"mode": mode, "match": "one_round"},
        timeout_rate=0.01,
    )
    assert report.failures == []
    assert report.games == CHECKED_GAMES[seats]


def test_playouts_with_a_substitute_keep_every_invariant():
    report = conformance.simulate(
        ENGINE,
        games=3,
        seed="substitute",
        seats=3,
        config={"match": "one_round", "substitutes": [1]},
        timeout_rate=0.01,
    )
    assert report.failures == []


def play(seats, config, games, seed):
    full = ENGINE.validate_config(config, seats)
    for number in range(games):
        report = conformance.play_game(
            ENGINE,
            full,
            seats,
            conformance.game_seed(seed, number),
            random.Random(f"{seed}:{number}"),
            game=number,
            check=False,
            timeout_rate=0.01,
        )
        assert report.failures == [] and report.ended
        yield report


def assert_outcome_adds_up(outcome, seats, substitutes=()):
    placed = sorted(seat for place in outcome["ranking"] for seat in place)
    assert placed == list(range(seats))
    totals = dict.fromkeys(range(seats), 0)
    for record in outcome["details"]["rounds"]:
        points = {int(seat): value for seat, value in record["points"].items()}
        scorers = [seat for seat, value in points.items() if value]
        assert scorers in ([], [record["winner"]])
        if record["winner"] in substitutes or record["stalled"]:
            assert scorers == []
        if not record["stalled"]:
            assert sorted(record["places"]) == list(range(seats))
        for seat, value in points.items():
            totals[seat] += value
    assert outcome["scores"] == {str(seat): total for seat, total in totals.items()}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", SEATS)
def test_random_single_rounds_end_by_the_rules(seats, mode):
    games = PLAYED_GAMES[seats]
    lengths = []
    for report in play(seats, {"mode": mode, "match": "one_round"}, games, f"round-{mode}"):
        outcome = report.outcome
        assert_outcome_adds_up(outcome, seats)
        (record,) = outcome["details"]["rounds"]
        assert not record["stalled"]  # with the full deck some hand always holds a Wild
        assert outcome["winners"] == [record["winner"]]
        lengths.append(report.steps)
    assert max(lengths) < 100_000


@pytest.mark.parametrize("seats", SEATS)
def test_random_first_to_500_matches_end(seats):
    for report in play(seats, {"match": "to_500"}, 2, "to-500"):
        outcome = report.outcome
        assert_outcome_adds_up(outcome, seats)
        assert max(outcome["scores"].values()) >= 500
        assert len(outcome["winners"]) == 1


def test_random_family_matches_of_three_and_five_rounds_end():
    for match, rounds in (("three_rounds", 3), ("five_rounds", 5)):
        for report in play(3, {"mode": "family", "match": match}, 4, match):
            assert len(report.outcome["details"]["rounds"]) == rounds
            assert_outcome_adds_up(report.outcome, 3)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", SEATS)
def test_many_more_checked_and_played_games(seats, mode):
    config = {"mode": mode, "match": "one_round"}
    report = conformance.simulate(
        ENGINE,
        games=CHECKED_GAMES[seats] * 10,
        seed=f"slow-{mode}",
        seats=seats,
        config=config,
        timeout_rate=0.01,
    )
    assert report.failures == []
    for played in play(seats, config, PLAYED_GAMES[seats] * 10, f"slow-{mode}"):
        assert_outcome_adds_up(played.outcome, seats)
