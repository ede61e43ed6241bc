from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import engines
from tournaments.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.public().select_related("organiser")[:20]
    games = [engines.get(key) for key in engines.ENGINE_MODULES]
    return render(request, "home.html", {"tournaments": tournaments, "games": games})
