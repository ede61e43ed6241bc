"""``check_tournaments``: every tournament against the rules a bracket must keep."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from hosting.core.checks import report
from tournaments.checks import all_problems


class Command(BaseCommand):
    help = (
        "Check every tournament: each match holds the winners/losers of its feeders, statuses "
        "agree, standings agree with the results, currency balances equal their entries. "
        "Prints 'N tournaments, 0 problems' or the problems, one a line (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report(
            self,
            all_problems(),
            name=lambda tournament: tournament.slug,
            noun="tournaments",
            failure="some tournaments contradict themselves",
        )
