"""Path converters that match only what the database can look up: anything else is no URL at
all (a JSON 404), never a query that overflows a column or carries a NUL character."""

from __future__ import annotations

from django.urls import register_converter

MAX_ID = 2**63 - 1  # a bigint primary key
MAX_NUMBER = 2**15 - 1  # a seat or episode number (smallint columns)


class IdConverter:
    """A row id: 1 to 2**63 - 1."""

    regex = "[0-9]{1,19}"
    limit = MAX_ID

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 <= number <= self.limit:
            raise ValueError(f"{value} is out of range")  # no match: the URL resolves no further
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class NumberConverter(IdConverter):
    """A seat or episode number: 0 to 32767."""

    regex = "[0-9]{1,5}"
    limit = MAX_NUMBER


class CodeConverter:
    """A match code as the formats write them: W1.1, L2.3, GF1, P3, A1.2, E1.DM1, FINAL."""

    regex = "[A-Za-z0-9._-]{1,20}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(NumberConverter, "number")
register_converter(CodeConverter, "code")
