"""Single elimination: a knockout bracket for any number of entrants.

The bracket is padded to the next power of two; the missing seeds are byes, and standard
seeding places them against the top seeds. An optional third-place match is played by the
two semi-final losers.
"""

from __future__ import annotations

from games.engines.messages import Message, gettext_noop
from tournaments.formats.bracket import (
    Bracket,
    Match,
    Ref,
    Round,
    next_power_of_two,
    resolve_byes,
    standard_seed_order,
)
from tournaments.formats.errors import FormatError

KEY = "single_elimination"
LABEL = "Single elimination"
THIRD_PLACE_ID = "P3"


def check_entrants(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise FormatError(
            Message(
                gettext_noop("an elimination bracket needs at least 2 entrants, got {n!r}"), n=n
            )
        )


def first_round(size: int, n: int, prefix: str) -> Round:
    """Round 1 of a ``size`` bracket; seeds above ``n`` are byes (``None``)."""
    lines = [seed if seed <= n else None for seed in standard_seed_order(size)]
    return Round(
        1,
        tuple(
            Match(f"{prefix}1.{i + 1}", (lines[2 * i], lines[2 * i + 1])) for i in range(size // 2)
        ),
    )


def knockout_rounds(size: int, n: int, prefix: str) -> list[Round]:
    """Every round of a knockout bracket: winners of neighbouring matches meet next."""
    rounds = [first_round(size, n, prefix)]
    while len(rounds[-1].matches) > 1:
        previous = rounds[-1].matches
        number = len(rounds) + 1
        rounds.append(
            Round(
                number,
                tuple(
                    Match(
                        f"{prefix}{number}.{i + 1}",
                        (Ref(previous[2 * i].id, "winner"), Ref(previous[2 * i + 1].id, "winner")),
                    )
                    for i in range(len(previous) // 2)
                ),
            )
        )
    return rounds


def generate(n: int, *, third_place: bool = False) -> list[Bracket]:
    """The ``main`` bracket for ``n`` entrants, with the third-place match in the last round."""
    check_entrants(n)
    size = next_power_of_two(n)
    if third_place and size < 4:
        raise FormatError(
            Message(gettext_noop("a third-place match needs at least 3 entrants (two semi-finals)"))
        )
    rounds = knockout_rounds(size, n, "W")
    if third_place:
        semi_finals = rounds[-2].matches
        bronze = Match(THIRD_PLACE_ID, tuple(Ref(m.id, "loser") for m in semi_finals))
        rounds[-1] = Round(rounds[-1].number, (*rounds[-1].matches, bronze))
    return resolve_byes([Bracket("main", tuple(rounds))])
