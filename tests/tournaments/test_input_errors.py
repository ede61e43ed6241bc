"""Bad input to the JSON functions is always a FormatError with a reason, never a crash."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import FormatError
from tournaments.formats.json_api import bracket_json, standings_json, swiss_json

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=False), st.text(max_size=3)
)
ids = st.one_of(st.integers(0, 6), scalars)
games = st.fixed_dictionaries(
    {"white": ids, "black": ids},
    optional={
        "result": st.one_of(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+"]), scalars),
        "scores": st.one_of(st.lists(scalars, max_size=3), scalars),
        "metrics": st.one_of(st.dictionaries(st.text(max_size=2), st.lists(scalars, max_size=2))),
    },
)
byes = st.fixed_dictionaries(
    {"player": ids},
    optional={
        "kind": st.one_of(st.sampled_from(["pab", "half", "zero", "absent"]), scalars),
        "points": scalars,
    },
)
rounds = st.one_of(
    st.fixed_dictionaries(
        {}, optional={"games": st.lists(games, max_size=4), "byes": st.lists(byes, max_size=2)}
    ),
    scalars,
)
states = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(
            st.lists(st.fixed_dictionaries({"id": ids}, optional={"rating": scalars}), max_size=6),
            scalars,
        ),
        "total_rounds": scalars,
        "absent": st.one_of(st.lists(ids, max_size=2), scalars),
        "rounds": st.one_of(st.lists(rounds, max_size=3), scalars),
        "dmo": ids,
        "system": st.one_of(st.sampled_from(["swiss", "round_robin"]), scalars),
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=st.one_of(states, scalars))
def test_swiss_and_standings_refuse_bad_states_readably(state):
    for call in (lambda: swiss_json(state), lambda: standings_json(state, ["buchholz", "koya"])):
        try:
            call()
        except FormatError as error:
            assert str(error)


@settings(max_examples=200, deadline=None)
@given(
    format=st.one_of(
        st.sampled_from(["single_elimination", "double_elimination", "round_robin"]), scalars
    ),
    participants=scalars,
    grand_final=st.one_of(st.sampled_from(["none", "single", "reset"]), scalars),
    cycles=scalars,
    groups=scalars,
)
def test_bracket_json_refuses_bad_options_readably(
    format, participants, grand_final, cycles, groups
):
    try:
        bracket_json(format, participants, grand_final=grand_final, cycles=cycles, groups=groups)
    except FormatError as error:
        assert str(error)


def test_tiebreak_list_must_be_keys():
    with pytest.raises(FormatError, match="list of keys"):
        standings_json({"players": [{"id": 1}]}, "buchholz")
