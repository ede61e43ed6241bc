import json

import pytest
from django.core.management import CommandError, call_command

TINY = "tests.games.engines.tiny"


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue().splitlines()


def test_simulate_reports_zero_failures_as_json_on_its_last_line():
    lines = run(TINY, "--games", "200", "--seed", "1", "--json")
    report = json.loads(lines[-1])
    assert report["games"] == 200
    assert report["invariant_failures"] == 0
    assert report["games_per_second"] > 0 and report["actions_per_second"] > 0


def test_simulate_fails_on_a_leaking_engine():
    with pytest.raises(CommandError, match="broke an invariant"):
        run(f"{TINY}:LeakyHighCard", "--games", "5", "--json")


def test_simulate_fails_on_a_non_replayable_engine():
    with pytest.raises(CommandError, match="broke an invariant"):
        run(f"{TINY}:UnreplayableHighCard", "--games", "5")


def test_bench_mode_skips_checks(tmp_path):
    lines = run(f"{TINY}:LeakyHighCard", "--games", "20", "--bench", "--json", "--players", "4")
    assert json.loads(lines[-1])["invariant_failures"] == 0


def test_trace_writes_setup_and_every_action(tmp_path):
    trace = tmp_path / "trace.jsonl"
    lines = run(TINY, "--games", "2", "--seed", "9", "--json", "--trace", str(trace))
    report = json.loads(lines[-1])
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    assert len(records) == report["actions"] + 2
    assert records[0] == {**records[0], "game": 0, "step": 0, "action": None}
    assert {"game", "step", "seat", "action", "events", "views", "spectator"} <= set(records[1])


@pytest.mark.parametrize(
    "args, message",
    [
        (["nope"], "unknown engine"),
        (["no.such.module"], "cannot load"),
        ([TINY, "--config", "{oops"], "not JSON"),
        ([TINY, "--config", '{"hand_size": 9}'], "hand_size"),
        ([TINY, "--players", "9"], "2 to 4 seats"),
    ],
)
def test_bad_input_is_a_readable_error(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
