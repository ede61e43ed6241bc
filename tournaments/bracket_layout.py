"""Where each match of a bracket is drawn: rounds as columns, connectors between them.

Pure geometry over the API's own match payloads (``selectors.detail``): nothing here
decides who plays or who won, it only places what the services computed. Columns are rounds;
a match spans the grid rows of the matches that feed it, so it sits midway between them, and
its ``link`` says how its connector runs to the match it feeds:

- ``down`` / ``up``: the upper / lower of a pair that meets in the next column;
- ``across``: the next column has as many matches (a losers-bracket drop round, a grand final
  and its reset), so the line runs straight;
- ``""``: the last column.

This holds by construction for every bracket of ``tournaments.formats``: byes are real
(closed) matches of the first round, so every round has half or as many matches as the round
before. The third-place match and the grand final are drawn apart from the tree. So the cells
of a column all span as many rows and fill the section's rows: the stylesheet draws exactly
this by sharing each column's height equally among its cells (no per-cell style, which the
Content-Security-Policy would refuse).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Match = dict[str, Any]

THIRD_PLACE = "P3"
# Bracket names of tournaments.formats, in the order the page draws them.
ORDER = ("main", "winners", "losers", "final")


@dataclass
class Cell:
    match: Match
    row: int  # first grid row (1-based)
    span: int  # grid rows covered; the match box is centred in them
    link: str = ""


@dataclass
class Column:
    number: int  # the round's number within its bracket
    from_end: int  # 0 for the bracket's last round, 1 for the one before, ...
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Section:
    """One bracket drawn as a tree (``main``, ``winners``, ``losers`` or ``final``)."""

    name: str
    columns: list[Column]
    rows: int
    extras: list[Match] = field(default_factory=list)  # the third-place match

    @property
    def is_empty(self) -> bool:
        return not self.columns


def place(rounds: list[list[Match]]) -> tuple[list[Column], int]:
    """Columns of cells for rounds given in order, each a list of matches in bracket order."""
    rounds = [matches for matches in rounds if matches]
    if not rounds:
        return [], 0
    columns: list[Column] = []
    previous: list[Cell] = []
    last = len(rounds) - 1
    for index, matches in enumerate(rounds):
        column = Column(number=index + 1, from_end=last - index)
        if not previous:
            column.cells = [Cell(m, row=i + 1, span=1) for i, m in enumerate(matches)]
        elif len(matches) * 2 == len(previous):
            for i, match in enumerate(matches):
                upper, lower = previous[2 * i], previous[2 * i + 1]
                upper.link, lower.link = "down", "up"
                column.cells.append(Cell(match, row=upper.row, span=upper.span + lower.span))
        elif len(matches) == len(previous):
            for feeder, match in zip(previous, matches, strict=True):
                feeder.link = "across"
                column.cells.append(Cell(match, row=feeder.row, span=feeder.span))
        else:
            # Not a shape the formats produce: stack the round without connectors.
            column.cells = [Cell(m, row=i + 1, span=1) for i, m in enumerate(matches)]
        columns.append(column)
        previous = column.cells
    rows = max(cell.row + cell.span - 1 for column in columns for cell in column.cells)
    return columns, rows


def sections(stage: dict[str, Any]) -> list[Section]:
    """The stage's brackets as drawn sections, in ``ORDER``; its rounds as in the API detail
    (each with ``bracket``, ``number`` and ``matches``)."""
    by_bracket: dict[str, list[dict[str, Any]]] = {}
    for round_ in stage["rounds"]:
        by_bracket.setdefault(round_["bracket"], []).append(round_)
    drawn = []
    for name in sorted(by_bracket, key=lambda n: (ORDER.index(n) if n in ORDER else 99, n)):
        rounds = sorted(by_bracket[name], key=lambda r: r["number"])
        tree = [[m for m in r["matches"] if m["code"] != THIRD_PLACE] for r in rounds]
        extras = [m for r in rounds for m in r["matches"] if m["code"] == THIRD_PLACE]
        columns, rows = place(tree)
        drawn.append(Section(name=name, columns=columns, rows=rows, extras=extras))
    return drawn
