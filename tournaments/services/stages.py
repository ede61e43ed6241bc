"""A tournament's stage: started from the seeding, advanced by every result.

Brackets open the matches a result decides; a finished round pairs the next one (a Swiss, by
itself or when its organiser starts it); the last finished round finishes the stage and the
tournament.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict
from tournaments import adapters
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs
from tournaments.events import emit, match_data
from tournaments.formats import FormatError
from tournaments.formats.double_elimination import reset_needed
from tournaments.models import Entrant, Match, Round, Stage, Tournament
from tournaments.services.matches import checked_result, decide, open_match

Status = Tournament.Status


def stage_start(*, tournament: Tournament, by: Any) -> Stage:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("this tournament has already started"))
        withdraw_no_shows(tournament, by)
        seeded = adapters.seeded_entrants_for(tournament)
        if len(seeded) < 2:
            raise Conflict(_("at least two seeded entrants are needed; apply a seeding first"))
        stage = Stage.objects.create(
            tournament=tournament,
            number=tournament.stages.count() + 1,
            format=tournament.format,
            options=tournament.format_options,
        )
        try:
            if stage.format == "swiss":
                rounds = tournament.format_options.get("rounds") or math.ceil(
                    math.log2(len(seeded))
                )
                stage.total_rounds = int(rounds)
                stage.save(update_fields=["total_rounds"])
                _pair_swiss_round(stage, 1)
            elif stage.format in adapters.BRACKET_FORMATS:
                _create_bracket(stage, len(seeded))
            else:
                raise TournamentUserError(
                    _("%(format)r tournaments are run as seasons") % {"format": stage.format}
                )
        except FormatError as error:
            raise TournamentUserError(str(error)) from None
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        audit.log(tournament, by, "stage.started", stage=stage.number, entrants=len(seeded))
        emit(tournament.pk, "tournament.started", stage=stage.number, entrants=len(seeded))
        advance(stage)
        return stage


def no_shows(tournament: Tournament) -> list[Entrant]:
    """Who the start would withdraw: registered, not checked in, when check-in was held."""
    if tournament.status != Status.CHECK_IN:
        return []
    registered = tournament.entrants.filter(status=Entrant.Status.REGISTERED)
    return list(registered.order_by("seed", "registered_at", "pk"))


def withdraw_no_shows(tournament: Tournament, by: Any) -> None:
    """At the start, entrants who did not check in (when check-in was held) are out, each
    with an audit entry of their own."""
    for entrant in no_shows(tournament):
        before = {"status": entrant.status, "seed": entrant.seed}
        entrant.status, entrant.seed = Entrant.Status.WITHDRAWN, None
        entrant.save(update_fields=["status", "seed"])
        audit.log(
            tournament,
            by,
            "entrant.no_show_withdrawn",
            target=f"entrant:{entrant.pk}",
            before=before,
            after={"status": entrant.status, "seed": None},
            entrant=entrant.pk,
        )


def _create_bracket(stage: Stage, entrants: int) -> None:
    for bracket in adapters.bracket_structure(stage, entrants):
        for round_data in bracket["rounds"]:
            round_ = Round.objects.create(
                stage=stage, bracket=bracket["name"], number=round_data["number"]
            )
            Match.objects.bulk_create(
                Match(
                    stage=stage,
                    round=round_,
                    code=match["id"],
                    slots=match["slots"],
                    extra={k: v for k, v in match.items() if k not in {"id", "slots", "bye"}},
                    best_of=stage.tournament.best_of,
                )
                for match in round_data["matches"]
            )
    if stage.format == "round_robin":
        stage.rounds.filter(number=1).update(status=Round.Status.RUNNING)
    else:
        stage.rounds.update(status=Round.Status.RUNNING)


def _pair_swiss_round(stage: Stage, number: int) -> None:
    pairing = adapters.swiss_pairings(stage)
    seeds = adapters.seeded_entrants(stage)
    round_ = Round.objects.create(stage=stage, number=number, status=Round.Status.RUNNING)
    for board, pair in enumerate(pairing["pairings"], start=1):
        Match.objects.create(
            stage=stage,
            round=round_,
            code=f"S{number}.{board}",
            slots=[pair["white"], pair["black"]],
            best_of=stage.tournament.best_of,
        )
    if pairing["bye"] is not None:
        Match.objects.create(
            stage=stage,
            round=round_,
            code=f"S{number}.bye",
            slots=[pairing["bye"], None],
            home=seeds[pairing["bye"]],
        )


def advance(stage: Stage) -> None:
    """Fill every match whose entrants are now known, open it, and close finished rounds."""
    seeds = adapters.seeded_entrants(stage)
    progressed = True
    while progressed:
        progressed = False
        by_code = {m.code: m for m in stage.matches.select_related("round")}
        for match in by_code.values():
            if match.status != Match.Status.PENDING or match.round.status != Round.Status.RUNNING:
                continue
            sides = [_resolve_slot(slot, seeds, by_code) for slot in match.slots]
            if any(side is _UNKNOWN for side in sides):
                continue
            progressed = True
            match.home, match.away = sides
            gone = [side for side in sides if side is not None and side.status in ENDED_ENTRIES]
            if match.extra.get("reset") and not _reset_is_played(by_code):
                match.status = Match.Status.CLOSED
                match.save()
            elif match.home is None or match.away is None:
                _close_as_bye(match)
            elif len(gone) == 1:
                _forfeit_to_whoever_remains(match, gone[0])
            else:
                match.status = Match.Status.READY
                match.save()
                open_match(match)
                emit(stage.tournament_id, "match.ready", **match_data(match))
        progressed = _close_rounds(stage) or progressed


_UNKNOWN = object()


def _resolve_slot(slot: Any, seeds: dict[int, Entrant], by_code: dict[str, Match]) -> Any:
    if slot is None:
        return None
    if isinstance(slot, int):
        return seeds.get(slot)  # a seed that withdrew before the start plays as a bye
    code, _sep, outcome = slot.partition(":")
    source = by_code[code]
    if not source.is_decided:
        return _UNKNOWN
    return source.winner if outcome == "winner" else source.loser


def _reset_is_played(by_code: dict[str, Match]) -> bool:
    first_final = by_code["GF1"]
    return reset_needed(1 if first_final.winner_id == first_final.home_id else 2)


# Entries that ended while the tournament ran lose every match they still reach (a disqualified
# double-elimination player drops into the losers' bracket and forfeits there too). Two of them
# meeting is left to the organiser, who decides who (if anyone) goes on.
ENDED_ENTRIES = (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED)


def _forfeit_to_whoever_remains(match: Match, gone: Entrant) -> None:
    remaining = match.away if match.home == gone else match.home
    match.home_score, match.away_score = checked_result(match, remaining, None, None)
    decide(match, Match.ResultKind.FORFEIT, winner=remaining)
    audit.log(
        match.stage.tournament, None, "match.forfeited", match=match.code, winner=remaining.pk
    )


def _close_as_bye(match: Match) -> None:
    present = match.home or match.away
    match.status = Match.Status.CLOSED
    match.result_kind = Match.ResultKind.BYE if present else ""
    match.winner = present
    match.save()


# A Swiss pairs its next round by itself once a round is over (``automatic``), or when its
# organiser starts it (``"pairing": "organiser"`` in the format options).
SWISS_PAIRING = ("automatic", "organiser")


def _pairs_by_hand(stage: Stage) -> bool:
    return stage.format == "swiss" and (stage.options or {}).get("pairing") == "organiser"


def swiss_round_start(*, tournament: Tournament, by: Any) -> Round:
    """Pair and start a Swiss's next round, the last one being over."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        stage = tournament.stages.filter(status=Stage.Status.RUNNING, format="swiss").last()
        if stage is None:
            raise Conflict(_("only a running Swiss tournament starts rounds"))
        if stage.rounds.exclude(status=Round.Status.FINISHED).exists():
            raise Conflict(_("the current round is still being played"))
        number = stage.rounds.count() + 1
        _pair_swiss_round(stage, number)
        audit.log(tournament, by, "round.started", stage=stage.number, round=number)
        advance(stage)
        return stage.rounds.get(number=number)


def _close_rounds(stage: Stage) -> bool:
    """Finish rounds whose matches are all decided; open or pair the next; finish the stage."""
    changed = False
    for round_ in stage.rounds.filter(status=Round.Status.RUNNING):
        if round_.matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.CLOSED]).exists():
            continue
        round_.status = Round.Status.FINISHED
        round_.save(update_fields=["status"])
        changed = True
        if stage.format == "round_robin":
            stage.rounds.filter(number=round_.number + 1).update(status=Round.Status.RUNNING)
        elif (
            stage.format == "swiss"
            and round_.number < (stage.total_rounds or 0)
            and not _pairs_by_hand(stage)
        ):
            _pair_swiss_round(stage, round_.number + 1)
    unpaired = stage.format == "swiss" and stage.rounds.count() < (stage.total_rounds or 0)
    if not unpaired and not stage.rounds.exclude(status=Round.Status.FINISHED).exists():
        _finish_stage(stage)
    return changed


def _finish_stage(stage: Stage) -> None:
    if stage.status == Stage.Status.FINISHED:
        return
    stage.status = Stage.Status.FINISHED
    stage.save(update_fields=["status"])
    tournament = stage.tournament
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    audit.log(tournament, None, "tournament.finished", stage=stage.number)
    emit(tournament.pk, "tournament.finished", stage=stage.number)
