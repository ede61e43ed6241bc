"""The pure layers' sentences: English ``str`` values that keep their template and params."""

import pickle

import pytest

from games.clocks import TimeControl, TimeControlError
from games.engines.messages import Message
from tournaments.formats import FormatError
from tournaments.formats.round_robin import schedule


def test_a_message_reads_as_its_english_sentence_and_keeps_its_template():
    message = Message("player {player} has {held} {currency}", player=3, held=2, currency="garnets")
    assert message == "player 3 has 2 garnets"
    assert message.template == "player {player} has {held} {currency}"
    assert message.params == {"player": 3, "held": 2, "currency": "garnets"}


def test_str_of_an_error_raised_with_a_message_is_the_message_itself():
    with pytest.raises(FormatError) as caught:
        schedule(5, cycles=3)
    said = str(caught.value)
    assert isinstance(said, Message)
    assert said == "cycles must be 1 (single) or 2 (double round robin), got 3"
    assert said.template == "cycles must be 1 (single) or 2 (double round robin), got {cycles!r}"


def test_a_parameter_that_is_a_sentence_stays_a_message():
    with pytest.raises(TimeControlError) as caught:
        TimeControl.from_json({"allowances": {"turn": -1}}, {"allowances": {"turn": 30}})
    said = str(caught.value)
    assert said == "allowance for 'turn' must be a number of seconds from 0 to 86400"
    assert isinstance(said.params["what"], Message)
    assert said.params["what"].template == "allowance for {phase!r}"


def test_joined_messages_keep_each_part_and_survive_pickling():
    parts = [Message("unknown card {card!r}", card="x"), Message("target must be 15 or 21")]
    joined = Message.join("; ", parts)
    assert joined == "unknown card 'x'; target must be 15 or 21"
    for copy in (joined, pickle.loads(pickle.dumps(joined))):
        assert copy.parts == tuple(parts) and copy.separator == "; "
        assert [part.template for part in copy.parts] == [p.template for p in parts]
    single = pickle.loads(pickle.dumps(parts[0]))
    assert (single, single.template, single.params) == (parts[0], parts[0].template, {"card": "x"})


def test_a_literal_brace_in_a_template_is_doubled_and_reads_single():
    with pytest.raises(TimeControlError) as caught:
        TimeControl.from_json({"allowances": 3}, {})
    assert str(caught.value) == 'allowances is an object of seconds by phase: {"turn": 30}'
