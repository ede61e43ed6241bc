"""Scenario builders for tournament service tests."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from hosting.core.roles import ORGANISER, STAFF_ADMIN, grant
from tests.games.hosting_helpers import register_tiny
from tournaments import services
from tournaments.models import Tournament


def user(name: str, *roles: str):
    person = get_user_model().objects.create_user(name)
    for role in roles:
        grant(person, role)
    return person


def organiser():
    return user("organiser", ORGANISER)


def staff_admin():
    return user("referee", STAFF_ADMIN)


def open_tournament(
    fmt: str, entrants: int, *, online: bool = False, **fields
) -> tuple[Tournament, list]:
    """A tournament with ``entrants`` registered players, seeded by rating (p1 strongest)."""
    register_tiny()
    host = organiser()
    fields.setdefault("game", "high_card")
    # Match games deal at once: tests about the seed window (test_seed_window) open one.
    fields.setdefault("seed_window_seconds", 0)
    tournament = services.tournament_create(
        organiser=host,
        name=f"{fmt} cup",
        slug=f"{fmt}-cup",
        format=fmt,
        play_online=online,
        **fields,
    )
    services.registration_open(tournament=tournament, by=host)
    players = [
        services.entrant_register(tournament=tournament, user=user(f"p{i}"), rating=3000 - i)
        for i in range(1, entrants + 1)
    ]
    services.seeding_apply(tournament=tournament, by=host, method="rating")
    return tournament, players


def started(fmt: str, entrants: int, **options):
    tournament, players = open_tournament(fmt, entrants, **options)
    stage = services.stage_start(tournament=tournament, by=tournament.organiser)
    return tournament, stage, players


def report_top_seed_wins(stage, code: str):
    """The better seed (lower number) wins the match ``code``."""
    match = stage.matches.get(code=code)
    better = min((match.home, match.away), key=lambda e: e.seed)
    return services.match_report_result(match=match, by=stage.tournament.organiser, winner=better)
