"""Standings: the ranked entrants of a tournament, and what ranked them."""

from __future__ import annotations

from typing import Any

from tournaments import adapters, tiebreaks
from tournaments.core.errors import TournamentUserError
from tournaments.formats import FormatError
from tournaments.models import Tournament
from tournaments.services.stages import ENDED_ENTRIES


def standings(*, tournament: Tournament, regulations: str | None = None) -> list[dict[str, Any]]:
    """Ranked entrants: knockouts and Genius seasons by how far each got (placements), round
    robin and Swiss by points and the tournament's tie-break chain, under its regulations
    (or ``regulations``, to see the table under another version)."""
    if tournament.format == "genius":
        rows = adapters.season_placements(tournament) if tournament.stages.exists() else []
        return _named(tournament, rows)
    stage = tournament.stages.order_by("-number").first()
    if stage is None:
        return []
    chain = [key for key in tournament.tiebreaks if key != "points"]
    try:
        if stage.format in PLACEMENT_FORMATS:
            rows = adapters.bracket_placements(stage)
        else:
            rows = adapters.standings(
                stage, chain, regulations=regulations or tournament.tiebreak_regulations
            )
            for row in rows:  # nobody is eliminated from a round robin or a Swiss
                row["eliminated_in"] = row["round_reached"] = None
    except FormatError as error:
        raise TournamentUserError(str(error)) from None
    return _named(tournament, rows)


PLACEMENT_FORMATS = ("single_elimination", "double_elimination")


def standings_table(*, tournament: Tournament, regulations: str | None = None) -> dict[str, Any]:
    """The standings with what decided them: ``ranking`` is the format whose placements
    rank the entrants, or ``points`` (then the chain), and ``regulations`` the version of
    the tie-break regulations applied (the tournament's, unless another is asked for)."""
    if regulations is not None:
        try:
            tiebreaks.check_regulations(regulations)
        except FormatError as error:
            raise TournamentUserError(str(error)) from None
    placed = tournament.format in (*PLACEMENT_FORMATS, "genius")
    return {
        "ranking": tournament.format if placed else "points",
        "regulations": regulations or tournament.tiebreak_regulations,
        "standings": standings(tournament=tournament, regulations=regulations),
    }


def _named(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Every seed keeps its name, that of an entrant who withdrew after the start included.
    seeds = {e.seed: e for e in tournament.entrants.filter(seed__isnull=False)}
    for row in rows:
        entrant = seeds.get(row["id"])
        row["entrant"] = entrant.pk if entrant else None
        row["name"] = entrant.display_name if entrant else f"seed {row['id']}"
        # Out of the event whatever the table says: withdrawn or disqualified while it ran.
        ended = entrant is not None and entrant.status in ENDED_ENTRIES
        row["entry_ended"] = entrant.status if ended else None
    return rows
