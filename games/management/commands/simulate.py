"""``python manage.py simulate ENGINE --games N --seed S [--players K] [--json]``.

Plays random legal games through the engine protocol only. Without ``--bench`` it checks every
invariant of ``games.engines.conformance``; with it, it times play alone. ENGINE is a registry
key (``color_clash``), the dotted path of a module exposing ``ENGINE``, or ``module:Name``.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engines
from games.engines import conformance
from games.engines.base import ConfigError, Engine


def load_engine(name: str) -> Engine:
    """A registry key, ``package.module`` (its ``ENGINE``) or ``package.module:Name``."""
    if name in engines.known_keys():
        return engines.get(name)
    if "." not in name:
        known = ", ".join(engines.known_keys()) or "none"
        raise CommandError(f"unknown engine {name!r}; known: {known}")
    module_name, _, attribute = name.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), attribute or "ENGINE")
    except (ImportError, AttributeError) as error:
        raise CommandError(f"cannot load an engine from {name!r}: {error}") from None
    return found() if isinstance(found, type) else found


class Command(BaseCommand):
    help = "Play random legal games through the engine protocol and check its invariants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("engine", help="engine key, or dotted path of a module with ENGINE")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", default="1")
        parser.add_argument("--players", type=int, help="seats per game (default: the minimum)")
        parser.add_argument("--config", default="{}", help="engine config as a JSON object")
        parser.add_argument("--json", action="store_true", help="end with one JSON line")
        parser.add_argument("--bench", action="store_true", help="skip the checks; time play")
        parser.add_argument("--trace", metavar="FILE", help="write every step as JSON lines")
        parser.add_argument(
            "--timeout-rate",
            type=float,
            default=0.0,
            help="probability per step that a clock runs out (exercises timeout_action)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        engine = load_engine(options["engine"])
        seats = options["players"] or engine.min_seats
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            config = json.loads(options["config"])
        except json.JSONDecodeError as error:
            raise CommandError(f"--config is not JSON: {error}") from None
        if not isinstance(config, dict):
            raise CommandError("--config must be a JSON object")

        trace_file = open(options["trace"], "w") if options["trace"] else None  # noqa: SIM115
        sink = (lambda line: trace_file.write(json.dumps(line) + "\n")) if trace_file else None
        try:
            report = conformance.simulate(
                engine,
                games=options["games"],
                seed=options["seed"],
                seats=seats,
                config=config,
                check=not options["bench"],
                timeout_rate=options["timeout_rate"],
                trace=sink,
            )
        except ConfigError as error:
            raise CommandError(f"invalid config: {error}") from None
        finally:
            if trace_file:
                trace_file.close()

        mode = "timed (no checks)" if options["bench"] else "checked"
        self.stdout.write(
            f"{engine.key}: {report.games} games, {seats} seats, {report.actions} actions, {mode}"
        )
        self.stdout.write(
            f"{report.games_per_second:.1f} games/s, {report.actions_per_second:.0f} actions/s"
        )
        self.stdout.write(f"invariant failures: {report.invariant_failures}")
        for failure in report.failures[:10]:
            self.stdout.write(f"  {failure}")
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json()))
        if report.invariant_failures:
            raise CommandError(f"{report.invariant_failures} game(s) broke an invariant")
