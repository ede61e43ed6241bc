"""The one bridge between tournament rows and the pure formats and tie-breaks.

Pure code speaks seeds (1 = top seed) and plain JSON; rows speak entrants. This module
translates both ways and nothing else.
"""

from __future__ import annotations

from typing import Any

from tournaments.formats.json_api import (
    bracket_json,
    placements_json,
    standings_json,
    swiss_json,
)
from tournaments.models import Entrant, Match, Stage, Tournament
from tournaments.tiebreaks import DEFAULT_REGULATIONS

BRACKET_FORMATS = ("single_elimination", "double_elimination", "round_robin")


def bracket_structure(stage: Stage, entrants: int) -> list[dict[str, Any]]:
    options = stage.options
    return bracket_json(
        stage.format,
        entrants,
        third_place=bool(options.get("third_place", False)),
        grand_final=options.get("grand_final", "single"),
        cycles=int(options.get("cycles", 1)),
        groups=int(options.get("groups", 1)),
    )["brackets"]


ACTIVE = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN)


def seeded_entrants_for(tournament: Tournament) -> dict[int, Entrant]:
    """Seed number -> entrant, for the entrants taking part."""
    entrants = tournament.entrants.filter(status__in=ACTIVE, seed__isnull=False)
    return {e.seed: e for e in entrants}


def seeded_entrants(stage: Stage) -> dict[int, Entrant]:
    return seeded_entrants_for(stage.tournament)


def round_state(stage: Stage, *, total_rounds: int | None = None) -> dict[str, Any]:
    """The stage's record in the Swiss/standings JSON shape, with seeds as player ids.

    Pairing numbers follow rating, then id; a synthetic rating that falls with the seed makes
    them follow the organiser's seeding exactly.
    """
    entrants = list(stage.tournament.entrants.exclude(seed__isnull=True).order_by("seed"))
    count = len(entrants)
    players = [{"id": e.seed, "rating": count - e.seed + 1} for e in entrants]
    absent = [
        e.seed
        for e in entrants
        if e.status in (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED)
    ]
    # A Swiss bye scores (FIDE: a win); sitting out a round-robin round scores nothing.
    bye_points = stage.options.get("bye_points", 1 if stage.format == "swiss" else 0)
    rounds = []
    matches = stage.matches.select_related("home", "away", "winner", "round").order_by(
        "round__number", "code"
    )
    # Double elimination plays a winners' and a losers' round 1 (and so on) side by side, with
    # the same players in both: each is a round of the record of its own.
    split = stage.format == "double_elimination"
    by_round: dict[tuple[int, str], list[Match]] = {}
    for match in matches:
        if match.is_decided:
            key = (match.round.number, match.round.bracket if split else "")
            by_round.setdefault(key, []).append(match)
    for key in sorted(by_round):
        games, byes = [], []
        for match in by_round[key]:
            if match.result_kind == Match.ResultKind.BYE:
                byes.append({"player": match.winner.seed, "points": bye_points, "kind": "pab"})
            elif match.status == Match.Status.FINISHED:
                games.append(_game_record(match))
        rounds.append({"games": games, "byes": byes})
    return {
        "players": players,
        "total_rounds": max(total_rounds or stage.total_rounds or len(rounds), len(rounds)),
        "absent": absent,
        "rounds": rounds,
    }


def _game_record(match: Match) -> dict[str, Any]:
    if match.result_kind == Match.ResultKind.DRAW or match.winner_id is None:
        result = "1/2-1/2"
    elif match.result_kind == Match.ResultKind.FORFEIT:
        result = "+-" if match.winner_id == match.home_id else "-+"
    else:
        result = "1-0" if match.winner_id == match.home_id else "0-1"
    record: dict[str, Any] = {"white": match.home.seed, "black": match.away.seed, "result": result}
    if "scores" in match.metrics:
        record["scores"] = match.metrics["scores"]
    if match.metrics.get("metrics"):
        record["metrics"] = match.metrics["metrics"]
    return record


def swiss_pairings(stage: Stage) -> dict[str, Any]:
    return swiss_json(round_state(stage))


def standings(
    stage: Stage,
    tiebreaks: list[str],
    dmo_seed: int | None = None,
    *,
    regulations: str = DEFAULT_REGULATIONS,
) -> list[dict]:
    """Points, then the chain: Swiss (FIDE C.07 Article 16) or round robin (Article 15.2)."""
    state = round_state(stage)
    state["system"] = "round_robin" if stage.format == "round_robin" else "swiss"
    if dmo_seed is not None:
        state["dmo"] = dmo_seed
    return standings_json(state, tiebreaks, regulations)["standings"]


def bracket_placements(stage: Stage) -> list[dict[str, Any]]:
    """Single or double elimination: placements by the round each seed went out in."""
    matches = list(stage.matches.select_related("winner", "loser"))
    seeds = [s for m in matches for s in m.slots if isinstance(s, int)]
    results = {
        m.code: {"winner": m.winner.seed, "loser": m.loser.seed}
        for m in matches
        if m.status == Match.Status.FINISHED and m.winner_id and m.loser_id
    }
    options = stage.options
    state = {
        "format": stage.format,
        "participants": max(seeds),
        "third_place": bool(options.get("third_place", False)),
        "grand_final": options.get("grand_final", "single"),
        "results": results,
    }
    return placements_json(state)["standings"]


def season_placements(tournament: Tournament) -> list[dict[str, Any]]:
    """A Genius season by episode of elimination; ids are seeds, as in every standings row."""
    cast = tournament.entrants.filter(status__in=ACTIVE, seed__isnull=False)
    state = {
        "format": "genius",
        "players": [{"id": e.seed, "eliminated_in": e.eliminated_in} for e in cast],
        "episodes": tournament.episodes.count() or 1,
    }
    return placements_json(state)["standings"]
