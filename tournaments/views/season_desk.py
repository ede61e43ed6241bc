"""A Genius season's own pages (issue 29): the rules page with its change log and
clarifications (public), the season desk (a player's handouts, confessional, rule questions
and transfers; a host's queue of them all) and the viewing lounge (the eliminated and hosts).

Each form is one service call (``tournaments.seasons.*``); a refusal is shown on the page.
Nothing hidden is read here for anyone but its owner and the hosts: the reads are each
service's ``visible_to``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engines
from hosting.core.errors import UserError
from tournaments import selectors
from tournaments.core.permissions import runs
from tournaments.formats import genius
from tournaments.models import GarnetTransfer, RuleQuestion, Tournament
from tournaments.seasons import (
    activity,
    confessionals,
    death_match_picks,
    handouts,
    questions,
    transfers,
)
from tournaments.seasons import services as seasons
from tournaments.selectors import or_404


def _season(request: HttpRequest, slug: str) -> Tournament:
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    if tournament.format != genius.KEY:
        raise Http404
    return tournament


@require_GET
def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's rules as published, their change log and the clarifications."""
    tournament = _season(request, slug)
    versions = list(tournament.rules_versions.order_by("-number"))
    context = {
        "tournament": tournament,
        "current": versions[0] if versions else None,
        "versions": versions,
        "clarifications": questions.clarifications(tournament),
        "runs": runs(tournament, request.user),
        "format_options": seasons.rules_for(tournament),
    }
    return render(request, "tournaments/season_rules.html", context)


@login_required
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's private desk, or the hosts' queue."""
    tournament = _season(request, slug)
    hosting = runs(tournament, request.user)
    mine = selectors.entry_of(tournament, request.user)
    if mine is None and not hosting:
        raise PermissionDenied
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    rules = seasons.rules_for(tournament)
    players = seasons.season_for(tournament).players if started else ()
    names = dict(tournament.entrants.values_list("pk", "display_name"))
    seen = transfers.visible_to(tournament, request.user)
    if not hosting:
        seen = seen.filter(Q(sender=mine) | Q(receiver=mine))
    context = {
        "tournament": tournament,
        "hosting": hosting,
        "me": mine,
        "rules": rules,
        "balance": transfers.balance_of(tournament, mine) if mine and started else None,
        "transfers": list(seen.order_by("-pk")),
        "questions": list(questions.visible_to(tournament, request.user).order_by("-pk")),
        "handouts": list(handouts.visible_to(tournament, request.user)),
        "confessionals": list(confessionals.visible_to(tournament, request.user)),
        "players": [(pk, names[pk]) for pk in players],
        "others": [(pk, names[pk]) for pk in players if not mine or pk != mine.pk],
        "still_in": bool(mine and mine.pk in players),
        "running": tournament.status == Tournament.Status.RUNNING,
        "lounge": confessionals.may_enter_lounge(tournament, request.user),
        "episode": selectors.current_episode(tournament),
        "two_seat_games": [
            (key, engines.get(key).name)
            for key in engines.known_keys()
            if engines.get(key).min_seats <= 2 <= engines.get(key).max_seats
        ]
        if hosting
        else [],
        "activity_checks": list(tournament.activity_checks.order_by("-pk")[:5]),
        "checked_in": set(
            tournament.activity_checks.filter(check_ins__entrant=mine).values_list("pk", flat=True)
        )
        if mine
        else set(),
    }
    return render(request, "tournaments/season_desk.html", context)


def _transfer(tournament: Tournament, request: HttpRequest) -> GarnetTransfer:
    found = tournament.garnet_transfers.filter(pk=_int(request, "transfer")).first()
    if found is None:
        raise UserError(_("no such transfer in this season"))
    return found


def _question(tournament: Tournament, request: HttpRequest) -> RuleQuestion:
    found = tournament.rule_questions.filter(pk=_int(request, "question")).first()
    if found is None:
        raise UserError(_("no such question in this season"))
    return found


def _int(request: HttpRequest, key: str) -> int:
    try:
        return int(request.POST.get(key, ""))
    except ValueError:
        raise UserError(_("%(field)s must be a number") % {"field": key}) from None


def _mine(tournament: Tournament, user: Any) -> Any:
    entrant = selectors.entry_of(tournament, user)
    if entrant is None:
        raise UserError(_("You have no entry in this tournament."))
    return entrant


def _ask(t: Tournament, r: HttpRequest) -> str:
    questions.ask(
        tournament=t,
        by=r.user,
        entrant=_mine(t, r.user),
        text=r.POST.get("text", ""),
        anonymous=r.POST.get("named") != "on",
    )
    return _("Your question is sent to the hosts.")


def _answer(t: Tournament, r: HttpRequest) -> str:
    publish = r.POST.get("publish") == "on"
    questions.answer(
        question=_question(t, r), by=r.user, text=r.POST.get("text", ""), publish=publish
    )
    return _("The clarification is published.") if publish else _("The answer is sent privately.")


def _rules(t: Tournament, r: HttpRequest) -> str:
    questions.rules_edit(
        tournament=t, by=r.user, text=r.POST.get("text", ""), change=r.POST.get("change", "")
    )
    return _("The rules are published as a new version.")


def _handout(t: Tournament, r: HttpRequest) -> str:
    try:
        recipients = [int(v) for v in r.POST.getlist("recipients")]
    except ValueError:
        raise UserError(_("recipients must be numbers")) from None
    upload = r.FILES.get("file")
    if upload is not None and upload.size > handouts.MAX_FILE_BYTES:
        raise UserError(_("an attached file holds from 1 byte to 1 MB"))
    handouts.give(
        tournament=t,
        by=r.user,
        recipients=recipients,
        title=r.POST.get("title", ""),
        text=r.POST.get("text", ""),
        file=(upload.name, upload.content_type, upload.read()) if upload else None,
    )
    return _("The handout is given.")


def _confess(t: Tournament, r: HttpRequest) -> str:
    confessionals.write(
        tournament=t, by=r.user, entrant=_mine(t, r.user), text=r.POST.get("text", "")
    )
    return _("Your confessional entry is saved.")


def _offer(t: Tournament, r: HttpRequest) -> str:
    rules = seasons.rules_for(t)
    made = transfers.offer(
        tournament=t,
        by=r.user,
        sender=_mine(t, r.user),
        receiver=selectors.entrant(t, _int(r, "to")),
        amount=_int(r, "amount"),
        reason=r.POST.get("reason", "")[:200],
        private=(r.POST.get("private") == "on") if rules.transfer_visibility == "choice" else None,
    )
    if made.status == GarnetTransfer.Status.DONE:
        return _("The garnets are transferred.")
    return _("The transfer is offered; it is done once accepted or approved.")


def _accept(t: Tournament, r: HttpRequest) -> str:
    transfers.accept(transfer=_transfer(t, r), by=r.user)
    return _("The transfer is done.")


def _approve(t: Tournament, r: HttpRequest) -> str:
    transfers.approve(transfer=_transfer(t, r), by=r.user)
    return _("The transfer is done.")


def _decline(t: Tournament, r: HttpRequest) -> str:
    transfers.decline(transfer=_transfer(t, r), by=r.user)
    return _("The transfer is off.")


def _activity(t: Tournament, r: HttpRequest) -> str:
    cutoff = parse_datetime(r.POST.get("cutoff", "") or "")
    if cutoff is None:
        raise UserError(_("give the cut-off as a date and time"))
    if timezone.is_naive(cutoff):
        cutoff = timezone.make_aware(cutoff)
    activity.open_check(tournament=t, by=r.user, cutoff=cutoff)
    return _("The activity check is open.")


def _check_in(t: Tournament, r: HttpRequest) -> str:
    found = t.activity_checks.filter(pk=_int(r, "check")).first()
    if found is None:
        raise UserError(_("no such activity check in this season"))
    activity.check_in(check=found, by=r.user, entrant=_mine(t, r.user))
    return _("You are checked in.")


def _current(t: Tournament) -> Any:
    episode = selectors.current_episode(t)
    if episode is None:
        raise UserError(_("the season has not started"))
    return episode


def _dm_pick(t: Tournament, r: HttpRequest) -> str:
    death_match_picks.pick_open(
        episode=_current(t),
        by=r.user,
        mode=r.POST.get("mode", ""),
        pool=r.POST.getlist("pool"),
        step_seconds=_int(r, "step_seconds"),
    )
    return _("The Death Match game will be chosen as set.")


def _dm_advantage(t: Tournament, r: HttpRequest) -> str:
    holder = r.POST.get("entrant") or None
    death_match_picks.advantage_give(
        episode=_current(t), by=r.user, entrant=_int(r, "entrant") if holder else None
    )
    return _("The DM Advantage is recorded.")


ACTIONS: dict[str, Callable[[Tournament, HttpRequest], str]] = {
    "ask": _ask,
    "answer": _answer,
    "rules": _rules,
    "handout": _handout,
    "confess": _confess,
    "offer": _offer,
    "accept": _accept,
    "approve": _approve,
    "decline": _decline,
    "activity": _activity,
    "check_in": _check_in,
    "dm_pick": _dm_pick,
    "dm_advantage": _dm_advantage,
}


@login_required
@require_POST
def desk_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    tournament = _season(request, slug)
    act = ACTIONS.get(action)
    if act is None:
        raise Http404
    try:
        said = act(tournament, request)
    except UserError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, said)
    back = "season-rules" if action == "rules" else "season-desk"
    return redirect(back, slug=slug)


@login_required
@require_GET
def lounge(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _season(request, slug)
    if not confessionals.may_enter_lounge(tournament, request.user):
        raise PermissionDenied
    context = {"tournament": tournament, **confessionals.lounge(tournament, request.user)}
    return render(request, "tournaments/season_lounge.html", context)


@login_required
@require_GET
def handout_file(request: HttpRequest, slug: str, handout_id: int) -> HttpResponse:
    """A handout's attachment, to its recipients and the hosts only (else a 404, which says
    nothing of whether it exists)."""
    tournament = _season(request, slug)
    found = handouts.visible_to(tournament, request.user).filter(pk=handout_id).first()
    if found is None or not found.file_name:
        raise Http404
    response = HttpResponse(bytes(found.file_data), content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{found.file_name}"'
    response["Cache-Control"] = "private, no-store"
    return response
