"""Shared by the format commands: read a JSON state file, print JSON or a readable error."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError


def read_state(path: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    try:
        state = json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not JSON: {error}") from None
    if not isinstance(state, dict):
        raise CommandError(f"{path} must hold a JSON object")
    return state
