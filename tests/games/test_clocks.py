"""Clock arithmetic, without a database."""

import pytest

from games import clocks
from games.clocks import TimeControl, TimeControlError

TRIOS = {"allowances": {"draft": 60, "play": 90, "choice": 30}, "reserve": 300, "policy": "lose"}
CLASH = {
    "allowances": {"turn": 30},
    "reserve": 0,
    "policy": "draw_and_pass",
    "choices": {"turn": [30, 45, 60, 90]},
}


def trios(**data):
    return TimeControl.from_json(data, TRIOS)


def test_time_within_the_allowance_costs_nothing():
    tc = trios()
    clock = clocks.start(clocks.new_clock(tc), "draft", 1, now=1000.0)
    clock = clocks.stop(tc, clock, now=1059.0)
    assert clock["reserve"] == 300.0 and clock["started"] is None


def test_time_over_the_allowance_drains_the_reserve_for_good():
    tc = trios()
    clock = clocks.start(clocks.new_clock(tc), "play", 1, now=0.0)
    clock = clocks.stop(tc, clock, now=100.0)  # 10 s over the 90 s allowance
    assert clock["reserve"] == 290.0
    clock = clocks.start(clock, "draft", 2, now=200.0)
    assert clocks.deadline(tc, clock) == 200.0 + 60 + 290


def test_increment_is_added_when_the_seat_decides():
    tc = trios(increment=2)
    clock = clocks.stop(tc, clocks.start(clocks.new_clock(tc), "draft", 1, 0.0), 70.0)
    assert clock["reserve"] == 300 - 10 + 2


def test_remaining_shows_allowance_then_reserve():
    tc = trios()
    clock = clocks.start(clocks.new_clock(tc), "draft", 1, now=0.0)
    assert clocks.remaining(tc, clock, 20.0)["allowance"] == 40.0
    late = clocks.remaining(tc, clock, 100.0)
    assert late["allowance"] == 0.0 and late["reserve"] == 260.0
    assert clocks.remaining(tc, clocks.new_clock(tc), 5.0) == {
        "running": False,
        "allowance": None,
        "reserve": 300.0,
    }


def test_simultaneous_clocks_expire_in_order_and_exact_ties_together():
    tc = trios()
    base = clocks.new_clock(tc)
    running = {
        "0": clocks.start({**base, "reserve": 10.0}, "draft", 1, 0.0),  # out at 70
        "1": clocks.start({**base, "reserve": 5.0}, "draft", 1, 0.0),  # out at 65
    }
    assert clocks.overdue(tc, running, 64.9) == []
    assert clocks.overdue(tc, running, 71.0) == [[1], [0]]
    running["0"] = clocks.start({**base, "reserve": 5.0}, "draft", 1, 0.0)
    assert clocks.overdue(tc, running, 66.0) == [[0, 1]]
    assert clocks.next_deadline(tc, running) == 65.0


def test_no_reserve_means_the_allowance_is_the_deadline():
    tc = TimeControl.from_json({"allowances": {"turn": 45}}, CLASH)
    clock = clocks.start(clocks.new_clock(tc), "turn", 3, 10.0)
    assert clocks.deadline(tc, clock) == 55.0


@pytest.mark.parametrize(
    "data, message",
    [
        ({"allowances": {"turn": 40}}, "one of: 30, 45, 60, 90"),
        ({"allowances": {"dance": 30}}, "no such phase"),
        ({"reserve": -1}, "from 0 to 86400"),
        ({"reserve": "lots"}, "from 0 to 86400"),
        ({"policy": "lose"}, "expiry policy is 'draw_and_pass'"),
        ({"speed": 1}, "unknown time control field"),
    ],
)
def test_a_broken_time_control_is_refused_with_a_reason(data, message):
    with pytest.raises(TimeControlError, match=message):
        TimeControl.from_json(data, CLASH)


def test_untimed_phase_never_expires():
    tc = TimeControl.from_json({"allowances": {"turn": None}}, {"allowances": {"turn": 15}})
    clock = clocks.start(clocks.new_clock(tc), "turn", 1, 0.0)
    assert clocks.deadline(tc, clock) is None
    assert clocks.overdue(tc, {"0": clock}, 1e9) == []
