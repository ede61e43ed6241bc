"""The home page (``/``): the public tournaments and the games on offer. It lives with the
tournament pages, not in hosting, because it reads tournaments: hosting's URL configuration only
points at it."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import engines
from tournaments.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.public().select_related("organiser")[:20]
    games = [engines.get(key) for key in engines.ENGINE_MODULES]
    return render(request, "home.html", {"tournaments": tournaments, "games": games})
