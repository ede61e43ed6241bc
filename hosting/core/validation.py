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
