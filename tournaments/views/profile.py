"""A player's page (``/u/<username>/``): their games per game (played, won, the latest results
with their replays) and the tournaments they entered with their placements. Their own page
also lists their open seats ("your turn" first) and their challenges. ``/u/me/``: a signed-in
player's own page; a guest's games of this browser."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import players
from games.challenges import services as challenges
from games.challenges.views import game_choices
from tournaments import services
from tournaments.core.errors import TournamentUserError
from tournaments.models import Entrant, Tournament
from tournaments.views.lobby import guest_id_of

RESULTS_SHOWN = 15


def profile_me(request: HttpRequest) -> HttpResponse:
    """``/u/me/``: a signed-in player's own page; for a guest, this browser's games."""
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.get_username())
    guest_id = guest_id_of(request)
    context = {
        "open_seats": players.open_seats(guest_id=guest_id),
        "results": players.results(guest_id=guest_id, limit=RESULTS_SHOWN),
        "per_game": players.per_game(guest_id=guest_id),
    }
    return render(request, "profile/me.html", context)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    User = get_user_model()
    person = User.objects.filter(**{User.USERNAME_FIELD: username}, is_active=True).first()
    if person is None:
        raise Http404(f"no player {username}")
    own = request.user.is_authenticated and request.user.pk == person.pk
    context: dict[str, Any] = {
        "person": person,
        "own": own,
        "per_game": players.per_game(user=person),
        "results": players.results(user=person, limit=RESULTS_SHOWN),
        "entries": _entries(person, viewer=request.user),
    }
    if own:
        context.update(
            {
                "open_seats": players.open_seats(user=person),
                "received": challenges.received(person),
                "sent": challenges.sent(person),
            }
        )
    elif request.user.is_authenticated:
        context["challenge_games"] = game_choices()
    return render(request, "profile/profile.html", context)


def _entries(person: Any, *, viewer: Any) -> list[dict[str, Any]]:
    """The tournaments the person entered that the viewer may see, newest first, with their
    placement once the tournament has standings."""
    entries = (
        Entrant.objects.filter(user=person)
        .select_related("tournament")
        .order_by("-tournament__created", "-pk")[:30]
    )
    rows = []
    for entry in entries:
        tournament = entry.tournament
        public = tournament.visibility == Tournament.Visibility.PUBLIC
        if tournament.status == Tournament.Status.DRAFT or not (public or viewer == person):
            continue
        rows.append({"entry": entry, "tournament": tournament, "place": _place(entry)})
    return rows


def _place(entry: Entrant) -> int | None:
    if entry.tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return None
    try:
        table = services.standings(tournament=entry.tournament)
    except TournamentUserError:
        return None
    return next((row["rank"] for row in table if row.get("entrant") == entry.pk), None)
