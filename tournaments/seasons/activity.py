"""Activity checks: before an episode the players still in check in by a cut-off; at the
cut-off the season's policy (``SeasonRules.no_show``) is applied to each who did not, by a
Celery task (``tournaments.apply_activity_check``, armed when the check opens, with a beat
sweep as its safety net), and audited.

- ``warning``: the no-show is warned (recorded on the check and in the audit log);
- ``fine``: they pay ``no_show_fine`` garnets (at most what they hold) as a ledger ``spend``;
- ``eliminate``: they leave the season (withdrawn: no Death Match eliminated them);
- ``replace``: the first waitlisted player takes their place and seed; with nobody waiting
  the no-show is warned.

Leaving or replacing happens only while the episode's main match has not been decided; after
that the no-show is warned instead (the cast of a decided main match cannot change).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from hosting.core import scheduling
from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs
from tournaments.formats import genius, ledger
from tournaments.models import ActivityCheck, ActivityCheckIn, Entrant, Episode, Tournament
from tournaments.seasons import services as seasons

TASK = "tournaments.apply_activity_check"


def open_check(*, tournament: Tournament, by: Any, cutoff: datetime) -> ActivityCheck:
    """A host opens the check for the current episode, due at ``cutoff``."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.format != genius.KEY or tournament.status != Tournament.Status.RUNNING:
            raise Conflict(_("activity checks are held while a season runs"))
        if cutoff <= timezone.now():
            raise TournamentUserError(_("the deadline must be in the future"))
        episode = tournament.episodes.order_by("-number").first()
        if episode is None or episode.kind != Episode.Kind.EPISODE:
            raise Conflict(_("activity checks are held before an episode, not the final"))
        if tournament.activity_checks.filter(status=ActivityCheck.Status.OPEN).exists():
            raise Conflict(_("an activity check is already open"))
        rules = seasons.rules_for(tournament)
        check = ActivityCheck.objects.create(
            tournament=tournament,
            episode=episode.number,
            cutoff=cutoff,
            policy=rules.no_show,
            fine=rules.no_show_fine,
        )
        audit.log(
            tournament,
            by,
            "season.activity.opened",
            check=check.pk,
            episode=episode.number,
            policy=check.policy,
            cutoff=cutoff.isoformat(),
        )
        pk, when = check.pk, cutoff.timestamp()
        transaction.on_commit(lambda: scheduling.schedule(TASK, when, check_id=pk))
        return check


def check_in(*, check: ActivityCheck, by: Any, entrant: Entrant) -> ActivityCheckIn:
    with transaction.atomic():
        tournament = lock_tournament(check.tournament)
        check = ActivityCheck.objects.select_for_update().get(pk=check.pk)
        if getattr(by, "pk", None) != entrant.user_id or entrant.tournament_id != tournament.pk:
            raise Forbidden(_("players check in for themselves"))
        if check.status != ActivityCheck.Status.OPEN or timezone.now() > check.cutoff:
            raise Conflict(_("the activity check's cut-off has passed"))
        if entrant.pk not in seasons.season_for(tournament).players:
            raise Conflict(_("only players still in the season take part"))
        done, _created = ActivityCheckIn.objects.get_or_create(
            activity_check=check, entrant=entrant
        )
        return done


def apply_due() -> int:
    """The beat sweep: apply every open check whose cut-off has passed."""
    due = ActivityCheck.objects.filter(
        status=ActivityCheck.Status.OPEN, cutoff__lte=timezone.now()
    ).values_list("pk", flat=True)
    return sum(1 for pk in list(due) if apply(check_id=pk))


def apply(*, check_id: int) -> bool:
    """Apply the policy to the no-shows, once; a task delivered twice or early does nothing."""
    with transaction.atomic():
        check = ActivityCheck.objects.filter(pk=check_id).first()
        if check is None:
            return False
        tournament = lock_tournament(check.tournament)
        check = ActivityCheck.objects.select_for_update().get(pk=check_id)
        if check.status != ActivityCheck.Status.OPEN or timezone.now() < check.cutoff:
            return False
        checked = set(check.check_ins.values_list("entrant_id", flat=True))
        no_shows = [p for p in seasons.season_for(tournament).players if p not in checked]
        episode = tournament.episodes.get(number=check.episode)
        cast_may_change = episode.status == Episode.Status.MAIN_MATCH and not episode.winners
        outcome = {}
        for player in no_shows:
            outcome[str(player)] = _apply_one(tournament, check, player, cast_may_change)
        check.status = ActivityCheck.Status.APPLIED
        check.applied_at = timezone.now()
        check.outcome = outcome
        check.save(update_fields=["status", "applied_at", "outcome"])
        audit.log(tournament, None, "season.activity.applied", check=check.pk, no_shows=no_shows)
        return True


def _apply_one(tournament: Tournament, check: ActivityCheck, player: int, may_change: bool) -> str:
    policy = check.policy
    if policy == "fine":
        rules = seasons.rules_for(tournament)
        before = seasons.ledger_for(tournament)
        amount = min(check.fine, ledger.balance(before, player, rules.currency))
        if amount <= 0:
            return _warn(tournament, check, player)
        after = ledger.spend(
            before,
            player,
            amount,
            _("missed the activity check"),
            currency=rules.currency,
            episode=check.episode,
        )
        seasons.append_ledger(tournament, before, after)
        audit.log(tournament, None, "season.activity.fined", entrant=player, amount=amount)
        return f"fined {amount}"
    if policy == "eliminate" and may_change:
        _withdraw(tournament, player, check)
        return "eliminated"
    if policy == "replace" and may_change:
        waiting = (
            tournament.entrants.filter(status=Entrant.Status.WAITLISTED)
            .order_by("registered_at", "pk")
            .first()
        )
        if waiting is not None:
            seed = _withdraw(tournament, player, check)
            waiting.status, waiting.seed = Entrant.Status.REGISTERED, seed
            waiting.save(update_fields=["status", "seed"])
            audit.log(
                tournament,
                None,
                "season.activity.replaced",
                entrant=waiting.pk,
                replaced=player,
                check=check.pk,
            )
            return f"replaced by {waiting.pk}"
    return _warn(tournament, check, player)


def _warn(tournament: Tournament, check: ActivityCheck, player: int) -> str:
    audit.log(tournament, None, "season.activity.warned", entrant=player, check=check.pk)
    return "warned"


def _withdraw(tournament: Tournament, player: int, check: ActivityCheck) -> int | None:
    entrant = Entrant.objects.get(pk=player)
    seed = entrant.seed
    entrant.status = Entrant.Status.WITHDRAWN
    entrant.save(update_fields=["status"])
    audit.log(tournament, None, "season.activity.removed", entrant=player, check=check.pk)
    return seed
