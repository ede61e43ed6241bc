"""A tournament's public record for other sites: JSON (everything) and CSV (one table).

Built from what the API already shows (``tournaments.selectors.detail``, the standings service,
``games.api``'s log of an ended game), so an export never says more than the pages do: a
game still being played appears only as its spectators see it, never with its log or seed.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.models import GameSession
from games.payloads import game_payload, log_payload
from hosting.core.errors import UserError
from tournaments import selectors, services
from tournaments.models import Tournament

TABLES = ("entrants", "matches", "standings")
EXPORT_VERSION = 1
# A text cell a spreadsheet would run as a formula (a display name like "=HYPERLINK(...)")
# is written with a leading apostrophe, as OWASP advises for CSV files.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _matches(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"stage": stage["number"], **match}
        for stage in detail["stages"]
        for round_ in stage["rounds"]
        for match in round_["matches"]
    ]


def _game_ids(detail: dict[str, Any]) -> list[int]:
    ids = [g for m in _matches(detail) for g in (*m["games"], *m["voided_games"])]
    ids += [e["mm_game"] for e in detail.get("episodes", []) if e["mm_game"]]
    return sorted(set(ids))


def _public_game(game: GameSession, moment: float) -> dict[str, Any]:
    """An ended game's whole log; a game not over, only what any spectator sees now."""
    if game.is_over:
        return log_payload(game)
    return {"game": game.pk, "engine": game.engine, "status": game.status, "log": None} | {
        "spectator_view": game_payload(game, None, moment)
    }


def export_json(tournament: Tournament) -> dict[str, Any]:
    detail = selectors.detail(tournament.slug)
    moment = game_services.now()
    games = GameSession.objects.filter(pk__in=_game_ids(detail)).order_by("pk")
    return {
        "export_version": EXPORT_VERSION,
        "exported_at": timezone.now(),
        "tournament": {k: v for k, v in detail.items() if k not in ("entrants", "stages")},
        "entrants": detail["entrants"],
        "stages": [{k: v for k, v in s.items() if k != "rounds"} for s in detail["stages"]],
        "matches": _matches(detail),
        "standings": services.standings_table(tournament=tournament),
        "games": [_public_game(game, moment) for game in games],
    }


def _safe(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    return value


def _side(side: dict[str, Any] | None, key: str) -> Any:
    return None if side is None else side[key]


def table_rows(tournament: Tournament, table: str) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) of one of ``TABLES``."""
    if table not in TABLES:
        raise UserError(
            _("no table %(table)r: choose one of %(tables)s")
            % {"table": table, "tables": ", ".join(TABLES)}
        )
    if table == "standings":
        rows = services.standings_table(tournament=tournament)["standings"]
        columns = list(dict.fromkeys(key for row in rows for key in row))
        return columns or ["rank", "entrant", "name"], rows
    detail = selectors.detail(tournament.slug)
    if table == "entrants":
        return ["id", "name", "status", "seed", "eliminated_in"], detail["entrants"]
    names = {e["id"]: e["name"] for e in detail["entrants"]}
    rows = [
        {
            "stage": m["stage"],
            "bracket": m["bracket"],
            "round": m["round"],
            "code": m["code"],
            "status": m["status"],
            "home_id": _side(m["home"], "id"),
            "home": _side(m["home"], "name"),
            "away_id": _side(m["away"], "id"),
            "away": _side(m["away"], "name"),
            "home_score": m["home_score"],
            "away_score": m["away_score"],
            "winner_id": m["winner"],
            "winner": names.get(m["winner"]),
            "result_kind": m["result_kind"],
            "best_of": m["best_of"],
            "games": " ".join(map(str, m["games"])),
        }
        for m in _matches(detail)
    ]
    columns = ["stage", "bracket", "round", "code", "status", "home_id", "home", "away_id"]
    columns += ["away", "home_score", "away_score", "winner_id", "winner", "result_kind"]
    return [*columns, "best_of", "games"], rows


def export_csv(tournament: Tournament, table: str) -> str:
    columns, rows = table_rows(tournament, table)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _safe(row.get(key)) for key in columns})
    return out.getvalue()
