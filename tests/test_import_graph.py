"""What the import contracts (`lint-imports`, pyproject's ``[tool.importlinter]``) cannot say:
no import cycle among the project's modules, and almost no imports hidden inside functions.

Both are measured as docs/architecture.md states them: grimp (import-linter's own graph) reads
every import statement of games, tournaments and hosting, those inside functions included, so a
cycle closed by an import in a function is still a cycle. import-linter's ``acyclic_siblings``
contract compares packages, not modules (the pure ``games.engines`` and ``games.clocks`` import
each other's modules without any module cycle), and stops at each root package, so it would
neither match the measure nor see a cycle between hosting and tournaments.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "tournaments", "notifications", "hosting")
# Each one left says why on the line above it (see docs/architecture.md, "Hooks").
MOST_IN_FUNCTION_IMPORTS = 5


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that reach one another by imports (Tarjan, without recursion);
    every group of more than one module holds at least one cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        imports = sorted(graph.find_modules_directly_imported_by(start))
        work = [(start, iter(imports))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, imported = work[-1]
            following = next(imported, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    imports = sorted(graph.find_modules_directly_imported_by(following))
                    work.append((following, iter(imports)))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                groups.append(sorted(group))
    return groups


def test_no_import_cycle_among_project_modules() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    cycles = [group for group in strongly_connected(graph) if len(group) > 1]
    cycles += [
        [module]
        for module in graph.modules
        if graph.direct_import_exists(importer=module, imported=module)
    ]
    assert cycles == [], "modules that import one another:\n" + "\n".join(
        " <-> ".join(group) for group in cycles
    )


def in_function_imports() -> list[str]:
    """Every import of a project module made inside a function, as ``path:line: module``."""
    found = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            functions = (
                node
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            )
            for node in (inner for function in functions for inner in ast.walk(function)):
                if isinstance(node, ast.ImportFrom):
                    module = "." * node.level + (node.module or "")
                    imported = [f"from {module} import {', '.join(a.name for a in node.names)}"]
                    modules = [module]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                    imported = [f"import {name}" for name in modules]
                else:
                    continue
                for module, statement in zip(modules, imported, strict=True):
                    if module.startswith(".") or module.split(".")[0] in PACKAGES:
                        found.add(f"{path.relative_to(ROOT)}:{node.lineno}: {statement}")
    return sorted(found)


def test_almost_no_import_inside_a_function() -> None:
    found = in_function_imports()
    assert len(found) <= MOST_IN_FUNCTION_IMPORTS, "\n".join(found)
