"""The queries of the move path, written out in SQL.

Every action locks its game, reads its seats, checks for a repeated submission, appends to
the log and saves the game; every read and timer task first reads the game; every live stream
counts its seat's connections as it opens and closes. Building those
statements through the ORM (or ``raw``) cost about 1 ms of CPU each, more than PostgreSQL
takes to run them; here they are fixed strings, and rows become model instances through the
same field converters and ``Model.from_db`` the ORM uses (``hosting.core.rows``). Everything else
uses the ORM.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import JSONField, Model
from psycopg import pq
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from games.models import GameEvent, GameSession, Seat
from hosting.core import rows

EVENT = GameEvent._meta.db_table
SEAT = Seat._meta.db_table
# The columns a seat can be found by (see games.access.SeatKey).
SEAT_KEYS = ("number", "token_sha256", "user_id", "guest_id")
_SEATS = "WHERE game_id = %s ORDER BY number"

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
    "paused_at",
)
_EVENT_FIELDS = ("game", "seq", "seat", "action", "events", "client_action_id", "at")


# Inside ``move_transaction``: BEGIN still to send with the lock, COMMIT with the save.
_folding: ContextVar[bool] = ContextVar("folding", default=False)


@contextlib.contextmanager
def move_transaction() -> Iterator[None]:
    """``transaction.atomic()`` for one move, in two round trips instead of four: BEGIN goes
    in the lock's query string (``lock_game``) and COMMIT in the save's (``save_progress``).

    psycopg sends BEGIN on its own before a transaction's first statement, and Django's
    commit sends COMMIT, a round trip each. Django's ``atomic`` still keeps the books
    (``on_commit`` hooks, rollback on an error before the save): when the save's COMMIT has
    run, psycopg finds the connection idle and its commit sends nothing. So the save must be
    the move's last statement, as it is in ``act`` and ``bot_act``; a refusal that saved
    nothing commits as before. Nested in another transaction (tests, an eager task) or on
    SQLite it is ``atomic()`` alone. Measured by ``benchmarks/move_path.py --only transaction``
    (interleaved, load average 14-19): PostgreSQL's CPU per move 1.45 -> 1.00 ms (-31 %), the
    POST's wall time 34.0 -> 32.0 ms (-6 %), the move's web + PostgreSQL CPU 5.49 -> 5.16 ms
    (-6 %: below the 10 % mark for the whole move; the issue asks for the fewest round trips)
    (docs/benchmarks.md, "The move path")."""
    db = _db()
    token = _folding.set(_one_trip(db) and not db.in_atomic_block)
    try:
        with transaction.atomic():
            yield
    finally:
        _folding.reset(token)


def game(game_id: int) -> GameSession | None:
    """The game row, unlocked: what every read and every timer task looks at first."""
    found = rows.load(_db(), GameSession, "WHERE id = %s", [game_id])
    return found[0] if found else None


def lock_game(
    game_id: int, repeat_of: tuple[str, Any, str] | None = None
) -> tuple[GameSession, list[Seat], int | None] | None:
    """The game row, locked until the transaction ends, its seats and, for ``repeat_of`` =
    (seat column, value, client action id), the version that submission of the seat whose
    column holds that value produced, if it was made before.

    The seats and the repeat check are statements of their own behind the lock, not
    subqueries of it: each then reads after the lock is granted, so a change (or a racing
    retry) committed while waiting for it is seen. They travel in one round trip."""
    db = _db()
    lock = " FOR UPDATE" if db.features.has_select_for_update else ""
    statements = [
        (rows.select_sql(GameSession, "WHERE id = %s" + lock), [game_id]),
        (rows.select_sql(Seat, _SEATS), [game_id]),
    ]
    if repeat_of is not None:
        column, value, client_action_id = repeat_of
        statements.append((_first_answer_sql(column), [game_id, client_action_id, game_id, value]))
    games, seats, *repeat = _together(db, statements, begin=_folding.get())
    if not games:
        return None
    first = repeat[0][0][0] if repeat and repeat[0] else None
    return rows.instances(db, GameSession, games)[0], rows.instances(db, Seat, seats), first


def seats_of(game_id: int) -> list[Seat]:
    return rows.load(_db(), Seat, _SEATS, [game_id])


def seat_by(game_id: int, column: str, value: Any) -> Seat | None:
    """The game's person's seat whose ``column`` (one of ``SEAT_KEYS``) holds ``value``
    (as ``access.SeatKey.find`` finds it)."""
    where = f"WHERE game_id = %s AND {_seat_key(column)} = %s AND kind = %s"
    found = rows.load(_db(), Seat, where, [game_id, value, Seat.Kind.HUMAN.value])
    return found[0] if found else None


def seat_connected(game_id: int, number: int) -> None:
    """One more connection of the seat is open: it is connected."""
    sql = (
        f"UPDATE {SEAT} SET connections = connections + 1, connected = %s, disconnected_at = NULL"
        " WHERE game_id = %s AND number = %s"
    )
    with _db().cursor() as cursor:
        cursor.execute(sql, [True, game_id, number])


def seat_disconnected(game_id: int, number: int, moment: datetime) -> int | None:
    """One connection of the seat closed; when it was the last, the seat is disconnected since
    ``moment``. Returns the connections still open (None: no such seat). One statement, so
    that a stream opening meanwhile is counted before or after, never lost."""
    sql = (
        f"UPDATE {SEAT}"
        " SET connections = CASE WHEN connections > 1 THEN connections - 1 ELSE 0 END,"
        " connected = connections > 1,"
        " disconnected_at = CASE WHEN connections > 1 THEN disconnected_at ELSE %s END"
        " WHERE game_id = %s AND number = %s RETURNING connections"
    )
    db = _db()
    since = Seat._meta.get_field("disconnected_at").get_db_prep_save(moment, db)
    with db.cursor() as cursor:
        cursor.execute(sql, [since, game_id, number])
        row = cursor.fetchone()
    return None if row is None else row[0]


@dataclass(frozen=True)
class LogEntry:
    """One applied action, waiting to be written with the game's next save."""

    seq: int
    seat: int | None
    action: dict[str, Any]
    events: list[Any]
    client_action_id: str
    at: datetime


def save_progress(game: GameSession, log: list[LogEntry]) -> None:
    """Append ``log`` to the game's event log and save its progress, in one round trip."""
    db = _db()
    statements = []
    if log:
        sql, fields = _insert(GameEvent, _EVENT_FIELDS, len(log), db.vendor)
        values = [
            value
            for e in log
            for value in (game.pk, e.seq, e.seat, e.action, e.events, e.client_action_id, e.at)
        ]
        statements.append((sql, _prepared(db, fields, values)))
    sql, fields = _update(GameSession, PROGRESS_FIELDS, db.vendor)
    values = [getattr(game, field.attname) for field in fields]
    statements.append((sql, [*_prepared(db, fields, values), game.pk]))
    if _folding.get():
        _folding.set(False)
        statements.append(("COMMIT", []))
    _together(db, statements)


def _db() -> BaseDatabaseWrapper:
    # Once per call: every attribute read through ``django.db.connection`` goes through a
    # context-local lookup, dozens of times per move.
    return connections[DEFAULT_DB_ALIAS]


def _together(
    db: BaseDatabaseWrapper, statements: list[tuple[str, list[Any]]], begin: bool = False
) -> list[list]:
    """Run ``statements`` in order and return each one's rows. On PostgreSQL they go as one
    query string, one round trip: psycopg's client-side binding (Django's default) sends it
    with the simple query protocol, which runs several statements, each with a snapshot of
    its own. Where that is not available (SQLite, server-side binding), one at a time.

    ``begin`` (``move_transaction``): the transaction psycopg is about to open starts with
    these statements instead, in the same query string."""
    results: list[list] = []
    with db.cursor() as cursor:
        if _one_trip(db):
            sql = ";\n".join(sql for sql, _ in statements)
            raw = cursor.cursor
            if begin and raw.connection.info.transaction_status == TransactionStatus.IDLE:
                # psycopg sends its BEGIN before a statement when not in autocommit mode;
                # for this one statement it is told it is, and the BEGIN goes with the query.
                raw.connection._autocommit = True
                try:
                    cursor.execute(f"BEGIN;\n{sql}", _flat(statements))
                finally:
                    raw.connection._autocommit = False
                raw.nextset()  # past BEGIN's own result
            else:
                cursor.execute(sql, _flat(statements))
            # The results are read from psycopg's cursor itself: through Django's wrapper every
            # attribute is a lookup of its own, and ``description`` builds a Column object per
            # column on every access (37 us for the game row; ~70 us of a move's ~2 ms).
            for index in range(len(statements)):
                if index:
                    raw.nextset()
                has_rows = raw.pgresult.status == pq.ExecStatus.TUPLES_OK
                results.append(raw.fetchall() if has_rows else [])
            return results
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(cursor.fetchall() if cursor.description else [])
    return results


def _one_trip(db: BaseDatabaseWrapper) -> bool:
    options = db.settings_dict["OPTIONS"]
    return db.vendor == "postgresql" and not options.get("server_side_binding")


def _flat(statements: list[tuple[str, list[Any]]]) -> list[Any]:
    return [param for _, params in statements for param in params]


def _prepared(db: BaseDatabaseWrapper, fields: list[Any], values: Any) -> list[Any]:
    return [_to_db(db, field, value) for field, value in zip(fields, values, strict=True)]


def _to_db(db: BaseDatabaseWrapper, field: Any, value: Any) -> Any:
    """``field.get_db_prep_save``, with JSON (a move's state, clocks, action and events)
    written by orjson, ~10x faster than the field's ``json.dumps``."""
    if value is None or not isinstance(field, JSONField) or field.encoder is not None:
        return field.get_db_prep_save(value, db)
    if db.vendor == "postgresql":
        return Jsonb(value, dumps=_json_bytes)
    return _json_bytes(value).decode()


def _json_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


@functools.cache
def _insert(
    model: type[Model], names: tuple[str, ...], count: int, vendor: str
) -> tuple[str, list[Any]]:
    """``INSERT`` of ``count`` rows, and the fields its values are prepared by, row by row."""
    fields = [model._meta.get_field(name) for name in names]
    columns = ", ".join(_db().ops.quote_name(field.column) for field in fields)
    marks = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * count)
    return f"INSERT INTO {model._meta.db_table} ({columns}) VALUES {marks}", fields * count


@functools.cache
def _update(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, list[Any]]:
    fields = [model._meta.get_field(name) for name in names]
    assignments = ", ".join(f"{_db().ops.quote_name(field.column)} = %s" for field in fields)
    return f"UPDATE {model._meta.db_table} SET {assignments} WHERE id = %s", fields


def _seat_key(column: str) -> str:
    if column not in SEAT_KEYS:
        raise ValueError(f"seats are not found by {column!r}")
    return column


@functools.cache
def _first_answer_sql(column: str) -> str:
    seat = f"SELECT number FROM {SEAT} WHERE game_id = %s AND {_seat_key(column)} = %s"
    return (
        f"SELECT seq FROM {EVENT} WHERE game_id = %s AND client_action_id = %s AND seat = ({seat})"
    )
