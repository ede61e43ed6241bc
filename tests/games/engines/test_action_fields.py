"""Issue 14, finding 3: every engine refuses a field its actions do not have, so the log (public
once a game ends) stores nothing a player made up. The conformance harness checks it along
every random game; these are the direct cases, the host's own actions included."""

import json

import pytest

from games import engines
from games.engines.base import IllegalAction, StepRng, seed_bytes

SEATS = {"drafting_trios": 2, "color_clash": 3, "dropmix": 4}


def started(key: str):
    engine = engines.get(key)
    config = engine.validate_config({}, SEATS[key])
    return engine, engine.setup(config, SEATS[key], StepRng(seed_bytes(14), 0))


@pytest.mark.parametrize("key", sorted(SEATS))
def test_a_legal_action_with_an_extra_field_is_refused_and_changes_nothing(key):
    engine, state = started(key)
    seat = engine.to_act(state)[0]
    before = json.dumps(state, sort_keys=True)
    for action in engine.legal_actions(state, seat)[:5]:
        engine.validate(state, seat, action)  # legal as listed
        with pytest.raises(IllegalAction, match=r"unexpected field\(s\) junk in a"):
            engine.apply(state, seat, {**action, "junk": "x" * 2_000_000}, StepRng(b"", 1))
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("key", ["color_clash", "dropmix"])
def test_the_hosts_own_actions_take_no_extra_field_either(key):
    engine, state = started(key)
    seats = engine.to_act(state)
    for action in (
        {"type": "timeout", "seats": seats[:1], "note": "late"},
        {"type": "window_closed", "name": "last_card", "by": "host"},
    ):
        with pytest.raises(IllegalAction, match="unexpected field"):
            engine.validate(state, None, action)


@pytest.mark.parametrize("kind", [["play"], {"a": 1}, None, 7])
def test_an_action_type_that_is_not_a_name_is_refused(kind):
    for key in SEATS:
        engine, state = started(key)
        with pytest.raises(IllegalAction, match=r"unknown action|is not a choice"):
            engine.validate(state, engine.to_act(state)[0], {"type": kind})
