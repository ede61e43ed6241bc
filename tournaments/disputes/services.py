"""Disputes: a party (or the organiser) contests a game or a match result; a staff admin rules.

The write paths, each in one transaction with the tournament row locked, each audited
(``disputes.<step>``, target ``dispute:<id>``) and, for filing and ruling, told to the
webhooks (``tournaments.events``) and to the parties by e-mail once committed:

- ``dispute_file``: a party or the organiser, while the game runs or within the tournament's
  window after the result; it may pause the game's clocks where the tournament allows it.
- ``dispute_withdraw``: the filer, until a staff admin takes it.
- ``dispute_assign``: a staff admin takes it or gives it to another staff admin.
- ``dispute_comment``: a party's statement, an organiser's or an admin's comment.
- ``dispute_resume``: a staff admin lets a paused game run on.
- ``dispute_preview`` / ``dispute_rule``: what a ruling would reset downstream, then the
  ruling itself, applying exactly the resets the preview listed.

Who may read a dispute: ``can_see``; who rules: staff admins only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.models import GameSession
from hosting.core.errors import Conflict, Forbidden, NotFound, UserError
from hosting.core.roles import is_staff_admin
from tournaments import events, services
from tournaments.core import audit
from tournaments.core.permissions import runs
from tournaments.disputes import games as dispute_games
from tournaments.models import Dispute, DisputeComment, Entrant, Match, Tournament
from tournaments.seasons import rulings as season_rulings
from tournaments.services import corrections

Ruling = Dispute.Ruling
# Rulings that change the match, and so may reset what it feeds: each is previewed first.
RESULT_RULINGS = (Ruling.OVERTURN, Ruling.FORFEIT, Ruling.REPLAY, Ruling.REWIND)


class DisputeError(UserError):
    pass


# -- who is who -------------------------------------------------------------------------------


def party_of(match: Match, user: Any) -> Entrant | None:
    """The match's entrant ``user`` plays for (a team's partner included), if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    for entrant in (match.home, match.away):
        if entrant is not None and user.pk in (entrant.user_id, entrant.partner_id):
            return entrant
    return None


def can_see(dispute: Dispute, user: Any) -> bool:
    """Staff admins, the tournament's organiser and the match's parties."""
    return runs(dispute.tournament, user) or party_of(dispute.match, user) is not None


def visible_to(user: Any, *, staff: bool | None = None) -> QuerySet[Dispute]:
    """The disputes ``user`` may read: every one for staff admins, their tournaments' for
    organisers, those on their own matches for players. ``staff``: whether the user is a
    staff admin, when the caller already knows."""
    disputes = Dispute.objects.select_related(
        "tournament", "match", "filed_by", "assignee", "match__home", "match__away"
    )
    if not getattr(user, "is_authenticated", False):
        return disputes.none()
    if is_staff_admin(user) if staff is None else staff:
        return disputes
    mine = Q(match__home__user=user) | Q(match__away__user=user)
    mine |= Q(match__home__partner=user) | Q(match__away__partner=user)
    return disputes.filter(Q(tournament__organiser=user) | mine)


def get_visible(dispute_id: int, user: Any) -> Dispute:
    dispute = visible_to(user).filter(pk=dispute_id).first()
    if dispute is None:
        raise NotFound(_("no dispute %(id)s") % {"id": dispute_id})
    return dispute


FILTERS = ("status", "tournament", "assignee", "mine")


def filtered(found: QuerySet[Dispute], params: Any) -> QuerySet[Dispute]:
    """The queue's filters: ``status`` (``pending``: open or assigned), ``tournament``
    (slug), ``assignee`` (username, or ``none``), ``mine`` (filed by the reader)."""
    status = (params.get("status") or "").strip()
    if status == "pending":
        found = found.filter(status__in=[Dispute.Status.OPEN, Dispute.Status.ASSIGNED])
    elif status:
        if status not in Dispute.Status.values:
            raise DisputeError(
                _("status is one of: %(statuses)s")
                % {"statuses": ", ".join(["pending", *Dispute.Status.values])}
            )
        found = found.filter(status=status)
    if slug := (params.get("tournament") or "").strip():
        found = found.filter(tournament__slug=slug)
    assignee = (params.get("assignee") or "").strip()
    if assignee == "none":
        found = found.filter(assignee__isnull=True)
    elif assignee:
        field = get_user_model().USERNAME_FIELD
        found = found.filter(**{f"assignee__{field}": assignee})
    return found


def staff_named(username: str) -> Any:
    """The staff admin of that username (``None`` for a blank one: the one asking)."""
    if not username.strip():
        return None
    field = get_user_model().USERNAME_FIELD
    person = get_user_model().objects.filter(**{field: username.strip()}).first()
    if person is None or not is_staff_admin(person):
        raise DisputeError(_("disputes are assigned to staff admins"))
    return person


def _check_staff(user: Any) -> None:
    if not is_staff_admin(user):
        raise Forbidden(_("only staff admins do that"))


# -- filing -----------------------------------------------------------------------------------


def dispute_file(
    *,
    match: Match,
    by: Any,
    reason: str,
    game: GameSession | None = None,
    moves: Iterable[int] = (),
    evidence: str = "",
    pause: bool = False,
) -> Dispute:
    """File a dispute on ``match`` (on one of its games, by default its latest)."""
    if not reason.strip():
        raise DisputeError(_("a dispute needs a reason"))
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=match.stage.tournament_id)
        match = Match.objects.select_related("home", "away", "stage").get(pk=match.pk)
        if party_of(match, by) is None and by.pk != tournament.organiser_id:
            raise Forbidden(_("only the match's players and its organiser file disputes on it"))
        links = {link.game_id: link for link in match.match_games.select_related("game")}
        if game is None and links:
            game = max(links.values(), key=lambda link: link.number).game
        if game is not None and game.pk not in links:
            raise DisputeError(_("game %(game)s is not one of this match's") % {"game": game.pk})
        if game is not None:
            game = GameSession.objects.get(pk=game.pk)
        _check_window(tournament, match, game)
        moves = _checked_moves(game, moves)
        if pause and not tournament.dispute_pauses_clocks:
            raise DisputeError(_("this tournament does not pause games for disputes"))
        if pause and (game is None or not game.is_running):
            raise Conflict(_("only a running game can be paused"))
        if Dispute.objects.filter(
            match=match, filed_by=by, status__in=[Dispute.Status.OPEN, Dispute.Status.ASSIGNED]
        ).exists():
            raise Conflict(_("you already have a dispute open on this match"))
        dispute = Dispute.objects.create(
            tournament=tournament,
            match=match,
            game=game,
            filed_by=by,
            reason=reason.strip(),
            moves=moves,
            evidence=evidence.strip(),
        )
        _audit(dispute, by, "filed", reason=dispute.reason, after=_state(dispute), moves=moves)
        if pause:
            _pause(dispute, by)
        events.emit(tournament.pk, "dispute.filed", dispute=dispute.pk, match=match.code)
        _notify(dispute, "filed")
        return dispute


def _check_window(tournament: Tournament, match: Match, game: GameSession | None) -> None:
    """Open while the match (or the game) is being played, then for the tournament's window
    after its result."""
    if match.status in (Match.Status.READY, Match.Status.LIVE):
        return
    if game is not None and game.is_running:
        return
    if match.status == Match.Status.PENDING:
        raise Conflict(_("this match has not been played yet"))
    decided = max([match.updated, *([game.finished] if game is not None and game.finished else [])])
    if timezone.now() > decided + timedelta(hours=tournament.dispute_window_hours):
        raise Conflict(
            _("disputes on this result closed %(hours)s hours after it")
            % {"hours": tournament.dispute_window_hours}
        )


def _checked_moves(game: GameSession | None, moves: Iterable[int]) -> list[int]:
    picked = sorted(set(moves))
    if not picked:
        return []
    if game is None:
        raise DisputeError(_("moves are picked from a game's log; this match has no game"))
    wrong = [seq for seq in picked if not isinstance(seq, int) or not 1 <= seq <= game.version]
    if wrong:
        raise DisputeError(
            _("the log has moves 1 to %(last)s; %(wrong)s is not one of them")
            % {"last": game.version, "wrong": wrong[0]}
        )
    return picked


# -- before a ruling --------------------------------------------------------------------------


def dispute_withdraw(*, dispute: Dispute, by: Any) -> Dispute:
    with transaction.atomic():
        dispute = _locked(dispute)
        if by.pk != dispute.filed_by_id:
            raise Forbidden(_("only the one who filed a dispute withdraws it"))
        if dispute.status != Dispute.Status.OPEN:
            raise Conflict(_("a dispute can be withdrawn only until an admin takes it"))
        before = _state(dispute)
        dispute.status = Dispute.Status.WITHDRAWN
        dispute.save(update_fields=["status"])
        _resume_if_paused(dispute, by, _("the dispute was withdrawn"))
        _audit(dispute, by, "withdrawn", before=before, after=_state(dispute))
        return dispute


def dispute_assign(*, dispute: Dispute, by: Any, assignee: Any = None) -> Dispute:
    """A staff admin takes the dispute (``assignee`` ``None``) or gives it to another."""
    _check_staff(by)
    assignee = assignee or by
    if not is_staff_admin(assignee):
        raise DisputeError(_("disputes are assigned to staff admins"))
    with transaction.atomic():
        dispute = _locked(dispute)
        if not dispute.is_pending:
            raise Conflict(_("this dispute is already closed"))
        before = _state(dispute)
        dispute.status = Dispute.Status.ASSIGNED
        dispute.assignee = assignee
        dispute.assigned_at = timezone.now()
        dispute.save(update_fields=["status", "assignee", "assigned_at"])
        _audit(dispute, by, "assigned", before=before, after=_state(dispute))
        return dispute


def dispute_comment(*, dispute: Dispute, by: Any, text: str) -> DisputeComment:
    """A party's statement, or a comment by the organiser or a staff admin."""
    if not text.strip():
        raise DisputeError(_("a comment needs some text"))
    with transaction.atomic():
        dispute = _locked(dispute)
        if is_staff_admin(by):
            role = "staff"
        elif by.pk == dispute.tournament.organiser_id:
            role = "organiser"
        elif party_of(dispute.match, by) is not None:
            role = "party"
        else:
            raise Forbidden(_("only the parties, the organiser and staff admins comment here"))
        comment = DisputeComment.objects.create(
            dispute=dispute, author=by, role=role, text=text.strip()
        )
        _audit(dispute, by, "commented", role=role, comment=comment.pk)
        return comment


def dispute_resume(*, dispute: Dispute, by: Any) -> float:
    """A staff admin lets the game the dispute paused run on; returns the seconds paused."""
    _check_staff(by)
    with transaction.atomic():
        dispute = _locked(dispute)
        if dispute.game is None or not dispute.game.is_paused:
            raise Conflict(_("this dispute's game is not paused"))
        return _resume(dispute, by, _("resumed by a staff admin"))


def _pause(dispute: Dispute, by: Any) -> None:
    # The dispute's rules decided it (a party may file with a pause where the tournament
    # allows it): the game is steered by them, not by the filer.
    paused_at = game_services.game_pause(game_id=dispute.game_id, by=None)
    dispute.paused_game = True
    dispute.save(update_fields=["paused_game"])
    audit.record(
        by,
        "games.clock.paused",
        tournament=dispute.tournament,
        target=f"game:{dispute.game_id}",
        before={"paused": False},
        after={"paused": True, "at": paused_at},
        reason=dispute.reason,
        dispute=dispute.pk,
    )


def _resume(dispute: Dispute, by: Any, why: str) -> float:
    # As the pause: a withdrawal or a ruling lets the game run on, by the dispute's rules.
    seconds = game_services.game_resume(game_id=dispute.game_id, by=None)
    audit.record(
        by,
        "games.clock.resumed",
        tournament=dispute.tournament,
        target=f"game:{dispute.game_id}",
        before={"paused": True},
        after={"paused": False, "paused_seconds": round(seconds, 6)},
        reason=why,
        dispute=dispute.pk,
    )
    return seconds


def _resume_if_paused(dispute: Dispute, by: Any, why: str) -> None:
    if dispute.game_id is None:
        return
    game = GameSession.objects.get(pk=dispute.game_id)
    if game.is_paused and game.is_running:
        _resume(dispute, by, why)


# -- rulings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """What a ruling would change downstream: matches reset (already started) and refilled."""

    ruling: str
    resets: tuple[str, ...]
    refills: tuple[str, ...]


def dispute_preview(
    *, dispute: Dispute, by: Any, ruling: str, winner: Entrant | None = None
) -> Preview:
    """The dry run of a ruling: what it resets, checked as the ruling is, changing nothing."""
    _check_staff(by)
    with transaction.atomic():
        dispute = _locked(dispute)
        match = Match.objects.select_for_update().get(pk=dispute.match_id)
        plan = _plan(dispute, match, ruling, winner)
        return Preview(ruling, plan.resets if plan else (), plan.refills if plan else ())


def dispute_rule(
    *,
    dispute: Dispute,
    by: Any,
    ruling: str,
    reason: str,
    winner: Entrant | None = None,
    resets: list[str] | None = None,
    home_score: float | None = None,
    away_score: float | None = None,
    entrant: Entrant | None = None,
    seq: int | None = None,
) -> Dispute:
    """Rule on a dispute with a written reason, applied in one transaction: the result, the
    bracket it feeds (exactly the ``resets`` the preview listed), the dispute and the audit
    entries land together or not at all."""
    _check_staff(by)
    if ruling not in Ruling.values:
        raise DisputeError(
            _("a ruling is one of: %(rulings)s") % {"rulings": ", ".join(Ruling.values)}
        )
    if not reason.strip():
        raise DisputeError(_("a ruling needs a written reason"))
    reason = reason.strip()
    with transaction.atomic():
        dispute = _locked(dispute)
        if not dispute.is_pending:
            raise Conflict(_("this dispute is already closed"))
        match = Match.objects.select_for_update().get(pk=dispute.match_id)
        before = {"dispute": _state(dispute), "match": audit.result_of(match)}
        plan = _plan(dispute, match, ruling, winner)
        if plan is not None and plan.resets and resets is None:
            raise DisputeError(
                _(
                    "this ruling resets %(codes)s: preview it first, then send it with the "
                    "resets it lists"
                )
                % {"codes": ", ".join(plan.resets)}
            )
        if plan is not None and resets is not None and sorted(resets) != sorted(plan.resets):
            raise Conflict(
                _("the ruling would now reset %(now)s, not %(sent)s; preview it again")
                % {"now": _listed(plan.resets), "sent": _listed(resets)}
            )
        data = _apply(
            dispute, match, by, ruling, reason, plan, winner, home_score, away_score, entrant, seq
        )
        dispute.status = Dispute.Status.RULED
        dispute.ruling = ruling
        dispute.ruling_reason = reason
        dispute.ruling_data = data
        dispute.ruled_by = by
        dispute.ruled_at = timezone.now()
        dispute.save()
        if ruling in (Ruling.DISMISS, Ruling.UPHOLD, Ruling.ADJUST, Ruling.DISQUALIFY):
            _resume_if_paused(dispute, by, _("the dispute was ruled"))
        match.refresh_from_db()
        _audit(
            dispute,
            by,
            "ruled",
            reason=reason,
            before=before,
            after={"dispute": _state(dispute), "match": audit.result_of(match)},
            ruling=ruling,
            **data,
        )
        events.emit(
            dispute.tournament_id,
            "dispute.ruled",
            dispute=dispute.pk,
            match=match.code,
            ruling=ruling,
        )
        _notify(dispute, "ruled")
        return dispute


def _plan(
    dispute: Dispute, match: Match, ruling: str, winner: Entrant | None
) -> corrections.Plan | None:
    """What the ruling resets downstream; ``None`` for rulings that leave the bracket."""
    if ruling in (Ruling.OVERTURN, Ruling.FORFEIT):
        if winner is None or winner.pk not in (match.home_id, match.away_id):
            raise DisputeError(_("name the winner: one of the match's two entrants"))
        if not match.is_decided:
            return None
        if match.stage.format == "genius":
            return season_rulings.plan(match, winner=winner)
        return corrections.plan(match, winner)
    if ruling in (Ruling.REPLAY, Ruling.REWIND):
        if dispute.game_id is None:
            raise Conflict(_("this match has no game to play again"))
        if not match.is_decided:
            return None
        if match.stage.format == "genius":
            return season_rulings.plan(match)
        return corrections.plan_undecided(match)
    return None


def _apply(
    dispute: Dispute,
    match: Match,
    by: Any,
    ruling: str,
    reason: str,
    plan: corrections.Plan | None,
    winner: Entrant | None,
    home_score: float | None,
    away_score: float | None,
    entrant: Entrant | None,
    seq: int | None,
) -> dict[str, Any]:
    """Carry the ruling out through the services that own each change; returns what the
    dispute keeps of it."""
    if ruling in (Ruling.DISMISS, Ruling.UPHOLD):
        return {}
    if (
        ruling in (Ruling.OVERTURN, Ruling.FORFEIT)
        and plan is not None
        and match.stage.format == "genius"
    ):
        # A result settled into the season: the season's own steps undo and redo it.
        season_rulings.overturn(
            match,
            plan,
            dispute=dispute,
            by=by,
            winner=winner,
            forfeit=ruling == Ruling.FORFEIT,
            reason=reason,
        )
        return {"winner": winner.pk, "resets": list(plan.resets)}
    if ruling in (Ruling.OVERTURN, Ruling.FORFEIT):
        services.match_report_result(
            match=match,
            by=by,
            winner=winner,
            forfeit=ruling == Ruling.FORFEIT,
            force=match.is_decided,
            reason=reason,
            resets=list(plan.resets) if plan is not None else None,
        )
        return {"winner": winner.pk, "resets": list(plan.resets) if plan else []}
    if ruling == Ruling.ADJUST:
        return _adjust(match, by, reason, home_score, away_score)
    if ruling == Ruling.DISQUALIFY:
        target = entrant
        if target is None or target.tournament_id != dispute.tournament_id:
            raise DisputeError(_("name the entrant to disqualify"))
        services.entrant_disqualify(entrant=target, by=by, reason=reason)
        return {"entrant": target.pk}
    # Replays and rewinds: the games side of a ruling.
    return dispute_games.play_again(dispute, match, by, reason, plan, ruling, seq)


def _adjust(
    match: Match, by: Any, reason: str, home_score: float | None, away_score: float | None
) -> dict[str, Any]:
    if home_score is None or away_score is None:
        raise DisputeError(_("an adjustment gives both scores"))
    if not match.is_decided or match.home is None or match.away is None:
        raise Conflict(_("scores are adjusted on a decided match"))
    if home_score < 0 or away_score < 0:
        raise DisputeError(_("scores are not negative"))
    winner = match.winner
    if winner is None and home_score != away_score:
        raise DisputeError(_("a draw keeps level scores; overturn it to give it a winner"))
    if winner is not None and (home_score > away_score) != (winner == match.home):
        raise DisputeError(_("the scores contradict the winner; overturn the result instead"))
    before = audit.result_of(match)
    match.home_score, match.away_score = float(home_score), float(away_score)
    match.save(update_fields=["home_score", "away_score", "updated"])
    audit.log(
        match.stage.tournament,
        by,
        "match.scores_adjusted",
        reason=reason,
        target=f"match:{match.code}",
        before=before,
        after=audit.result_of(match),
        match=match.code,
    )
    return {"home_score": match.home_score, "away_score": match.away_score}


# -- shared -----------------------------------------------------------------------------------


def _locked(dispute: Dispute) -> Dispute:
    """The dispute, its tournament row locked first (as every tournament write does)."""
    Tournament.objects.select_for_update().get(pk=dispute.tournament_id)
    return (
        Dispute.objects.select_for_update(of=("self",))
        .select_related("tournament", "match__home", "match__away", "match__stage", "game")
        .get(pk=dispute.pk)
    )


def _state(dispute: Dispute) -> dict[str, Any]:
    return {
        "status": dispute.status,
        "assignee": dispute.assignee_id,
        "ruling": dispute.ruling or None,
    }


def _audit(dispute: Dispute, by: Any, step: str, **fields: Any) -> None:
    audit.record(
        by,
        f"disputes.{step}",
        tournament=dispute.tournament,
        target=f"dispute:{dispute.pk}",
        match=dispute.match.code,
        **fields,
    )


def _listed(codes: Any) -> str:
    return ", ".join(codes) if codes else _("no match")


def _notify(dispute: Dispute, step: str) -> None:
    """E-mail the match's parties (those with an address) once the change is committed."""
    match = dispute.match
    people = []
    for entrant in (match.home, match.away):
        if entrant is None:
            continue
        people += [entrant.user, *([entrant.partner] if entrant.partner_id else [])]
    addresses = sorted({person.email for person in people if person.email})
    if not addresses:
        return
    tournament = dispute.tournament
    if step == "filed":
        subject = _("A dispute was filed on %(match)s in %(tournament)s")
        body = _("%(who)s disputes %(match)s: %(reason)s")
    else:
        subject = _("The dispute on %(match)s in %(tournament)s was ruled")
        body = _("Ruling: %(ruling)s. Reason: %(reason)s")
    values = {
        "match": match.code,
        "tournament": tournament.name,
        "who": dispute.filed_by.get_username(),
        "reason": dispute.ruling_reason if step == "ruled" else dispute.reason,
        "ruling": dispute.get_ruling_display(),
    }
    link = f"/disputes/{dispute.pk}/"
    message = f"{body % values}\n\n{link}"
    sender = settings.DEFAULT_FROM_EMAIL
    transaction.on_commit(
        lambda: send_mail(subject % values, message, sender, addresses, fail_silently=True)
    )
