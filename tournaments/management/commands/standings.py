"""``python manage.py standings --input state.json --tiebreaks a,b,c --json``, or
``python manage.py standings --tournament SLUG``: the table ``GET …/standings`` answers.

``manage.py`` runs the ``--input`` mode through ``tournaments.formats.cli`` without setting
Django up; ``--tournament`` reads the database and comes here.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.core.errors import UserError
from tournaments.formats import FormatError, cli
from tournaments.tiebreaks import check_regulations


class Command(BaseCommand):
    help = cli.STANDINGS_HELP

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_standings_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["tournament"]:
                regulations = options["regulations"]
                if regulations is not None:
                    check_regulations(regulations)
                result = self.stored(options["tournament"], regulations)
            else:
                result = cli.standings(options)
        except (FormatError, UserError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))

    def stored(self, slug: str, regulations: str | None) -> dict[str, Any]:
        # Only this mode reads the database: the pure modes start without loading the service.
        from tournaments import services
        from tournaments.models import Tournament

        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        return services.standings_table(tournament=tournament, regulations=regulations)
