"""JSON in, JSON out: the functions the management commands and the adapter call.

Every shape is documented in ``docs/formats-json.md``. Input errors raise ``FormatError``.
"""

from __future__ import annotations

from typing import Any

from tournaments.formats import double_elimination, round_robin, single_elimination, swiss
from tournaments.formats.bracket import bracket_to_json
from tournaments.formats.errors import FormatError
from tournaments.formats.history import parse_history
from tournaments.tiebreaks import TIEBREAK_REGULATIONS, Crosstable, rank


def bracket_json(
    format: str,
    participants: int,
    *,
    third_place: bool = False,
    grand_final: str = "single",
    cycles: int = 1,
    groups: int = 1,
) -> dict[str, Any]:
    """The whole bracket (or round-robin schedule) for ``participants`` seeds."""
    if isinstance(participants, bool) or not isinstance(participants, int):
        raise FormatError(f"participants must be a whole number, got {participants!r}")
    builders = {
        single_elimination.KEY: lambda: single_elimination.generate(
            participants, third_place=third_place
        ),
        double_elimination.KEY: lambda: double_elimination.generate(
            participants, grand_final=grand_final
        ),
        round_robin.KEY: lambda: round_robin.generate(participants, cycles=cycles, groups=groups),
    }
    if format not in builders:
        raise FormatError(f"unknown bracket format {format!r}; choose one of {', '.join(builders)}")
    brackets = builders[format]()
    return {
        "format": format,
        "participants": participants,
        "brackets": [bracket_to_json(bracket) for bracket in brackets],
    }


def swiss_json(state: dict[str, Any]) -> dict[str, Any]:
    """Pair the next Swiss round of ``state``; absent players are left out."""
    pairing = swiss.pair_round(parse_history(state))
    return {
        "pairings": [{"white": p.white, "black": p.black} for p in pairing.pairings],
        "bye": pairing.bye,
    }


def standings_json(state: dict[str, Any], tiebreaks: list[str]) -> dict[str, Any]:
    """Rank ``state`` (the Swiss state shape) by points, then ``tiebreaks`` in order.

    An optional ``"dmo"`` id in the state marks the Death Match Opponent for ``dmo_wins_tie``;
    ``"system": "round_robin"`` (default ``"swiss"``) switches the handling of unplayed rounds
    from FIDE C.07 Article 16 to Article 15.2.
    """
    if not isinstance(tiebreaks, list) or not all(isinstance(k, str) for k in tiebreaks):
        raise FormatError("tie-breaks must be a list of keys, e.g. ['buchholz', 'wins']")
    history = parse_history(state)
    dmo = state.get("dmo")
    if dmo is not None and dmo not in {p.id for p in history.players}:
        raise FormatError(f'unknown player id {dmo!r} in "dmo"')
    system = state.get("system", "swiss")
    if system not in ("swiss", "round_robin"):
        raise FormatError(f'"system" must be "swiss" or "round_robin", got {system!r}')
    standings = rank(Crosstable(history, dmo=dmo, swiss=system == "swiss"), tiebreaks)
    return {
        "regulations": TIEBREAK_REGULATIONS,
        "standings": [
            {"id": s.id, "rank": s.rank, "points": s.points, "tiebreaks": s.tiebreaks}
            for s in standings
        ],
    }
