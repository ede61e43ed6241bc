"""The shared conformance checks over random games, and games ending by the rules."""

import pytest

from games.engines import conformance
from games.engines.drafting_trios import ENGINE

FLAGGED = {
    "power_cards_in_trios": True,
    "colour_bonus_on_failed_trio": True,
    "assist_previews": True,
    "short_hand": "end_game",
}
RULE_ENDINGS = {"categories_closed", "no_pile"}


@pytest.mark.parametrize(
    ("config", "games", "timeout_rate"),
    [
        ({}, 100, 0.01),
        ({}, 30, 0.0),
        (FLAGGED, 40, 0.01),
        ({"roles": {"0": "DMO", "1": "EC"}}, 30, 0.01),
    ],
    ids=["defaults", "defaults_played_to_the_end", "flags", "swapped_roles"],
)
def test_random_games_keep_every_invariant(config, games, timeout_rate):
    report = conformance.simulate(
        ENGINE, games=games, seed="dt", seats=2, config=config, timeout_rate=timeout_rate
    )
    assert report.failures == []
    assert report.games == games
    if not timeout_rate:
        assert report.actions > games * 100  # whole games: 12 rounds or more each


def test_thousands_of_unchecked_games_end_by_the_rules_with_sensible_outcomes():
    config = ENGINE.validate_config({}, 2)
    reasons = set()
    for game in range(2000):
        seed = conformance.game_seed("ends", game)
        policy = conformance.random.Random(game)
        report = conformance.play_game(ENGINE, config, 2, seed, policy, game=game, check=False)
        assert report.failures == [] and report.ended
        outcome = report.outcome
        reasons.add(outcome["reason"])
        winner = outcome["winners"][0]
        scores = outcome["scores"]
        decided_by = outcome["details"]["decided_by"]
        if decided_by == "total":
            assert scores[str(winner)] > scores[str(1 - winner)]
        else:
            assert scores["0"] == scores["1"]
        assert outcome["reason"] in RULE_ENDINGS
    assert reasons == {"categories_closed"}


@pytest.mark.slow
def test_thousands_of_checked_games():
    report = conformance.simulate(ENGINE, games=1000, seed="slow", seats=2, timeout_rate=0.01)
    assert report.failures == []
