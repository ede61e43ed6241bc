"""The home page (``/``): a lobby. The three games and their ways in, what a signed-in player
must act on first (their turn, their next matches, challenges waiting for an answer), the games
being played now and the tournaments running or starting soon. It lives with the tournament
pages, not in hosting, because it reads tournaments: hosting's URL configuration only points at
it."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import players
from games.challenges import services as challenges
from games.challenges.views import game_choices
from tournaments.models import Tournament
from tournaments.views.lobby import guest_id_of, next_matches, offers

TOURNAMENTS_SHOWN = 8


def home(request: HttpRequest) -> HttpResponse:
    public = Tournament.objects.public().select_related("organiser")
    running = public.filter(status=Tournament.Status.RUNNING).order_by("-updated")
    soon = public.filter(
        status__in=(Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN)
    ).order_by("check_in_opens", "registration_closes", "-created")
    context = {
        "offers": offers(),
        "live": players.live_games(),
        "running": running[:TOURNAMENTS_SHOWN],
        "soon": soon[:TOURNAMENTS_SHOWN],
    }
    user = request.user
    if user.is_authenticated:
        context.update(
            {
                "open_seats": players.open_seats(user=user),
                "next_matches": next_matches(user),
                "received": challenges.received(user),
                "sent": challenges.sent(user),
                "challenge_games": game_choices(),
            }
        )
    else:
        context["open_seats"] = players.open_seats(guest_id=guest_id_of(request))
    return render(request, "home.html", context)
