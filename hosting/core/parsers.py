"""The one parser of every API body: JSON, read by orjson, refused at the edge when unusable.

What the database or the code behind a view cannot take is refused here, before any view runs,
with a readable ``400 parse_error``: nesting deeper than ``MAX_DEPTH`` (a thousand levels made
the standard parser raise ``RecursionError``), the NUL character (PostgreSQL text cannot hold
it) or another control character in any string or key (``hosting.core.characters``, the same
test as the request guard's), lone surrogates and invalid UTF-8 (orjson refuses them).
Numbers beyond 64 bits arrive as floats, which no integer field accepts. A body larger than
its view takes is a ``413 payload_too_large``.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError

from hosting.core.characters import unstorable

MAX_DEPTH = 32
"""Deeper than any document the API takes (a DropMix catalogue is 6 levels)."""


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"
    default_code = "payload_too_large"


class JSONParser(parsers.JSONParser):
    """A view may bound its bodies below Django's DATA_UPLOAD_MAX_MEMORY_SIZE with a
    ``max_body_bytes`` attribute (a 413 beyond it)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parsers.get_encoding(parser_context)
        body = stream.read()
        limit = getattr(parser_context.get("view"), "max_body_bytes", None)
        if limit is not None and len(body) > limit:
            raise PayloadTooLarge(
                _("the request body is larger than %(size)s KB") % {"size": limit // 1024}
            )
        try:
            if encoding.lower().replace("-", "") != "utf8":
                body = body.decode(encoding)
            data = orjson.loads(body)
        except (ValueError, UnicodeDecodeError) as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None
        problem = unusable(data)
        if problem:
            raise ParseError(problem)
        return data


def unusable(data: Any) -> str | None:
    """Why parsed JSON cannot be taken (too deep, a control character), or None. Iterative: a
    recursive walk would fail on the very documents it is meant to refuse."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            problem = unstorable(value)
            if problem:
                return problem
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return _("JSON may not nest deeper than %(levels)s levels") % {"levels": MAX_DEPTH}
            if isinstance(value, dict):
                problem = next(filter(None, map(unstorable, value)), None)
                if problem:
                    return problem
                value = value.values()
            pending.extend((item, depth + 1) for item in value)
    return None
