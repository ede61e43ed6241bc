"""The optional engine hook a dispute's rewind uses: ``reshuffle_unseen`` changes only what no
seat has seen. Every audience's view stays exactly as it was, the state given is untouched,
and the game plays on from the copy. Pure: no database."""

import json
import random

import pytest

from games import engines
from games.engines.base import StepRng, reshuffled_unseen

KEYS = ("drafting_trios", "color_clash", "dropmix")


def played(engine, seed: bytes, moves: int) -> dict:
    """A game a few random legal moves in (system actions aside)."""
    seats = max(2, engine.min_seats)
    state = engine.setup(engine.validate_config({}, seats), seats, StepRng(seed, 0))
    rng = random.Random(seed)
    for step in range(1, moves + 1):
        acting = [s for s in range(seats) if engine.legal_actions(state, s)]
        if not acting or engine.outcome(state) is not None:
            break
        seat = rng.choice(acting)
        engine.apply(
            state, seat, rng.choice(engine.legal_actions(state, seat)), StepRng(seed, step)
        )
    return state


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("moves", [0, 7])
def test_only_what_nobody_has_seen_is_shuffled_again(key, moves):
    engine = engines.get(key)
    state = played(engine, b"rewind-" + key.encode(), moves)
    kept = json.dumps(state, sort_keys=True)
    fresh = engine.reshuffle_unseen(state, StepRng(b"a fresh seed", 0))
    assert json.dumps(state, sort_keys=True) == kept  # the state given is not changed
    seats = range(max(2, engine.min_seats))
    for viewer in (None, *seats):
        assert engine.view(fresh, viewer) == engine.view(state, viewer), viewer
    assert json.dumps(fresh, sort_keys=True) != kept  # the unseen order did change
    for seat in seats:
        assert engine.legal_actions(fresh, seat) == engine.legal_actions(state, seat)


def test_an_engine_without_the_hook_continues_from_the_same_state():
    class NoHook:
        pass

    state = {"deck": [3, 1, 2]}
    assert reshuffled_unseen(NoHook(), state, StepRng(b"x", 0)) is state
