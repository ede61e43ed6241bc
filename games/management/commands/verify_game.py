"""``python manage.py verify_game <id>``: recompute every part of an ended game's deal (the
revealed server seed against its commitment, the effective seed from it and the client
seeds) and replay its log from that seed."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import GameSession
from games.verification import verify_game
from hosting.core.errors import UserError


class Command(BaseCommand):
    help = (
        "Check that an ended game's server seed matches its commitment, that its effective seed "
        "follows from it and the client seeds, and that its log replays exactly from it."
    )

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
            self._explain(game.pk, report)
        if not report["verified"]:
            raise CommandError(f"game {game.pk} does NOT verify")
        self.stdout.write(f"game {game.pk} verified")

    def _explain(self, game_id: int, report: dict[str, Any]) -> None:
        write = self.stdout.write
        write(f"game {game_id}")
        write(f"  server seed:    {report['seed']}")
        write(f"  commitment:     {report['seed_sha256']}")
        write(f"  seed matches its SHA-256: {report['seed_matches_commitment']}")
        for part in report["client_seeds"]:
            write(f"  client seed of seat {part['seat']} ({part['name']}): {part['client_seed']!r}")
        write(f"  construction:   {report['construction']}")
        if report["client_seed_message"] is not None:
            write(f"  HMAC message:   {report['client_seed_message']}")
        write(f"  effective seed: {report['effective_seed']}")
        write(
            f"  effective seed is the one the game dealt from: {report['effective_seed_matches']}"
        )
        write(
            f"  {report['replayed_actions']} actions replayed; "
            f"final state matches: {report['final_state_matches']}"
        )
