"""``check_games``: every hosted game against what its log, seed and clocks say it must be."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.checks import all_problems
from hosting.core.checks import report


class Command(BaseCommand):
    help = (
        "Check every game: its log is contiguous and its version is the log's length, "
        "replaying the log from the seed gives the stored state and outcome, clocks and "
        "windows agree with the rules, and no game that is over has a deadline pending. "
        "Prints 'N games, 0 problems' or the problems, one a line (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report(
            self,
            all_problems(),
            name=lambda game: f"game {game.pk} ({game.engine})",
            noun="games",
            failure="some games contradict their log or their clocks",
        )
