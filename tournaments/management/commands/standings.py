"""``python manage.py standings --input state.json --tiebreaks a,b,c --json``, or
``python manage.py standings --tournament SLUG``: the table ``GET …/standings`` answers."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.errors import UserError
from tournaments.formats import FormatError
from tournaments.formats.json_api import placements_json, standings_json
from tournaments.management.commands._json_io import read_state


class Command(BaseCommand):
    help = (
        "Rank a Swiss or round-robin state by points and tie-breaks, a bracket or Genius "
        "season state by placements, or a stored tournament (--tournament)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--input", help="state file, or - for stdin")
        source.add_argument("--tournament", metavar="SLUG", help="a stored tournament")
        parser.add_argument("--tiebreaks", default="", help="comma-separated keys, in order")
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["tournament"]:
                result = self.stored(options["tournament"])
            else:
                result = self.from_state(read_state(options["input"]), options["tiebreaks"])
        except (FormatError, UserError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))

    def from_state(self, state: dict[str, Any], tiebreaks: str) -> dict[str, Any]:
        # A state naming a knockout format or a season is ranked by placements.
        if "format" in state:
            return placements_json(state)
        keys = [key.strip() for key in tiebreaks.split(",") if key.strip()]
        return standings_json(state, keys)

    def stored(self, slug: str) -> dict[str, Any]:
        from tournaments import services
        from tournaments.models import Tournament

        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        return services.standings_table(tournament=tournament)
