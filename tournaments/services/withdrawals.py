"""An entry ended early: withdrawn (by the player, or for them by whoever runs the
tournament) or disqualified, what that costs (``consequence``), and its undo while that is safe.

Once the tournament runs, an ended entry loses at once, by forfeit, every match it is playing
or about to play (its opponent goes on, the bracket and standings show it out), and every
later match it still reaches (``stages.advance``). Before the start its place goes to the
first on the waitlist. Whoever runs the tournament names a reason, which goes to the audit
with the forfeited matches.

The undo (``entrant_reinstate``) clears those forfeits and puts the entrant back in the
matches they held, as long as nothing played since depends on them: no match they fed has
started (its opponent's next match) and no later round was paired or played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.formats import repair
from tournaments.models import AuditEntry, Entrant, Match, Round, Stage, Tournament
from tournaments.services import corrections
from tournaments.services.registration import waiting_list
from tournaments.services.results import match_report_result
from tournaments.services.stages import advance

Status = Tournament.Status
ENDED = (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED)
HELD_PLACE = (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN)
OPEN = (Match.Status.READY, Match.Status.LIVE)
# Formats where an entry that ended still had matches ahead of it, forfeited as they come.
LATER_MATCHES = ("double_elimination", "round_robin", "swiss")


@dataclass(frozen=True)
class Forfeit:
    """A match the entry loses by forfeit: its code and the opponent who goes on."""

    code: str
    opponent: str
    live: bool  # a game is under way: it is voided (and kept in the log)


@dataclass(frozen=True)
class Consequence:
    """What ending an entry now would do, for the confirmation that names it."""

    entrant: str
    forfeits: tuple[Forfeit, ...]
    later_matches: bool  # further matches they would reach are forfeited as they come
    promoted: str | None  # before the start: who takes the place from the waitlist
    running: bool


def _open_matches(tournament: Tournament, entrant: Entrant) -> list[Match]:
    matches = Match.objects.filter(stage__tournament=tournament, status__in=OPEN).filter(
        models.Q(home=entrant) | models.Q(away=entrant)
    )
    return sorted(
        matches.select_related("home", "away", "stage", "round"),
        key=lambda m: repair.bracket_order(m.code),
    )


def consequence(*, entrant: Entrant, by: Any) -> Consequence:
    """What withdrawing or disqualifying ``entrant`` would change, changing nothing."""
    tournament = entrant.tournament
    check_runs(tournament, by)
    if entrant.status in ENDED:
        raise Conflict(_("this entry has already ended"))
    running = tournament.status == Status.RUNNING
    forfeits = tuple(
        Forfeit(
            code=match.code,
            opponent=(match.away if match.home_id == entrant.pk else match.home).display_name,
            live=match.status == Match.Status.LIVE,
        )
        for match in (_open_matches(tournament, entrant) if running else [])
    )
    promoted = None
    before_start = tournament.status in (Status.REGISTRATION, Status.CHECK_IN)
    if entrant.status in HELD_PLACE and before_start:
        first = waiting_list(tournament).first()
        promoted = first.display_name if first else None
    return Consequence(
        entrant=entrant.display_name,
        forfeits=forfeits,
        later_matches=running and tournament.format in LATER_MATCHES,
        promoted=promoted,
        running=running,
    )


def entrant_withdraw(*, entrant: Entrant, by: Any, reason: str = "") -> list[str]:
    """Withdraw (a player themselves, or whoever runs the tournament for them, with a reason
    once it runs); returns the codes of the matches forfeited."""
    return _end(entrant, by, Entrant.Status.WITHDRAWN, reason)


def entrant_disqualify(*, entrant: Entrant, by: Any, reason: str) -> list[str]:
    """Whoever runs the tournament disqualifies an entrant, always with a reason; returns the
    codes of the matches forfeited."""
    if not reason.strip():
        raise TournamentUserError(_("a disqualification needs a reason"))
    return _end(entrant, by, Entrant.Status.DISQUALIFIED, reason)


def _end(entrant: Entrant, by: Any, status: str, reason: str) -> list[str]:
    with transaction.atomic():
        tournament = lock_tournament(entrant.tournament)
        entrant.refresh_from_db()
        own = by is not None and by == entrant.user and status == Entrant.Status.WITHDRAWN
        if not own:
            check_runs(tournament, by)
        if entrant.status in ENDED:
            raise Conflict(_("this entry has already ended"))
        running = tournament.status == Status.RUNNING
        if running and not own and not reason.strip():
            raise TournamentUserError(
                _("withdrawing %(name)s from a running tournament needs a reason")
                % {"name": entrant.display_name}
            )
        held_status = entrant.status
        entrant.status = status
        entrant.save(update_fields=["status"])
        opened = _open_matches(tournament, entrant) if running else []
        audit.log(
            tournament,
            by,
            f"entrant.{status}",
            reason=reason,
            target=f"entrant:{entrant.pk}",
            before={"status": held_status},
            after={"status": status},
            entrant=entrant.pk,
            forfeited=[match.code for match in opened],
        )
        before_start = tournament.status in (Status.REGISTRATION, Status.CHECK_IN)
        if held_status in HELD_PLACE and before_start:
            promoted = waiting_list(tournament).first()
            if promoted is not None:
                promoted.status = Entrant.Status.REGISTERED
                promoted.save(update_fields=["status"])
                audit.log(tournament, None, "entrant.promoted", entrant=promoted.pk)
        # A player leaving by themselves is not an organiser: the forfeit is the system's.
        forfeiting = by if runs(tournament, by) else None
        for match in opened:
            opponent = match.away if match.home_id == entrant.pk else match.home
            match_report_result(
                match=match, by=forfeiting, winner=opponent, forfeit=True, reason=reason
            )
        return [match.code for match in opened]


def _ending(entrant: Entrant) -> AuditEntry | None:
    """The audit entry that ended the entry (the latest withdrawal or disqualification)."""
    return (
        AuditEntry.objects.filter(
            tournament_id=entrant.tournament_id,
            target=f"entrant:{entrant.pk}",
            action__in=["tournaments.entrant.withdrawn", "tournaments.entrant.disqualified"],
        )
        .order_by("-at", "-pk")
        .first()
    )


def forfeited_since(entrant: Entrant) -> list[Match]:
    """The matches the entry lost by forfeit since it ended, latest in the bracket first."""
    ended = _ending(entrant)
    if ended is None:
        return []
    lost = Match.objects.filter(
        stage__tournament_id=entrant.tournament_id,
        status=Match.Status.FINISHED,
        result_kind=Match.ResultKind.FORFEIT,
        loser=entrant,
        updated__gte=ended.at,
    ).select_related("stage", "round", "home", "away")
    return sorted(lost, key=lambda m: repair.bracket_order(m.code), reverse=True)


def undo_blockers(entrant: Entrant) -> list[str]:
    """The matches that keep the entry from being put back: played (or started) since,
    depending on its forfeits. Empty when the undo is safe."""
    if entrant.status not in ENDED:
        return []
    tournament = entrant.tournament
    if tournament.status not in (Status.RUNNING, Status.FINISHED):
        return []
    forfeited = forfeited_since(entrant)
    codes = {match.code for match in forfeited}
    blockers: list[str] = []
    for match in forfeited:
        plan = corrections.plan_undecided(match)
        blockers += [code for code in plan.resets + plan.later_swiss if code not in codes]
        if match.stage.format == "round_robin":
            later = match.stage.matches.filter(
                round__number__gt=match.round.number,
                status__in=[Match.Status.LIVE, Match.Status.FINISHED],
            )
            blockers += list(later.values_list("code", flat=True))
    return sorted(set(blockers), key=repair.bracket_order)


def entrant_reinstate(*, entrant: Entrant, by: Any, reason: str) -> Entrant:
    """Undo a withdrawal or disqualification: the forfeits since are cleared and the entrant
    plays those matches again, unless a match played since depends on them (then refused,
    naming it). Before the start the entry takes a free place, else the waitlist."""
    if not reason.strip():
        raise TournamentUserError(_("undoing a withdrawal needs a reason"))
    with transaction.atomic():
        tournament = lock_tournament(entrant.tournament)
        check_runs(tournament, by)
        entrant.refresh_from_db()
        if entrant.status not in ENDED:
            raise Conflict(_("%(name)s is still taking part") % {"name": entrant.display_name})
        ended = _ending(entrant)
        held = (ended.before or {}).get("status") if ended else None
        if tournament.status in (Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN):
            taken = tournament.entrants.filter(status__in=HELD_PLACE).count()
            full = tournament.capacity is not None and taken >= tournament.capacity
            restored = Entrant.Status.WAITLISTED if full else Entrant.Status.REGISTERED
            _restore(tournament, entrant, by, reason, restored, [])
            return entrant
        if entrant.seed is None:
            raise Conflict(
                _("%(name)s left before the start: the bracket has no place for them")
                % {"name": entrant.display_name}
            )
        blockers = undo_blockers(entrant)
        if blockers:
            raise Conflict(
                _("%(matches)s already started: the withdrawal can no longer be undone")
                % {"matches": ", ".join(blockers)}
            )
        forfeited = forfeited_since(entrant)
        restored = held if held in HELD_PLACE else Entrant.Status.CHECKED_IN
        _restore(tournament, entrant, by, reason, restored, [m.code for m in forfeited])
        stages: dict[int, Stage] = {}
        for match in forfeited:  # latest first: each clears what only it had fed
            corrections.apply(match, corrections.plan_undecided(match), by=by, reason=reason)
            corrections.clear(match)
            Round.objects.filter(pk=match.round_id).update(status=Round.Status.RUNNING)
            stages[match.stage_id] = match.stage
        for stage in stages.values():
            Stage.objects.filter(pk=stage.pk).update(status=Stage.Status.RUNNING)
            stage.refresh_from_db()
            advance(stage)
        if tournament.status == Status.FINISHED:
            tournament.status = Status.RUNNING
            tournament.save(update_fields=["status"])
        return entrant


def _restore(
    tournament: Tournament, entrant: Entrant, by: Any, reason: str, status: str, cleared: list
) -> None:
    before = entrant.status
    entrant.status = status
    entrant.save(update_fields=["status"])
    audit.log(
        tournament,
        by,
        "entrant.reinstated",
        reason=reason,
        target=f"entrant:{entrant.pk}",
        before={"status": before},
        after={"status": status},
        entrant=entrant.pk,
        cleared=cleared,
    )
