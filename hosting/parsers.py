"""The one parser of every API body: JSON, read by orjson, refused at the edge when unusable.

What the database or the code behind a view cannot take is refused here, before any view runs,
with a readable ``400 parse_error``: nesting deeper than ``MAX_DEPTH`` (a thousand levels made
the standard parser raise ``RecursionError``), the NUL character in any string or key
(PostgreSQL text cannot hold it), lone surrogates and invalid UTF-8 (orjson refuses them).
Numbers beyond 64 bits arrive as floats, which no integer field accepts.
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
"""Deeper than any document the API takes (a DropMix catalogue is 6 levels)."""

NUL = "\x00"


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = parsers.get_encoding(parser_context or {})
        body = stream.read()
        try:
            if encoding.lower().replace("-", "") != "utf8":
                body = body.decode(encoding)
            data = orjson.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            raise ParseError(f"JSON parse error - {error}") from None
        problem = unusable(data)
        if problem:
            raise ParseError(problem)
        return data


def unusable(data: Any) -> str | None:
    """Why parsed JSON cannot be taken (too deep, a NUL character), or None. Iterative: a
    recursive walk would fail on the very documents it is meant to refuse."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if NUL in value:
                return "text may not contain the NUL character (\\u0000)"
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return f"JSON may not nest deeper than {MAX_DEPTH} levels"
            if isinstance(value, dict):
                if any(NUL in key for key in value):
                    return "text may not contain the NUL character (\\u0000)"
                value = value.values()
            pending.extend((item, depth + 1) for item in value)
    return None
