"""Every refusal an engine raises names a code of ``refusals.MESSAGES`` with exactly the
params its sentence needs, so pages can always say it translated (read from the sources,
since many refusals are only reached by malformed input)."""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path

import pytest

from games.engines import drafting_trios
from games.engines.base import IllegalAction, StepRng
from games.engines.drafting_trios import actions as trios_actions
from games.engines.refusals import MESSAGES

ENGINES = Path(__file__).resolve().parents[3] / "games" / "engines"
SOURCES = sorted(p for p in ENGINES.rglob("*.py") if p.name != "refusals.py")


def _fields(code: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(MESSAGES[code]) if name}


def _calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) != "IllegalAction":
                continue
            # base.py's own rebuild from a pickle passes a code through: not a raise site
            if path.name == "base.py" and getattr(node.args[0], "id", "") == "code":
                continue
            found.append((f"{path.relative_to(ENGINES)}:{node.lineno}", node))
    return found


def _codes(where: str, node: ast.Call) -> list[str]:
    first = node.args[0] if node.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return [first.value]
    if isinstance(first, ast.IfExp):  # "a" if on else "b"
        return [first.body.value, first.orelse.value]
    if isinstance(first, ast.Subscript) and first.value.id == "_TARGET_REFUSALS":
        return list(trios_actions._TARGET_REFUSALS.values())
    pytest.fail(f"{where}: IllegalAction needs a literal code, not {ast.unparse(first)}")


def test_every_raised_refusal_names_a_known_code_with_its_params():
    calls = _calls()
    assert len(calls) > 90, "the engines' refusals were not found"
    used = set()
    for where, node in calls:
        params = {keyword.arg for keyword in node.keywords}
        for code in _codes(where, node):
            assert code in MESSAGES, f"{where}: unknown refusal code {code!r}"
            assert params == _fields(code), f"{where}: {code} needs {_fields(code)}"
            used.add(code)
    assert set(MESSAGES) - used == set(), "codes no engine raises"


def test_a_refusal_carries_code_params_and_the_english_sentence():
    refusal = IllegalAction("not_held", card="R5")
    assert (refusal.code, refusal.params, refusal.reason) == (
        "not_held",
        {"card": "R5"},
        "you do not hold R5",
    )
    copy = pickle.loads(pickle.dumps(refusal))
    assert (copy.code, copy.params, str(copy)) == ("not_held", {"card": "R5"}, str(refusal))


def test_an_engine_refusal_reaches_the_caller_with_its_code():
    state = drafting_trios.ENGINE.setup(
        drafting_trios.ENGINE.validate_config({}, 2), 2, StepRng(b"s", 0)
    )
    with pytest.raises(IllegalAction) as refused:
        drafting_trios.ENGINE.validate(state, 0, {"type": "trio"})
    assert refused.value.code == "not_a_choice_now"
    assert refused.value.params["type"] == "'trio'"
