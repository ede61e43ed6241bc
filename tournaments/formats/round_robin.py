"""Round robin with the FIDE Berger tables (Handbook C.05, Annex 1).

For an even number ``n`` of players, player ``n`` stays fixed on board 1 and every other
pairing number moves on by ``n/2`` (modulo ``n-1``) each round, keeping its side; player ``n``
has black in odd rounds and white in even ones. This reproduces the published tables exactly,
board order included. An odd number of players adds a dummy ``n+1``: meeting it is the bye.
The second cycle of a double round robin repeats the first with colours reversed.
"""

from __future__ import annotations

from games.engines.messages import Message, gettext_noop
from tournaments.formats.bracket import Bracket, Match, Round
from tournaments.formats.errors import FormatError

KEY = "round_robin"
LABEL = "Round robin"


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` (even) players: per round, (white, black) by board."""
    fixed, modulus, shift = n, n - 1, n // 2

    def advance(player: int, steps: int) -> int:
        return (player - 1 + steps * shift) % modulus + 1

    first = [(i, n + 1 - i) for i in range(2, n // 2 + 1)]
    table = []
    for r in range(n - 1):
        partner = advance(1, r)
        board_one = (partner, fixed) if r % 2 == 0 else (fixed, partner)
        table.append([board_one, *((advance(w, r), advance(b, r)) for w, b in first)])
    return table


def check_players(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise FormatError(
            Message(gettext_noop("a round robin needs at least 2 players, got {n!r}"), n=n)
        )


def schedule(n: int, cycles: int = 1) -> list[list[tuple[int, int | None]]]:
    """Pairings of ``n`` players over ``cycles`` cycles; ``(p, None)`` is p's bye."""
    check_players(n)
    if isinstance(cycles, bool) or cycles not in (1, 2):
        raise FormatError(
            Message(
                gettext_noop("cycles must be 1 (single) or 2 (double round robin), got {cycles!r}"),
                cycles=cycles,
            )
        )
    size = n + n % 2
    table = [
        [(w, b if b <= n else None) if w <= n else (b, None) for w, b in round_]
        for round_ in berger_rounds(size)
    ]
    if cycles == 2:
        table += [[(b, w) if b is not None else (w, b) for w, b in round_] for round_ in table]
    return table


def snake_groups(n: int, groups: int) -> list[list[int]]:
    """Seeds dealt into groups in snake order (1..g, g..1, ...) so groups are balanced."""
    if groups * 2 > n:
        raise FormatError(
            Message(
                gettext_noop("{groups} groups need at least {least} players, got {n}"),
                groups=groups,
                least=2 * groups,
                n=n,
            )
        )
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for index, seed in enumerate(range(1, n + 1)):
        lap, position = divmod(index, groups)
        dealt[position if lap % 2 == 0 else groups - 1 - position].append(seed)
    return dealt


def group_bracket(name: str, prefix: str, seeds: list[int], cycles: int) -> Bracket:
    """One group's rounds; slots are the tournament seeds, first slot white/home."""
    table = schedule(len(seeds), cycles)

    def seed(local: int | None) -> int | None:
        return None if local is None else seeds[local - 1]

    return Bracket(
        name,
        tuple(
            Round(
                r + 1,
                tuple(
                    Match(f"{prefix}{r + 1}.{board + 1}", (seed(w), seed(b)))
                    for board, (w, b) in enumerate(round_)
                ),
            )
            for r, round_ in enumerate(table)
        ),
    )


def generate(n: int, *, cycles: int = 1, groups: int = 1) -> list[Bracket]:
    """One ``main`` bracket, or groups ``A``, ``B``, ... with match ids ``A1.1``, ``B1.1``."""
    check_players(n)
    if isinstance(groups, bool) or not isinstance(groups, int) or not 1 <= groups <= 26:
        raise FormatError(
            Message(
                gettext_noop("groups must be a whole number from 1 to 26, got {groups!r}"),
                groups=groups,
            )
        )
    if groups == 1:
        return [group_bracket("main", "R", list(range(1, n + 1)), cycles)]
    return [
        group_bracket(f"group {chr(65 + g)}", chr(65 + g), seeds, cycles)
        for g, seeds in enumerate(snake_groups(n, groups))
    ]
