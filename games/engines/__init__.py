"""Registry of rules engines by key; the key is what the database stores.

Engines are imported on first use so that loading one game never pays for the others.
"""

from __future__ import annotations

import importlib

from games.engines.base import Engine

ENGINE_MODULES: dict[str, str] = {
    "color_clash": "games.engines.color_clash",
    "drafting_trios": "games.engines.drafting_trios",
    "dropmix": "games.engines.dropmix",
}

_extra: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Register an engine that lives outside this package (tests, plug-ins)."""
    _extra[engine.key] = engine
    return engine


def known_keys() -> list[str]:
    return sorted({*ENGINE_MODULES, *_extra})


def get(key: str) -> Engine:
    """The engine registered as ``key``; ``KeyError`` names the known keys."""
    if key in _extra:
        return _extra[key]
    try:
        module = ENGINE_MODULES[key]
    except KeyError:
        known = ", ".join(known_keys())
        raise KeyError(f"unknown engine {key!r}; known engines: {known}") from None
    return importlib.import_module(module).ENGINE
