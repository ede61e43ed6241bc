"""``/tournaments/<slug>/matches/<code>/slot``: agreeing a match's time. Both players see the
window, the proposals and the agreed time in their own zone (with its name) and enter times in
it; the organiser opens the window and sets the time. Each form posts to one service."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from hosting.core.errors import NotFound, UserError
from tournaments import selectors
from tournaments.models import Match, MatchSlot
from tournaments.scheduling import services


def _match(request: HttpRequest, slug: str, code: str) -> Match:
    try:
        tournament = selectors.visible_tournament(slug, request.user)
    except NotFound:
        raise Http404 from None
    match = (
        Match.objects.filter(stage__tournament=tournament, code=code)
        .select_related("stage__tournament", "home__user", "away__user")
        .order_by("-stage__number")
        .first()
    )
    if match is None:
        raise Http404
    return match


def _moment(value: str | None) -> datetime:
    """A ``datetime-local`` field, read in the reader's zone (the active one)."""
    try:
        naive = datetime.fromisoformat(value or "")
    except ValueError:
        raise UserError(_("give a date and a time")) from None
    if timezone.is_aware(naive):
        return naive
    return timezone.make_aware(naive, timezone.get_current_timezone())


@require_http_methods(["GET", "POST"])
def slot_page(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    match = _match(request, slug, code)
    organiser = services.may_manage(match, request.user)
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied
        action = request.POST.get("action")
        try:
            if action == "propose":
                services.slot_propose(
                    match=match, by=request.user, at=_moment(request.POST.get("at"))
                )
                messages.success(request, _("Your proposal is sent to your opponent."))
            elif action == "accept":
                services.slot_accept(
                    proposal_id=int(request.POST.get("proposal") or 0), by=request.user
                )
                messages.success(request, _("The time is agreed."))
            elif action == "check_in":
                services.slot_check_in(match=match, by=request.user)
                messages.success(request, _("You are checked in."))
            elif action == "open" and organiser:
                services.slot_open(
                    match=match,
                    by=request.user,
                    window_opens=_moment(request.POST.get("opens")),
                    window_closes=_moment(request.POST.get("closes")),
                    default_rule=request.POST.get("rule", MatchSlot.DefaultRule.WINDOW_END),
                    no_show_minutes=int(request.POST.get("no_show") or 10),
                )
                messages.success(request, _("The players may now agree a time."))
            elif action == "set" and organiser:
                services.slot_set(match=match, by=request.user, at=_moment(request.POST.get("at")))
                messages.success(request, _("The match time is set."))
            else:
                raise UserError(_("unknown action"))
        except (UserError, ValueError) as error:
            messages.error(request, str(error))
            status = 400
        else:
            return redirect(request.path)
    slot = MatchSlot.objects.filter(match=match).first()
    me = None
    for entrant in (match.home, match.away):
        if (
            entrant
            and request.user.is_authenticated
            and request.user.pk
            in (
                entrant.user_id,
                entrant.partner_id,
            )
        ):
            me = entrant
    proposals = list(slot.proposals.select_related("by")) if slot else []
    zone = timezone.get_current_timezone()
    context = {
        "tournament": match.stage.tournament,
        "match": match,
        "slot": slot,
        "me": me,
        "organiser": organiser,
        "proposals": proposals,
        "rules": MatchSlot.DefaultRule.choices,
        "zone_name": getattr(zone, "key", str(zone)),
    }
    return render(request, "tournaments/slot.html", context, status=status)
