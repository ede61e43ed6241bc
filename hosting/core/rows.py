"""Model instances from fixed SQL, as the ORM would build them.

The hot reads (a move's game and seats, a signed-in request's user) are fixed statements:
building them through the ORM's query compiler cost 2-4 times what PostgreSQL takes to run
them. Rows still become instances through the same converters (the backend's, then the
field's) and ``Model.from_db`` the compiler would apply, so the instances are the ORM's own.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import JSONField, Model


def load(db: BaseDatabaseWrapper, model: type[Model], where: str, params: list[Any]) -> list:
    """Instances of ``model`` from ``SELECT <its columns> FROM <its table> <where>``."""
    with db.cursor() as cursor:
        cursor.execute(select_sql(model, where), params)
        return instances(db, model, cursor.fetchall())


def select_sql(model: type[Model], where: str) -> str:
    columns = _reader(model, connections[DEFAULT_DB_ALIAS].vendor)[0]
    return f"SELECT {columns} FROM {model._meta.db_table} {where}"


def instances(db: BaseDatabaseWrapper, model: type[Model], rows: list[tuple]) -> list:
    _, attnames, converters = _reader(model, db.vendor)
    built = []
    for row in rows:
        values = list(row)
        for index, column, convert in converters:
            values[index] = convert(values[index], column, db)
        built.append(model.from_db(db.alias, attnames, values))
    return built


@functools.cache
def _reader(model: type[Model], vendor: str) -> tuple[str, list[str], list[tuple]]:
    """A model's column list, attribute names and the converters its values need from this
    database (the backend's, then the field's), as the ORM's compiler would apply them."""
    db = connections[DEFAULT_DB_ALIAS]
    fields = model._meta.concrete_fields
    columns = ", ".join(db.ops.quote_name(f.column) for f in fields)
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        own = field.get_db_converters(db)
        if isinstance(field, JSONField) and field.decoder is None:
            own = [_json_from_db]  # what the field's own converter does, ~5x faster
        for convert in db.ops.get_db_converters(column) + own:
            converters.append((index, column, convert))
    return columns, [f.attname for f in fields], converters


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    return None if value is None else orjson.loads(value)
