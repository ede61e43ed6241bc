"""The conformance harness passes a correct engine and catches each kind of broken one."""

import json

import pytest

from games.engines import conformance
from games.engines.base import IllegalAction, StepRng, seed_bytes
from tests.games.engines import tiny


def run(engine, games=30, seats=3, **options):
    return conformance.simulate(engine, games=games, seed=7, seats=seats, **options)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_correct_engine_passes_every_check(seats):
    report = run(tiny.ENGINE, games=50, seats=seats, timeout_rate=0.05)
    assert report.failures == []
    assert report.games == 50
    assert report.actions > 50 * seats * 3  # plays plus window closings


def test_a_leaking_view_is_caught():
    report = run(tiny.LeakyHighCard())
    assert report.invariant_failures == 30
    assert "leaks" in report.failures[0]


def test_an_engine_that_takes_unknown_action_fields_is_caught():
    report = run(tiny.LaxHighCard())
    assert report.invariant_failures == 30
    assert "__not_a_field__" in report.failures[0]


def test_an_engine_using_global_randomness_fails_replay():
    report = run(tiny.UnreplayableHighCard())
    assert report.invariant_failures == 30
    assert "replaying the log" in report.failures[0]


def test_a_game_that_never_ends_is_caught():
    report = conformance.simulate(tiny.EndlessHighCard(), games=2, seed=1, seats=2, max_steps=300)
    assert report.invariant_failures == 2


def test_trace_has_one_line_after_setup_then_one_per_action():
    lines = []
    report = conformance.simulate(tiny.ENGINE, games=1, seed=3, seats=2, trace=lines.append)
    assert len(lines) == report.actions + 1
    first = lines[0]
    assert first["step"] == 0 and first["action"] is None and first["seat"] is None
    assert set(first["views"]) == {"0", "1"}
    assert "hand" not in first["spectator"]
    json.dumps(lines)
    assert [line["step"] for line in lines] == list(range(len(lines)))


def test_bench_mode_plays_the_same_games_without_checks():
    checked = run(tiny.ENGINE, games=10)
    timed = run(tiny.ENGINE, games=10, check=False)
    assert timed.actions == checked.actions
    assert timed.invariant_failures == 0


def test_step_rng_is_reproducible_and_lazy():
    seed = seed_bytes("x")
    first, second = StepRng(seed, 4), StepRng(seed, 4)
    assert [first.randrange(100) for _ in range(5)] == [second.randrange(100) for _ in range(5)]
    assert StepRng(seed, 5).random() != StepRng(seed, 4).random()


def test_illegal_action_carries_its_reason():
    engine = tiny.ENGINE
    state = engine.setup(engine.validate_config({}, 2), 2, StepRng(seed_bytes(1), 0))
    with pytest.raises(IllegalAction, match="not your turn"):
        engine.apply(state, 1, {"type": "play", "card": state["hands"][1][0]}, None)
