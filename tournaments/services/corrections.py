"""Corrections that repair the bracket: a changed result moves entrants through every match it
feeds, and resets the matches that now hold a different pair.

The arithmetic (who should hold which match) is the pure ``tournaments.formats.repair``; this
module reads the rows for it and writes what it decides. A reset clears the match's result,
voids its hosted games through the games services (the games and their logs are kept; their
ids stay on the match and in the audit entry) and is audited as ``tournaments.match.reset``.
Swiss rounds paired after the corrected one stand as paired: changing them is a dispute
ruling, so such a correction needs to be forced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import services as game_services
from tournaments import adapters
from tournaments.core import audit
from tournaments.events import emit, match_data
from tournaments.formats import repair
from tournaments.models import Entrant, Match, Round, Stage, Tournament


@dataclass(frozen=True)
class Plan:
    """What correcting one match changes downstream."""

    resets: tuple[str, ...]  # started matches that now hold a different pair
    refills: tuple[str, ...]  # matches whose entrants move before anything was played
    later_swiss: tuple[str, ...]  # Swiss matches paired after it, which stand as they are

    @property
    def blocking(self) -> tuple[str, ...]:
        """What a correction may only override when forced."""
        return self.resets + self.later_swiss


def held(stage: Stage) -> list[repair.Held]:
    """The stage's matches as the pure repair reads them."""
    return [held_match(match) for match in stage.matches.all()]


def held_match(match: Match) -> repair.Held:
    filled = match.status != Match.Status.PENDING
    return repair.Held(
        code=match.code,
        slots=(match.slots[0], match.slots[1]),
        home=match.home_id,
        away=match.away_id,
        winner=match.winner_id,
        loser=match.loser_id,
        filled=filled,
        decided=match.is_decided,
        started=match.has_started,
        played_if_won_by_slot=match.extra.get("played_if_won_by_slot")
        if match.extra.get("reset")
        else None,
    )


def seeds(stage: Stage) -> dict[int, int | None]:
    """Seed -> entrant id of those taking part, as ``stages.advance`` fills matches."""
    return {seed: entrant.pk for seed, entrant in adapters.seeded_entrants(stage).items()}


def plan(match: Match, winner: Entrant | None) -> Plan:
    """What correcting ``match`` to ``winner`` (``None``: a draw) would change."""
    stage = match.stage
    loser = None if winner is None else (match.away if winner == match.home else match.home)
    fixed = repair.repair(
        held(stage),
        seeds(stage),
        match.code,
        winner.pk if winner else None,
        loser.pk if loser else None,
    )
    later: tuple[str, ...] = ()
    if stage.format == "swiss":
        later = tuple(
            stage.matches.filter(round__number__gt=match.round.number)
            .order_by("round__number", "code")
            .values_list("code", flat=True)
        )
    return Plan(fixed.resets, fixed.refills, later)


def plan_undecided(match: Match) -> Plan:
    """What taking ``match``'s result away (a dispute orders it played again) would change:
    every match it fed that holds an entrant it sent on is reset or refilled."""
    stage = match.stage
    fixed = repair.repair(held(stage), seeds(stage), match.code, None, None, undecided=True)
    later: tuple[str, ...] = ()
    if stage.format == "swiss":
        later = tuple(
            stage.matches.filter(round__number__gt=match.round.number)
            .order_by("round__number", "code")
            .values_list("code", flat=True)
        )
    return Plan(fixed.resets, fixed.refills, later)


def apply(match: Match, fixed: Plan, *, by: Any, reason: str) -> None:
    """Clear what the correction of ``match`` changes; ``stages.advance`` then fills it
    again from the feeders, exactly as when results first came in."""
    stage = match.stage
    tournament = stage.tournament
    codes = fixed.resets + fixed.refills
    if not codes:
        return
    changed = Match.objects.select_for_update().filter(stage=stage, code__in=codes)
    for other in sorted(changed, key=lambda m: repair.bracket_order(m.code)):
        reset = other.code in fixed.resets
        if reset:
            reset_games(other, by=by, reason=reason, corrected=match.code)
        clear(other)
        if reset:
            emit(tournament.pk, "match.reset", **match_data(other), corrected=match.code)
    Round.objects.filter(stage=stage, matches__code__in=codes).update(status=Round.Status.RUNNING)
    if stage.status == Stage.Status.FINISHED:
        stage.status = Stage.Status.RUNNING
        stage.save(update_fields=["status"])
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        audit.log(tournament, by, "tournament.reopened", reason=reason, corrected=match.code)


def reset_games(match: Match, *, by: Any, reason: str, corrected: str) -> list[int]:
    """A reset match's games voided, audited as ``match.reset`` with its result before;
    returns the voided games' ids."""
    previous = audit.result_of(match)
    voided = _void_games(match, by=by, because=corrected)
    audit.log(
        match.stage.tournament,
        by,
        "match.reset",
        reason=reason,
        match=match.code,
        corrected=corrected,
        previous=previous,
        voided_games=voided,
    )
    return voided


def _void_games(match: Match, *, by: Any, because: str) -> list[int]:
    """Void the match's hosted games and detach them: they no longer count for it."""
    links = list(match.match_games.order_by("number"))
    for link in links:
        game_services.game_void(
            game_id=link.game_id,
            reason=f"{match.code} was reset: {because} was corrected",
            by=by,
        )
    voided = [link.game_id for link in links]
    match.match_games.all().delete()
    match.extra = {**match.extra, "voided_games": match.extra.get("voided_games", []) + voided}
    return voided


def clear(match: Match) -> None:
    """The match back to waiting for its entrants (``stages.advance`` fills it again)."""
    match.home = match.away = match.winner = match.loser = None
    match.home_score = match.away_score = 0
    match.result_kind = ""
    match.metrics = {}
    match.status = Match.Status.PENDING
    match.save()
