"""``python manage.py standings --input state.json --tiebreaks a,b,c --json``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.formats import FormatError
from tournaments.formats.json_api import standings_json
from tournaments.management.commands._json_io import read_state


class Command(BaseCommand):
    help = "Rank a Swiss or round-robin state by points, then the tie-breaks in order."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--input", required=True, help="state file, or - for stdin")
        parser.add_argument("--tiebreaks", default="", help="comma-separated keys, in order")
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        keys = [key.strip() for key in options["tiebreaks"].split(",") if key.strip()]
        try:
            result = standings_json(read_state(options["input"]), keys)
        except FormatError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))
