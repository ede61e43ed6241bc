"""Dispute pages: filing (``/disputes/new/<slug>/<code>``), a dispute (``/disputes/<id>/``,
the same page at ``/admin/disputes/<id>/``) and the staff queue (``/admin/disputes/``).

Views parse, call one ``tournaments.disputes.services`` service and redirect or render; a refusal is
shown with the service's words and changes nothing. The whole state of every step is put on
the page for staff admins only (``dispute_steps``)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import GameSession
from hosting.core.errors import Forbidden, UserError
from hosting.core.roles import STAFF_ADMIN, is_organiser, is_staff_admin
from tournaments import selectors
from tournaments.core import audit, audit_sentences
from tournaments.core.permissions import runs
from tournaments.disputes import services as disputes
from tournaments.disputes import steps as dispute_steps
from tournaments.models import Dispute, Entrant
from tournaments.selectors import or_404

STATUS_LABELS = {
    "open": gettext_lazy("Open"),
    "assigned": gettext_lazy("Assigned"),
    "ruled": gettext_lazy("Ruled"),
    "withdrawn": gettext_lazy("Withdrawn"),
}
RULING_LABELS = {
    "dismiss": gettext_lazy("Dismiss"),
    "uphold": gettext_lazy("Uphold the result"),
    "overturn": gettext_lazy("Overturn: set the winner"),
    "replay": gettext_lazy("Order a replay (new game, fresh seed)"),
    "rewind": gettext_lazy("Rewind to an event and continue"),
    "adjust": gettext_lazy("Adjust the scores"),
    "forfeit": gettext_lazy("Award a forfeit"),
    "disqualify": gettext_lazy("Disqualify an entrant"),
}


# -- filing -----------------------------------------------------------------------------------


@login_required
def file(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    match = or_404(selectors.match, tournament, code)
    if disputes.party_of(match, request.user) is None and not runs(tournament, request.user):
        raise PermissionDenied
    links = list(match.match_games.select_related("game").order_by("number"))
    game = links[-1].game if links else None
    if request.method == "POST":
        try:
            dispute = disputes.dispute_file(
                match=match,
                by=request.user,
                reason=request.POST.get("reason", "")[:2000],
                game=game,
                moves=_numbers(request.POST.getlist("moves")),
                evidence=request.POST.get("evidence", "")[:5000],
                pause=request.POST.get("pause") == "on",
            )
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Your dispute is filed."))
            return redirect("dispute-page", dispute_id=dispute.pk)
    return render(
        request,
        "disputes/file.html",
        {
            "tournament": tournament,
            "match": match,
            "game": game,
            "moves": _moves_for(game, request.user),
            "may_pause": tournament.dispute_pauses_clocks and game is not None and game.is_running,
            "form": request.POST,
        },
    )


def _numbers(values: list[str]) -> list[int]:
    try:
        return [int(value) for value in values]
    except ValueError:
        raise UserError(_("moves are numbers from the game's log")) from None


def _moves_for(game: GameSession | None, user: Any) -> list[dict[str, Any]]:
    """The log as a party may pick from it: every move's number, seat and time; the action
    itself only for the reader's own moves (another seat's may be a secret draft)."""
    if game is None:
        return []
    seats = {s.number: s for s in game.seats.all()}
    own = {n for n, s in seats.items() if s.user_id == getattr(user, "pk", None)}
    return [
        {
            "seq": event.seq,
            "seat": seats[event.seat].label() if event.seat in seats else _("the server"),
            "at": event.at,
            "action": event.action.get("type") if event.seat in own else "",
        }
        for event in game.log.order_by("seq")
    ]


# -- one dispute ------------------------------------------------------------------------------


@login_required
def page(request: HttpRequest, dispute_id: int) -> HttpResponse:
    dispute = or_404(disputes.get_visible, dispute_id, request.user)
    staff = is_staff_admin(request.user)
    context: dict[str, Any] = {
        "dispute": dispute,
        "status_label": STATUS_LABELS[dispute.status],
        "ruling_label": RULING_LABELS.get(dispute.ruling, ""),
        "comments": dispute.comments.select_related("author"),
        "staff": staff,
        "runs": runs(dispute.tournament, request.user),
        "may_withdraw": dispute.status == "open" and dispute.filed_by_id == request.user.pk,
        "entrants": [e for e in (dispute.match.home, dispute.match.away) if e is not None],
        "game_id": dispute_steps.disputed_game(dispute),
    }
    if runs(dispute.tournament, request.user):
        trail = audit.for_dispute(dispute.pk).select_related("actor")
        context["trail"] = audit_sentences.sentences(list(trail))
    if staff:
        context |= _staff_context(request, dispute)
    return render(request, "disputes/dispute.html", context)


def _staff_context(request: HttpRequest, dispute: Dispute) -> dict[str, Any]:
    log = dispute_steps.log(dispute)
    count = len(log["steps"])
    try:
        step = min(max(int(request.GET.get("step", count - 1)), 0), max(count - 1, 0))
    except ValueError:
        step = max(count - 1, 0)
    frame = log["steps"][step] if count else None
    names = {str(s["number"]): s["name"] for s in log["seats"]}
    return {
        "log": log,
        "step": step,
        "last_step": count - 1,
        "frame": frame,
        "frame_action": json.dumps(frame["action"]) if frame and frame["action"] else "",
        "frame_seat": names.get(str(frame["seat"]), "") if frame else "",
        "frame_state": json.dumps(frame["state"], indent=1, sort_keys=True) if frame else "",
        "frame_views": [
            (names.get(seat, seat), json.dumps(view, indent=1, sort_keys=True))
            for seat, view in (frame["own"].items() if frame else [])
        ],
        "frame_clocks": [
            (names.get(seat, seat), clock)
            for seat, clock in (frame["clocks"].items() if frame else [])
        ],
        "game_paused": log.get("paused", False),
        "rulings": list(RULING_LABELS.items()),
        "staff_admins": _staff_admins(),
        "preview": request.session.pop(f"dispute-preview-{dispute.pk}", None),
    }


def _staff_admins() -> list[Any]:
    return list(get_user_model().objects.filter(groups__name=STAFF_ADMIN).order_by("username"))


@login_required
@require_POST
def act(request: HttpRequest, dispute_id: int, action: str) -> HttpResponse:
    """One form's action: withdraw, comment, assign, resume or rule."""
    dispute = or_404(disputes.get_visible, dispute_id, request.user)
    post = request.POST
    target = reverse("dispute-page", args=[dispute.pk])
    try:
        if action == "withdraw":
            disputes.dispute_withdraw(dispute=dispute, by=request.user)
            messages.success(request, _("The dispute is withdrawn."))
        elif action == "comment":
            disputes.dispute_comment(dispute=dispute, by=request.user, text=post.get("text", ""))
            messages.success(request, _("Your comment is added."))
        elif action == "assign":
            assignee = disputes.staff_named(post.get("assignee", ""))
            disputes.dispute_assign(dispute=dispute, by=request.user, assignee=assignee)
            messages.success(request, _("The dispute is assigned."))
            if post.get("back") == "queue":
                target = reverse("dispute-queue")
        elif action == "resume":
            disputes.dispute_resume(dispute=dispute, by=request.user)
            messages.success(request, _("The game runs again."))
        elif action == "rule":
            return _rule(request, dispute)
        else:
            raise Http404
    except Forbidden:
        raise PermissionDenied from None
    except UserError as error:
        messages.error(request, error.message)
    return redirect(target)


def _rule(request: HttpRequest, dispute: Dispute) -> HttpResponse:
    """A ruling that changes the bracket is previewed first: the page lists what it resets,
    and the ruling is confirmed with exactly that list."""
    post = request.POST
    ruling = post.get("ruling", "")
    target = reverse("dispute-page", args=[dispute.pk])
    winner = _entrant(dispute, post.get("winner"))
    if ruling in disputes.RESULT_RULINGS and post.get("confirmed") != "yes":
        preview = disputes.dispute_preview(
            dispute=dispute, by=request.user, ruling=ruling, winner=winner
        )
        request.session[f"dispute-preview-{dispute.pk}"] = {
            "ruling": ruling,
            "ruling_label": str(RULING_LABELS.get(ruling, ruling)),
            "reason": post.get("reason", ""),
            "winner": winner.pk if winner else "",
            "winner_name": winner.display_name if winner else "",
            "seq": post.get("seq", ""),
            "resets": list(preview.resets),
            "refills": list(preview.refills),
            "season": dispute.tournament.format == "genius",
        }
        return redirect(f"{target}#ruling")
    resets = [code for code in post.get("resets", "").split(",") if code]
    disputes.dispute_rule(
        dispute=dispute,
        by=request.user,
        ruling=ruling,
        reason=post.get("reason", ""),
        winner=winner,
        resets=resets if ruling in disputes.RESULT_RULINGS else None,
        home_score=_float(post.get("home_score")),
        away_score=_float(post.get("away_score")),
        entrant=_entrant(dispute, post.get("entrant")),
        seq=_int(post.get("seq")),
    )
    messages.success(request, _("The ruling is recorded."))
    return redirect(target)


def _entrant(dispute: Dispute, value: str | None) -> Entrant | None:
    if not value:
        return None
    entrant = dispute.tournament.entrants.filter(pk=_int(value)).first()
    if entrant is None:
        raise UserError(_("no such entrant in this tournament"))
    return entrant


def _int(value: str | None) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except ValueError:
        raise UserError(_("%(value)s is not a whole number") % {"value": value}) from None


def _float(value: str | None) -> float | None:
    if value in (None, ""):
        return None
    try:
        return float(value)
    except ValueError:
        raise UserError(_("%(value)s is not a number") % {"value": value}) from None


# -- the queue --------------------------------------------------------------------------------


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """Staff admins: every dispute; organisers: their tournaments'. Pending ones first."""
    if not (is_staff_admin(request.user) or is_organiser(request.user)):
        raise PermissionDenied
    found = disputes.visible_to(request.user)
    if not is_staff_admin(request.user):
        found = found.filter(tournament__organiser=request.user)
    params = request.GET.copy()
    params.setdefault("status", "pending")
    problem = ""
    try:
        found = disputes.filtered(found, params)
    except UserError as error:
        problem = error.message
    listing = Paginator(found.order_by("filed_at", "pk"), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "disputes/queue.html",
        {
            "page": listing,
            "filters": {name: params.get(name, "") for name in disputes.FILTERS},
            "statuses": [("pending", _("Pending")), *STATUS_LABELS.items()],
            "labels": STATUS_LABELS,
            "staff": is_staff_admin(request.user),
            "problem": problem,
        },
        status=400 if problem else 200,
    )
