"""Round-robin crosstables and Swiss rounds as drawn, from the API's own stage payload.

Pure arrangement: each cell shows a result the services recorded (or the round a pairing is
scheduled in); totals and ranks come from the standings, never from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Match = dict[str, Any]


@dataclass(frozen=True)
class Meeting:
    """One game between the row's player and the column's, seen from the row's side."""

    code: str
    round: int
    home: bool  # the row's player had the first seat (white)
    score: float | None  # the row's points, None until decided
    status: str
    games: tuple[int, ...]


@dataclass
class CrossRow:
    seed: int
    entrant: dict[str, Any] | None
    cells: list[list[Meeting]] = field(default_factory=list)  # one list per column


@dataclass
class Crosstable:
    bracket: str
    rows: list[CrossRow]


def _seeds(match: Match) -> list[int | None]:
    return [s if isinstance(s, int) else None for s in match.get("slots") or [None, None]]


def crosstables(stage: dict[str, Any], entrants: list[dict[str, Any]]) -> list[Crosstable]:
    """One Berger crosstable per group (``main`` without groups), players in seed order."""
    by_seed = {e["seed"]: e for e in entrants if e.get("seed") is not None}
    groups: dict[str, list[tuple[int, Match]]] = {}
    for round_ in sorted(stage["rounds"], key=lambda r: (r["bracket"], r["number"])):
        for match in round_["matches"]:
            groups.setdefault(round_["bracket"], []).append((round_["number"], match))
    tables = []
    for bracket in sorted(groups):
        seeds = sorted({s for _, m in groups[bracket] for s in _seeds(m) if s is not None})
        column = {seed: i for i, seed in enumerate(seeds)}
        rows = {seed: CrossRow(seed, by_seed.get(seed), [[] for _ in seeds]) for seed in seeds}
        for number, match in groups[bracket]:
            home, away = _seeds(match)
            if home is None or away is None:
                continue  # the odd player's bye round
            decided = match["status"] == "finished"
            for me, other, is_home in ((home, away, True), (away, home, False)):
                score = match["home_score" if is_home else "away_score"] if decided else None
                rows[me].cells[column[other]].append(
                    Meeting(
                        code=match["code"],
                        round=number,
                        home=is_home,
                        score=score,
                        status=match["status"],
                        games=tuple(match.get("games", ())),
                    )
                )
        tables.append(Crosstable(bracket, [rows[seed] for seed in seeds]))
    return tables


@dataclass
class SwissRound:
    number: int
    status: str
    boards: list[Match]
    bye: Match | None


def swiss_rounds(stage: dict[str, Any]) -> list[SwissRound]:
    """Each round's pairings in board order, and its pairing-allocated bye."""
    rounds = []
    for round_ in sorted(stage["rounds"], key=lambda r: r["number"]):
        boards = [m for m in round_["matches"] if not m["code"].endswith(".bye")]
        byes = [m for m in round_["matches"] if m["code"].endswith(".bye")]
        boards.sort(key=lambda m: int(m["code"].rpartition(".")[2]))
        rounds.append(
            SwissRound(round_["number"], round_["status"], boards, byes[0] if byes else None)
        )
    return rounds
