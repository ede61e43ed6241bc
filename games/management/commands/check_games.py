"""``check_games``: every hosted game against what its log, seed and clocks say it must be."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.checks import all_problems


class Command(BaseCommand):
    help = (
        "Check every game: its log is contiguous and its version is the log's length, "
        "replaying the log from the seed gives the stored state and outcome, clocks and "
        "windows agree with the rules, and no game that is over has a deadline pending. "
        "Prints 'N games, 0 problems' or the problems, one a line (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checked = problems = 0
        for game, found in all_problems():
            checked += 1
            problems += len(found)
            for problem in found:
                self.stdout.write(f"game {game.pk} ({game.engine}): {problem}")
        # The summary's shape is fixed (scripts read it): always "N games, K problems".
        self.stdout.write(f"{checked} games, {problems} problems")
        if problems:
            raise CommandError("some games contradict their log or their clocks", returncode=1)
