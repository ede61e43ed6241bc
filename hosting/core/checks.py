"""What ``check_games`` and ``check_tournaments`` share: count and print the problems found,
one a line, then the summary, and fail (exit status 1) when there is any."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from django.core.management.base import BaseCommand, CommandError

Checked = TypeVar("Checked")


def report(
    command: BaseCommand,
    found: Iterable[tuple[Checked, list[str]]],
    *,
    name: Callable[[Checked], str],
    noun: str,
    failure: str,
) -> None:
    """Write each problem of ``found`` as ``"<name>: <problem>"``, then ``"N <noun>, K
    problems"``; raise ``CommandError(failure)`` (exit status 1) if there was any."""
    checked = problems = 0
    for item, item_problems in found:
        checked += 1
        problems += len(item_problems)
        for problem in item_problems:
            command.stdout.write(f"{name(item)}: {problem}")
    # The summary's shape is fixed (scripts read it): always "N <noun>, K problems".
    command.stdout.write(f"{checked} {noun}, {problems} problems")
    if problems:
        raise CommandError(failure, returncode=1)
