"""Agreeing a slot for a live match, step by step, each audited:

1. ``slot_open``: the organiser opens a window for a match (a Death Match, or any match it
   marks "scheduled by players") and chooses the default rule and the no-show minutes.
2. ``slot_propose``: either player proposes a time inside the window (entered in their own
   zone: the page reads it in the active zone); the other is told.
3. ``slot_accept``: the other player accepts one: the slot is agreed; both are told, it goes
   to both calendars (``tournaments.calendars``) and reminders (1 h and 10 min before).
4. No agreement by the window's end (``slots_settle``, from beat's sweep): the default rule
   — the match starts at the window's end, or the organiser picks (``slot_set``).
5. ``slot_check_in`` from 15 minutes before the slot; a player not checked in
   ``no_show_minutes`` after it forfeits to one who is (``slots_settle``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from notifications import clock
from notifications import services as notices
from notifications.models import Kind
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.models import Entrant, Match
from tournaments.notices import match_about
from tournaments.scheduling.models import MatchSlot, SlotProposal
from tournaments.services.results import match_report_result

CHECK_IN_BEFORE = timedelta(minutes=15)
MAX_PROPOSALS = 10  # per player and match


def _side(match: Match, user: Any) -> Entrant:
    for entrant in (match.home, match.away):
        if (
            entrant is not None
            and user.is_authenticated
            and user.pk
            in (
                entrant.user_id,
                entrant.partner_id,
            )
        ):
            return entrant
    raise TournamentUserError(_("only the match's players may schedule it"))


def _other(match: Match, entrant: Entrant) -> Entrant | None:
    return match.away if entrant.pk == match.home_id else match.home


def _users(*entrants: Entrant | None) -> list[Any]:
    return [e.user for e in entrants if e is not None]


def _locked(match: Match) -> MatchSlot:
    slot = MatchSlot.objects.select_for_update().filter(match=match).first()
    if slot is None:
        raise TournamentUserError(_("this match is not scheduled by its players"))
    return slot


def slot_open(
    *,
    match: Match,
    by: Any,
    window_opens: datetime,
    window_closes: datetime,
    default_rule: str = MatchSlot.DefaultRule.WINDOW_END,
    no_show_minutes: int = 10,
) -> MatchSlot:
    if window_closes <= window_opens:
        raise TournamentUserError(_("the window must close after it opens"))
    if default_rule not in MatchSlot.DefaultRule.values:
        raise TournamentUserError(_("unknown default rule %(rule)r") % {"rule": default_rule})
    if not 0 < no_show_minutes <= 120:
        raise TournamentUserError(_("the no-show wait is between 1 and 120 minutes"))
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        check_runs(tournament, by)
        if match.is_decided:
            raise TournamentUserError(_("this match is already decided"))
        slot, _created = MatchSlot.objects.update_or_create(
            match=match,
            defaults={
                "window_opens": window_opens,
                "window_closes": window_closes,
                "default_rule": default_rule,
                "no_show_minutes": no_show_minutes,
                "created_by": by,
            },
        )
        audit.record(
            by,
            "tournaments.slot.opened",
            tournament=tournament,
            target=match.code,
            match=match.code,
            after={
                "opens": window_opens.isoformat(),
                "closes": window_closes.isoformat(),
                "rule": default_rule,
                "no_show_minutes": no_show_minutes,
            },
        )
    return slot


def slot_propose(*, match: Match, by: Any, at: datetime) -> SlotProposal:
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        slot = _locked(match)
        entrant = _side(match, by)
        if slot.at is not None:
            raise TournamentUserError(_("the time is already agreed"))
        if not slot.window_opens <= at <= slot.window_closes:
            raise TournamentUserError(_("propose a time inside the window"))
        if at <= clock.moment():
            raise TournamentUserError(_("propose a time in the future"))
        if slot.proposals.filter(by=entrant).count() >= MAX_PROPOSALS:
            raise TournamentUserError(_("you have proposed enough times; wait for an answer"))
        proposal, created = SlotProposal.objects.get_or_create(slot=slot, by=entrant, at=at)
        if created:
            audit.record(
                by,
                "tournaments.slot.proposed",
                tournament=tournament,
                target=match.code,
                match=match.code,
                entrant=entrant.pk,
                at=at.isoformat(),
            )
            about = _slot_about(match)
            for user in _users(_other(match, entrant)):
                notices.notify(user, Kind.SLOT_PROPOSED, about, at)
    return proposal


def _slot_about(match: Match, key: str | None = None) -> notices.About:
    """A notice about a match's time leads to the page where it is agreed."""
    about = match_about(match)
    url = reverse("match-slot", args=[match.stage.tournament.slug, match.code])
    return notices.About(
        key=key or about.key, label=about.label, url=url, tournament_id=about.tournament_id
    )


def _agree(slot: MatchSlot, at: datetime, how: str) -> None:
    slot.at = at
    slot.how = how
    slot.save(update_fields=["at", "how"])
    match = slot.match
    about = _slot_about(match, key=f"slot:{slot.pk}")
    for user in _users(match.home, match.away):
        notices.notify(user, Kind.SLOT_AGREED, about, at)
        notices.remind(user, Kind.DEADLINE_1H, about, at, before=timedelta(hours=1))
        notices.remind(user, Kind.DEADLINE_10M, about, at, before=timedelta(minutes=10))


def slot_accept(*, proposal_id: int, by: Any) -> MatchSlot:
    with transaction.atomic():
        proposal = (
            SlotProposal.objects.select_related("slot__match__stage__tournament")
            .filter(pk=proposal_id)
            .first()
        )
        if proposal is None:
            raise TournamentUserError(_("no such proposal"))
        match = proposal.slot.match
        tournament = lock_tournament(match.stage.tournament)
        slot = _locked(match)
        entrant = _side(match, by)
        if proposal.by_id == entrant.pk:
            raise TournamentUserError(_("your opponent accepts your proposal, not you"))
        if slot.at is not None:
            raise TournamentUserError(_("the time is already agreed"))
        if proposal.at <= clock.moment():
            raise TournamentUserError(_("that time has passed; propose another"))
        proposal.accepted = True
        proposal.save(update_fields=["accepted"])
        _agree(slot, proposal.at, MatchSlot.How.PLAYERS)
        audit.record(
            by,
            "tournaments.slot.agreed",
            tournament=tournament,
            target=match.code,
            match=match.code,
            entrant=entrant.pk,
            at=proposal.at.isoformat(),
        )
    return slot


def slot_set(*, match: Match, by: Any, at: datetime) -> MatchSlot:
    """The organiser sets the time (the default rule "organiser picks", or a change)."""
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        check_runs(tournament, by)
        slot = _locked(match)
        notices.cancel_reminders(f"slot:{slot.pk}")
        _agree(slot, at, MatchSlot.How.ORGANISER)
        audit.record(
            by,
            "tournaments.slot.set",
            tournament=tournament,
            target=match.code,
            match=match.code,
            at=at.isoformat(),
        )
    return slot


def slot_check_in(*, match: Match, by: Any) -> MatchSlot:
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        slot = _locked(match)
        entrant = _side(match, by)
        moment = clock.moment()
        if slot.at is None:
            raise TournamentUserError(_("the time is not agreed yet"))
        if moment < slot.at - CHECK_IN_BEFORE:
            raise TournamentUserError(_("check-in opens 15 minutes before the match"))
        if moment > slot.at + timedelta(minutes=slot.no_show_minutes):
            raise TournamentUserError(_("check-in has closed"))
        field = "home_checked_in_at" if entrant.pk == match.home_id else "away_checked_in_at"
        if getattr(slot, field) is None:
            setattr(slot, field, moment)
            slot.save(update_fields=[field])
            audit.record(
                by,
                "tournaments.slot.checked_in",
                tournament=tournament,
                target=match.code,
                match=match.code,
                entrant=entrant.pk,
            )
    return slot


def slots_settle() -> int:
    """Beat's sweep: windows that closed without agreement fall to their default rule; a
    player not checked in ``no_show_minutes`` after the slot forfeits to one who is.
    Returns how many slots it settled."""
    moment = clock.moment()
    settled = 0
    for slot in MatchSlot.objects.filter(
        at__isnull=True,
        window_closes__lte=moment,
        default_rule=MatchSlot.DefaultRule.WINDOW_END,
    ).select_related("match__stage__tournament", "match__home__user", "match__away__user"):
        with transaction.atomic():
            locked = _locked(slot.match)
            if locked.at is None:
                _agree(locked, locked.window_closes, MatchSlot.How.WINDOW_END)
                audit.record(
                    None,
                    "tournaments.slot.defaulted",
                    tournament=slot.match.stage.tournament,
                    target=slot.match.code,
                    match=slot.match.code,
                    at=locked.window_closes.isoformat(),
                )
                settled += 1
    due = MatchSlot.objects.filter(at__isnull=False, no_show_settled=False).select_related(
        "match__stage__tournament", "match__home", "match__away"
    )
    for slot in due:
        if moment < slot.at + timedelta(minutes=slot.no_show_minutes):
            continue
        match = slot.match
        home, away = slot.home_checked_in_at is not None, slot.away_checked_in_at is not None
        with transaction.atomic():
            locked = _locked(match)
            if locked.no_show_settled:
                continue
            locked.no_show_settled = True
            locked.save(update_fields=["no_show_settled"])
            if home != away and not match.is_decided:
                winner = match.home if home else match.away
                organiser = match.stage.tournament.organiser
                match_report_result(
                    match=match,
                    by=organiser,
                    winner=winner,
                    forfeit=True,
                    reason=_("no-show at the agreed time"),
                )
                audit.record(
                    None,
                    "tournaments.slot.no_show",
                    tournament=match.stage.tournament,
                    target=match.code,
                    match=match.code,
                    winner=winner.pk,
                )
                settled += 1
    return settled


def may_manage(match: Match, user: Any) -> bool:
    return runs(match.stage.tournament, user)
