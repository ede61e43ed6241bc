"""The challenge pages: ``/challenges/`` (send one by name; the open ones, received and sent)
and the accept and decline buttons, which post to the ``games.challenges.services`` services
and come back (an accepted challenge goes to its game)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import engines
from games.challenges import services as challenges
from hosting.core.errors import UserError
from hosting.core.throttles import limit_posts


def game_choices() -> list[tuple[str, str]]:
    return [(key, engines.get(key).name) for key in engines.ENGINE_MODULES]


def _back(request: HttpRequest) -> HttpResponse:
    """Where the form came from (the home page, a profile), else the challenges page."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("challenges")


@login_required
@limit_posts("challenge")
def challenge_page(request: HttpRequest) -> HttpResponse:
    """``/challenges/``: the form (posting sends the challenge) and the open challenges."""
    chosen: dict[str, Any] = {
        "username": request.GET.get("username", "")[:150],
        "game": request.GET.get("game", ""),
    }
    if request.method == "POST":
        chosen = {"username": request.POST.get("username", ""), "game": request.POST.get("game")}
        try:
            sent = challenges.challenge_send(
                challenger=request.user, username=chosen["username"], engine=chosen["game"]
            )
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("Challenge sent to %(name)s. It appears on their home page.")
                % {"name": sent.challenged.get_username()},
            )
            return _back(request)
    context = {
        "games": game_choices(),
        "chosen": chosen,
        "received": challenges.received(request.user),
        "sent": challenges.sent(request.user),
    }
    return render(request, "challenges/list.html", context)


@require_POST
@login_required
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        game = challenges.challenge_accept(challenge_id=challenge_id, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
        return _back(request)
    return redirect("game-page", game_id=game.pk)


@require_POST
@login_required
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        challenges.challenge_decline(challenge_id=challenge_id, user=request.user)
    except UserError as error:
        messages.error(request, error.message)
    return _back(request)
