"""``check_tournaments``: every tournament against the rules a bracket must keep."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.checks import all_problems


class Command(BaseCommand):
    help = (
        "Check every tournament: each match holds the winners/losers of its feeders, statuses "
        "agree, standings agree with the results, currency balances equal their entries. "
        "Prints 'N tournaments, 0 problems' or the problems, one a line (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checked = problems = 0
        for tournament, found in all_problems():
            checked += 1
            problems += len(found)
            for problem in found:
                self.stdout.write(f"{tournament.slug}: {problem}")
        # The summary's shape is fixed (scripts read it): always "N tournaments, K problems".
        self.stdout.write(f"{checked} tournaments, {problems} problems")
        if problems:
            raise CommandError("some tournaments contradict themselves", returncode=1)
