"""The pure layer imports only the standard library, rustworkx, itself and the pure layers'
translatable sentences (``games.engines.messages``), never Django."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_FILES = [
    *sorted((ROOT / "tournaments" / "formats").glob("*.py")),
    ROOT / "tournaments" / "tiebreaks.py",
]
SHARED = {"games.engines.messages"}  # pure itself (tests/hosting/test_project.py)
ALLOWED = set(sys.stdlib_module_names) | {"rustworkx", "tournaments"} | SHARED


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module if node.module in SHARED else node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: p.name)
def test_pure_modules_import_no_framework(path):
    assert imported_roots(path) <= ALLOWED


def test_tournament_imports_stay_inside_the_pure_layer():
    pure_modules = {"tournaments.formats", "tournaments.tiebreaks"}
    for path in PURE_FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tournaments"):
                assert any(node.module.startswith(m) for m in pure_modules), (path, node.module)
