"""``python manage.py verify_game <id>``: replay a finished game's log from its revealed seed."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import GameSession
from games.verification import verify_game
from hosting.errors import UserError


class Command(BaseCommand):
    help = "Check that a finished game's seed matches its commitment and its log replays exactly."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        game = GameSession.objects.filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"no game {options['game_id']}")
        try:
            report = verify_game(game)
        except UserError as error:
            raise CommandError(error.message) from None
        if options["json"]:
            self.stdout.write(json.dumps(report))
        else:
            self.stdout.write(
                f"game {game.pk}: seed matches its SHA-256: {report['seed_matches_commitment']}; "
                f"{report['replayed_actions']} actions replayed; "
                f"final state matches: {report['final_state_matches']}"
            )
        if not report["verified"]:
            raise CommandError(f"game {game.pk} does NOT verify")
        self.stdout.write(f"game {game.pk} verified")
