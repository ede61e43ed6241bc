"""Demo data for ``make run``: an organiser and six players (their new passwords printed), and
a Genius season for them.

Safe to run again: it updates what exists and gives every demo account a fresh password each
time, since only a password just set can be printed.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from hosting.core.roles import ORGANISER, grant
from tournaments.models import Entrant, Tournament

DEMO_PLAYERS = ["ada", "brook", "cyrus", "dana", "eli", "fern"]


class Command(BaseCommand):
    help = "Create or refresh the demo organiser, players and tournament."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        passwords: dict[str, str] = {}

        def account(username: str) -> Any:
            person, _ = users.objects.get_or_create(username=username)
            passwords[username] = secrets.token_urlsafe(12)
            person.set_password(passwords[username])
            person.save()
            return person

        organiser = account("organiser")
        grant(organiser, ORGANISER)

        season = {
            "name": "Demo Genius Season",
            "organiser": organiser,
            "description": "Six players, main matches and Drafting Trios Death Matches.",
            "game": "drafting_trios",
            "format": "genius",
            # A season ranks by elimination, not a tie-break chain; its rules are the
            # defaults (format_options {}), which run to the final whatever the results.
            "tiebreaks": [],
            "format_options": {},
            "capacity": 6,
            "status": Tournament.Status.REGISTRATION,
        }
        tournament, created = Tournament.objects.get_or_create(slug="demo-season", defaults=season)
        if not created and not tournament.stages.exists():
            # Not started yet: bring it up to date. A season under way (or played to its
            # end) is left as it is; restarting the server must not rewind it.
            for field, value in season.items():
                setattr(tournament, field, value)
            tournament.save()
        for seed, name in enumerate(DEMO_PLAYERS, start=1):
            player = account(name)
            Entrant.objects.get_or_create(
                tournament=tournament,
                user=player,
                defaults={"display_name": name.capitalize(), "seed": seed},
            )
        self.stdout.write(
            f"Demo organiser: username 'organiser', password '{passwords['organiser']}'"
        )
        for name in DEMO_PLAYERS:
            self.stdout.write(f"Demo player: username '{name}', password '{passwords[name]}'")
        self.stdout.write(f"Demo tournament: {tournament.name} ({len(DEMO_PLAYERS)} entrants)")
