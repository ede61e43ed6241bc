"""``python manage.py standings --input state.json --tiebreaks a,b,c --json``, or
``python manage.py standings --tournament SLUG``: the table ``GET …/standings`` answers."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.core.errors import UserError
from tournaments.formats import FormatError
from tournaments.formats.json_api import placements_json, standings_json
from tournaments.management.commands._json_io import read_state
from tournaments.tiebreaks import DEFAULT_REGULATIONS, REGULATIONS, check_regulations


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
        parser.add_argument(
            "--regulations",
            help=f"tie-break regulations: {', '.join(REGULATIONS)} "
            f"(default: the tournament's, or {DEFAULT_REGULATIONS})",
        )
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            regulations = options["regulations"]
            if regulations is not None:
                check_regulations(regulations)
            if options["tournament"]:
                result = self.stored(options["tournament"], regulations)
            else:
                state = read_state(options["input"])
                result = self.from_state(state, options["tiebreaks"], regulations)
        except (FormatError, UserError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))

    def from_state(
        self, state: dict[str, Any], tiebreaks: str, regulations: str | None
    ) -> dict[str, Any]:
        # A state naming a knockout format or a season is ranked by placements.
        if "format" in state:
            return placements_json(state)
        keys = [key.strip() for key in tiebreaks.split(",") if key.strip()]
        return standings_json(state, keys, regulations or DEFAULT_REGULATIONS)

    def stored(self, slug: str, regulations: str | None) -> dict[str, Any]:
        # Only this mode reads the database: the pure modes start without loading the service.
        from tournaments import services
        from tournaments.models import Tournament

        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        return services.standings_table(tournament=tournament, regulations=regulations)
