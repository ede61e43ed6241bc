"""``python manage.py swiss --input state.json --json``: pair the next Swiss round."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.formats import FormatError
from tournaments.formats.json_api import swiss_json
from tournaments.management.commands._json_io import read_state


class Command(BaseCommand):
    help = "Pair the next round of a Swiss event from its JSON state (docs/formats-json.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--input", required=True, help="state file, or - for stdin")
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = swiss_json(read_state(options["input"]))
        except FormatError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))
