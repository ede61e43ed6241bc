"""``python manage.py bracket --format FORMAT --participants N [options] --json``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.formats import FormatError
from tournaments.formats.json_api import bracket_json


class Command(BaseCommand):
    help = "Print the bracket or round-robin schedule for N seeds (shape: docs/formats-json.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--format",
            required=True,
            choices=["single_elimination", "double_elimination", "round_robin"],
        )
        parser.add_argument("--participants", type=int, required=True)
        parser.add_argument("--third-place", action="store_true")
        parser.add_argument("--grand-final", choices=["none", "single", "reset"], default="single")
        parser.add_argument("--cycles", type=int, choices=[1, 2], default=1)
        parser.add_argument("--groups", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="print JSON (the default)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = bracket_json(
                options["format"],
                options["participants"],
                third_place=options["third_place"],
                grand_final=options["grand_final"],
                cycles=options["cycles"],
                groups=options["groups"],
            )
        except FormatError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))
