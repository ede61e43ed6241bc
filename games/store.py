"""The queries of the move path, written out in SQL.

Every action locks its game, reads its seats, checks for a repeated submission, appends to
the log and saves the game. Building those statements through the ORM (or ``raw``) cost about
1 ms of CPU each, more than PostgreSQL takes to run them; here they are fixed strings, and rows
become model instances through the same field converters and ``Model.from_db`` the ORM uses.
Everything else uses the ORM.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from games.models import GameEvent, GameSession, Seat

GAME = GameSession._meta.db_table
SEAT = Seat._meta.db_table
EVENT = GameEvent._meta.db_table

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


def lock_game(game_id: int) -> tuple[GameSession, list[Seat]] | None:
    """The game row, locked until the transaction ends, and its seats (read after the lock,
    so a change committed while waiting for it is seen)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    games = _load(GameSession, "WHERE id = %s" + lock, [game_id])
    if not games:
        return None
    return games[0], seats_of(game_id)


def seats_of(game_id: int) -> list[Seat]:
    return _load(Seat, "WHERE game_id = %s ORDER BY number", [game_id])


def seat_by_token(game_id: int, token_sha256: str) -> Seat | None:
    found = _load(Seat, "WHERE game_id = %s AND token_sha256 = %s", [game_id, token_sha256])
    return found[0] if found else None


def first_answer(game_id: int, seat: int, client_action_id: str) -> int | None:
    """The version a seat's earlier submission with this id produced, if there was one."""
    sql = f"SELECT seq FROM {EVENT} WHERE game_id = %s AND seat = %s AND client_action_id = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, seat, client_action_id])
        row = cursor.fetchone()
    return row[0] if row else None


def append_event(
    game_id: int,
    seq: int,
    seat: int | None,
    action: dict[str, Any],
    events: list[Any],
    client_action_id: str,
) -> None:
    values = (game_id, seq, seat, action, events, client_action_id, timezone.now())
    columns = [GameEvent._meta.get_field(name) for name in _EVENT_FIELDS]
    params = [f.get_db_prep_save(v, connection) for f, v in zip(columns, values, strict=True)]
    names = ", ".join(connection.ops.quote_name(field.column) for field in columns)
    sql = f"INSERT INTO {EVENT} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def save_progress(game: GameSession) -> None:
    fields = [GameSession._meta.get_field(name) for name in PROGRESS_FIELDS]
    params = [field.get_db_prep_save(getattr(game, field.attname), connection) for field in fields]
    assignments = ", ".join(f"{connection.ops.quote_name(field.column)} = %s" for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {GAME} SET {assignments} WHERE id = %s", [*params, game.pk])


def _load(model: type[Model], where: str, params: list[Any]) -> list[Any]:
    """Instances of ``model`` from ``SELECT <its columns> FROM <its table> <where>``."""
    columns, attnames, converters = _reader(model, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {model._meta.db_table} {where}", params)
        rows = cursor.fetchall()
    instances = []
    for row in rows:
        values = list(row)
        for index, column, convert in converters:
            values[index] = convert(values[index], column, connection)
        instances.append(model.from_db(connection.alias, attnames, values))
    return instances


@functools.cache
def _reader(model: type[Model], vendor: str) -> tuple[str, list[str], list[tuple]]:
    """A model's column list, attribute names and the converters its values need from this
    database (the backend's, then the field's), as the ORM's compiler would apply them."""
    fields = model._meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + field.get_db_converters(
            connection
        ):
            converters.append((index, column, convert))
    return columns, [f.attname for f in fields], converters
