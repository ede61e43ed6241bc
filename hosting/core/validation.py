"""The one way a request body is read through an input serializer, by every API module and
by the pages that take the API's input (the organiser console)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``data`` as ``serializer_class`` validates it; else its ``ValidationError`` (a 400 in
    the one error shape through the API, a list of lines on a page)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class StrictText:
    """A text field that takes only a JSON string: DRF's ``CharField`` would store ``0`` as
    "0" and ``true`` as "True", which the OpenAPI document (``type: string``) says it refuses;
    and no longer than its ``maxLength`` as sent, surrounding spaces included."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")  # type: ignore[attr-defined]
        # The document's ``maxLength`` counts what was sent; DRF would count it trimmed.
        limit = getattr(self, "max_length", None)
        if limit is not None and len(data) > limit:
            self.fail("max_length", max_length=limit)  # type: ignore[attr-defined]
        return super().to_internal_value(data)  # type: ignore[misc]


class Text(StrictText, serializers.CharField):
    """``CharField``, strings only."""


class Slug(StrictText, serializers.SlugField):
    """``SlugField``, strings only."""


class Pattern(StrictText, serializers.RegexField):
    """``RegexField``, strings only."""


class Url(StrictText, serializers.URLField):
    """``URLField``, strings only."""
