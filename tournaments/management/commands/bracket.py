"""``python manage.py bracket --format FORMAT --participants N [options] --json``.

``manage.py`` runs this command through ``tournaments.formats.cli`` without setting Django up;
this class is the same command for ``call_command`` and ``manage.py help``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.formats import FormatError, cli


class Command(BaseCommand):
    help = cli.BRACKET_HELP

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_bracket_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = cli.bracket(options)
        except FormatError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result))
