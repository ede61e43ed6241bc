"""Demo data for ``make run``: an organiser (its new password printed), players, a tournament.

Safe to run again: it updates what exists and gives the organiser a fresh password each time,
since only a password just set can be printed.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from hosting.roles import ORGANISER, grant
from tournaments.models import Entrant, Tournament

DEMO_PLAYERS = ["ada", "brook", "cyrus", "dana", "eli", "fern"]


class Command(BaseCommand):
    help = "Create or refresh the demo organiser, players and tournament."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        password = secrets.token_urlsafe(12)
        organiser, _ = users.objects.get_or_create(username="organiser")
        organiser.set_password(password)
        organiser.save()
        grant(organiser, ORGANISER)

        tournament, _ = Tournament.objects.update_or_create(
            slug="demo-season",
            defaults={
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
            },
        )
        for seed, name in enumerate(DEMO_PLAYERS, start=1):
            player, created = users.objects.get_or_create(username=name)
            if created:
                player.set_unusable_password()
                player.save()
            Entrant.objects.get_or_create(
                tournament=tournament,
                user=player,
                defaults={"display_name": name.capitalize(), "seed": seed},
            )
        self.stdout.write(f"Demo organiser: username 'organiser', password '{password}'")
        self.stdout.write(f"Demo tournament: {tournament.name} ({len(DEMO_PLAYERS)} entrants)")
