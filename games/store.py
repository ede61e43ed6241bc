"""The queries of the move path, written out in SQL.

Every action locks its game, reads its seats, checks for a repeated submission, appends to
the log and saves the game; every read and timer task first reads the game. Building those
statements through the ORM (or ``raw``) cost about 1 ms of CPU each, more than PostgreSQL
takes to run them; here they are fixed strings, and rows become model instances through the
same field converters and ``Model.from_db`` the ORM uses. Everything else uses the ORM.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.utils import timezone

from games.models import GameEvent, GameSession, Seat

EVENT = GameEvent._meta.db_table
_FIRST_ANSWER = (
    f"SELECT seq FROM {EVENT} WHERE game_id = %s AND seat = %s AND client_action_id = %s"
)

# The columns a game's progress changes; config, seed and the rest are written once.
PROGRESS_FIELDS = (
    "status",
    "state",
    "version",
    "clocks",
    "windows",
    "next_deadline",
    "outcome",
    "started",
    "finished",
)
_EVENT_FIELDS = ("game", "seq", "seat", "action", "events", "client_action_id", "at")


def game(game_id: int) -> GameSession | None:
    """The game row, unlocked: what every read and every timer task looks at first."""
    found = _load(_db(), GameSession, "WHERE id = %s", [game_id])
    return found[0] if found else None


def lock_game(
    game_id: int, repeat_of: tuple[int, str] | None = None
) -> tuple[GameSession, list[Seat], int | None] | None:
    """The game row, locked until the transaction ends, its seats and, for ``repeat_of`` =
    (seat, client action id), the version that submission produced if it was made before.

    The seats and the repeat check are separate statements sent behind the lock, not
    subqueries of it: each then reads after the lock is granted, so a change (or a racing
    retry) committed while waiting for it is seen. Inside ``batched`` all three travel
    together."""
    db = _db()
    lock = " FOR UPDATE" if db.features.has_select_for_update else ""
    with db.cursor() as games, db.cursor() as seats, db.cursor() as repeat:
        _select(games, GameSession, "WHERE id = %s" + lock, [game_id])
        _select(seats, Seat, "WHERE game_id = %s ORDER BY number", [game_id])
        if repeat_of is not None:
            repeat.execute(_FIRST_ANSWER, [game_id, *repeat_of])
        found = _instances(db, GameSession, games.fetchall())
        if not found:
            return None
        first = repeat.fetchone() if repeat_of is not None else None
        return found[0], _instances(db, Seat, seats.fetchall()), first[0] if first else None


@contextmanager
def batched() -> Iterator[None]:
    """Send the statements issued inside to PostgreSQL without waiting for each answer
    (psycopg's pipeline mode): a move's lock, seats and repeat check cost one round trip,
    its log entries and game update another. Use it inside a transaction, around code that
    reads results only through these functions (the ORM relies on row counts that a pipeline
    reports late). Elsewhere, statements simply run one by one."""
    db = _db()
    if db.vendor != "postgresql":
        yield
        return
    db.ensure_connection()
    with db.connection.pipeline():
        yield


def seats_of(game_id: int) -> list[Seat]:
    return _seats(_db(), game_id)


def _seats(db: BaseDatabaseWrapper, game_id: int) -> list[Seat]:
    return _load(db, Seat, "WHERE game_id = %s ORDER BY number", [game_id])


def seat_by_token(game_id: int, token_sha256: str) -> Seat | None:
    where = "WHERE game_id = %s AND token_sha256 = %s"
    found = _load(_db(), Seat, where, [game_id, token_sha256])
    return found[0] if found else None


def append_event(
    game_id: int,
    seq: int,
    seat: int | None,
    action: dict[str, Any],
    events: list[Any],
    client_action_id: str,
) -> None:
    db = _db()
    sql, fields = _insert(GameEvent, _EVENT_FIELDS, db.vendor)
    values = (game_id, seq, seat, action, events, client_action_id, timezone.now())
    with db.cursor() as cursor:
        cursor.execute(sql, _prepared(db, fields, values))


def save_progress(game: GameSession) -> None:
    db = _db()
    sql, fields = _update(GameSession, PROGRESS_FIELDS, db.vendor)
    values = [getattr(game, field.attname) for field in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, [*_prepared(db, fields, values), game.pk])


def _db() -> BaseDatabaseWrapper:
    # Once per call: every attribute read through ``django.db.connection`` goes through a
    # context-local lookup, dozens of times per move.
    return connections[DEFAULT_DB_ALIAS]


def _load(db: BaseDatabaseWrapper, model: type[Model], where: str, params: list[Any]) -> list:
    """Instances of ``model`` from ``SELECT <its columns> FROM <its table> <where>``."""
    with db.cursor() as cursor:
        _select(cursor, model, where, params)
        return _instances(db, model, cursor.fetchall())


def _select(cursor: Any, model: type[Model], where: str, params: list[Any]) -> None:
    columns = _reader(model, cursor.db.vendor)[0]
    cursor.execute(f"SELECT {columns} FROM {model._meta.db_table} {where}", params)


def _instances(db: BaseDatabaseWrapper, model: type[Model], rows: list[tuple]) -> list:
    _, attnames, converters = _reader(model, db.vendor)
    instances = []
    for row in rows:
        values = list(row)
        for index, column, convert in converters:
            values[index] = convert(values[index], column, db)
        instances.append(model.from_db(db.alias, attnames, values))
    return instances


def _prepared(db: BaseDatabaseWrapper, fields: list[Any], values: Any) -> list[Any]:
    return [field.get_db_prep_save(value, db) for field, value in zip(fields, values, strict=True)]


@functools.cache
def _reader(model: type[Model], vendor: str) -> tuple[str, list[str], list[tuple]]:
    """A model's column list, attribute names and the converters its values need from this
    database (the backend's, then the field's), as the ORM's compiler would apply them."""
    db = _db()
    fields = model._meta.concrete_fields
    columns = ", ".join(db.ops.quote_name(f.column) for f in fields)
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        for convert in db.ops.get_db_converters(column) + field.get_db_converters(db):
            converters.append((index, column, convert))
    return columns, [f.attname for f in fields], converters


@functools.cache
def _insert(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    fields = [model._meta.get_field(name) for name in names]
    columns = ", ".join(_db().ops.quote_name(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {model._meta.db_table} ({columns}) VALUES ({marks})", fields


@functools.cache
def _update(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    fields = [model._meta.get_field(name) for name in names]
    assignments = ", ".join(f"{_db().ops.quote_name(field.column)} = %s" for field in fields)
    return f"UPDATE {model._meta.db_table} SET {assignments} WHERE id = %s", fields
