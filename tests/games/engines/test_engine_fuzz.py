"""Whatever JSON reaches an engine or a time control, the answer is its own readable refusal
(``ConfigError``, ``IllegalAction``, ``TimeControlError``), never a crash, and a refused action
changes nothing. The pure half of issue 14's fuzz (tests/hosting/test_api_fuzz.py is the HTTP
half): these are what the API hands its input to."""

import functools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engines
from games.clocks import TimeControl, TimeControlError
from games.engines.base import ConfigError, IllegalAction, StepRng, seed_bytes

KEYS = ["color_clash", "drafting_trios", "dropmix"]
BOUNDED = settings(max_examples=60, deadline=None)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["EC", "DMO", "classic", "red", "yellow", "R1", "W", "W4", "turn"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)
CONFIG_KEYS = [
    "mode", "match", "substitutes", "turn_seconds", "roles", "power_cards_in_trios",
    "colour_bonus_on_failed_trio", "assist_previews", "short_hand", "target",
    "middle_slot_colour", "wheel", "retract_seconds", "spin_retract_seconds", "decks", "catalogue",
]  # fmt: skip
# A config is an object (the API's serializers see to that); what it holds is anything.
configs = st.dictionaries(
    st.sampled_from(CONFIG_KEYS) | st.text(max_size=4), json_values, max_size=4
)
ACTION_KEYS = [
    "card", "color", "colour", "slot", "target", "pick", "discard", "cards", "cost", "category",
    "rule", "name", "seats", "seat", "on",
]  # fmt: skip
ACTION_TYPES = [
    "play", "draw", "pass", "catch", "call_last_card", "choose_color", "drop", "spin", "retract",
    "choose", "draft", "mulligan", "name", "earthquake", "trio", "power", "discard", "timeout",
    "window_closed", "substitute",
]  # fmt: skip
actions = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES) | json_values},
        optional=dict.fromkeys(ACTION_KEYS, json_values),
    )
    | json_values
)


@pytest.mark.parametrize("key", KEYS)
@BOUNDED
@given(config=configs, seats=st.integers(0, 7))
def test_any_config_is_taken_or_refused_readably(key, config, seats):
    engine = engines.get(key)
    try:
        full = engine.validate_config(config, seats)
    except ConfigError as refusal:
        assert str(refusal)
    else:
        json.dumps(full)


@pytest.mark.parametrize("key", KEYS)
@BOUNDED
@given(control=st.dictionaries(st.sampled_from(["allowances", "reserve", "increment", "policy"]),
                               json_values) | json_values)  # fmt: skip
def test_any_time_control_is_taken_or_refused_readably(key, control):
    try:
        TimeControl.from_json(control, engines.get(key).default_time_control)
    except TimeControlError as refusal:
        assert str(refusal)


@functools.cache
def started(key: str) -> str:
    engine = engines.get(key)
    state = engine.setup(engine.validate_config({}, 2), 2, StepRng(seed_bytes(3), 0))
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("key", KEYS)
@BOUNDED
@given(seat=st.sampled_from([None, 0, 1, 2, 5, -1]), action=actions)
def test_any_action_is_refused_readably_and_changes_nothing(key, seat, action):
    engine = engines.get(key)
    before = started(key)
    state = json.loads(before)
    try:
        engine.validate(state, seat, action)
    except IllegalAction as refusal:
        assert refusal.reason
        assert json.dumps(state, sort_keys=True) == before
