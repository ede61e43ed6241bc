"""Double elimination: a winners bracket, a losers bracket and an optional grand final.

For a bracket of size ``P = 2^k`` the winners bracket has ``k`` rounds (``P-1`` matches) and
the losers bracket ``2(k-1)`` rounds (``P-2`` matches). Losers-bracket round 1 pairs the
first-round losers of neighbouring winners matches; every even losers round takes the losers
of the next winners round ("drop" rounds) and every odd one after it halves the field.

Losers drop in the crossed order: the first drop round takes them in reverse order, the next
swaps the two halves, and so on alternating. A player dropping down therefore meets someone
from the far side of the winners bracket, never an opponent they just played.

Grand final: ``none`` (the two bracket champions are the result), ``single`` (one match), or
``reset`` (a second match that is played only when the losers-bracket champion wins the first,
and is closed otherwise; see ``reset_needed``).
"""

from __future__ import annotations

from games.engines.messages import Message, gettext_noop
from tournaments.formats.bracket import (
    Bracket,
    Match,
    Ref,
    Round,
    Slot,
    next_power_of_two,
    resolve_byes,
)
from tournaments.formats.errors import FormatError
from tournaments.formats.single_elimination import check_entrants, knockout_rounds

KEY = "double_elimination"
LABEL = "Double elimination"
GRAND_FINALS = ("none", "single", "reset")
# Slot of the first grand final that holds the losers-bracket champion.
LOSERS_CHAMPION_SLOT = 2


def drop_order(count: int, drop_number: int) -> list[int]:
    """Indices (0-based) of the winners-round matches whose losers fill drop round ``n``."""
    indices = list(range(count))
    if drop_number % 2 == 1:
        return indices[::-1]
    half = count // 2
    return indices[half:] + indices[:half]


def losers_rounds(winners: list[Round]) -> list[Round]:
    def losers_of(round_: Round) -> list[Slot]:
        return [Ref(m.id, "loser") for m in round_.matches]

    def pair_up(number: int, slots: list[Slot]) -> Round:
        return Round(
            number,
            tuple(
                Match(f"L{number}.{i + 1}", (slots[2 * i], slots[2 * i + 1]))
                for i in range(len(slots) // 2)
            ),
        )

    rounds = [pair_up(1, losers_of(winners[0]))]
    for drop_number, winners_round in enumerate(winners[1:], start=1):
        number = len(rounds) + 1
        survivors = [Ref(m.id, "winner") for m in rounds[-1].matches]
        dropping = losers_of(winners_round)
        order = drop_order(len(dropping), drop_number)
        rounds.append(
            Round(
                number,
                tuple(
                    Match(f"L{number}.{i + 1}", (dropping[order[i]], survivor))
                    for i, survivor in enumerate(survivors)
                ),
            )
        )
        if len(rounds[-1].matches) > 1:
            rounds.append(pair_up(number + 1, [Ref(m.id, "winner") for m in rounds[-1].matches]))
    return rounds


def final_bracket(winners_champion: Ref, losers_champion: Ref, grand_final: str) -> Bracket:
    first = Match("GF1", (winners_champion, losers_champion))
    rounds = [Round(1, (first,))]
    if grand_final == "reset":
        reset = Match(
            "GF2",
            (Ref("GF1", "winner"), Ref("GF1", "loser")),
            {"reset": True, "played_if_won_by_slot": LOSERS_CHAMPION_SLOT},
        )
        rounds.append(Round(2, (reset,)))
    return Bracket("final", tuple(rounds))


def reset_needed(first_final_winner_slot: int) -> bool:
    """Whether GF2 is played: only when the losers-bracket champion won GF1 (else closed)."""
    if first_final_winner_slot not in (1, 2):
        raise FormatError(
            Message(
                gettext_noop(
                    "the grand-final winner slot is 1 or 2, got {first_final_winner_slot!r}"
                ),
                first_final_winner_slot=first_final_winner_slot,
            )
        )
    return first_final_winner_slot == LOSERS_CHAMPION_SLOT


def generate(n: int, *, grand_final: str = "single") -> list[Bracket]:
    """The ``winners``, ``losers`` and (unless ``none``) ``final`` brackets for ``n`` entrants."""
    check_entrants(n)
    if grand_final not in GRAND_FINALS:
        raise FormatError(
            Message(
                gettext_noop("grand final must be one of {grand_finals}; got {grand_final!r}"),
                grand_finals=", ".join(GRAND_FINALS),
                grand_final=grand_final,
            )
        )
    size = next_power_of_two(n)
    winners = knockout_rounds(size, n, "W")
    winners_champion = Ref(winners[-1].matches[0].id, "winner")
    if size == 2:
        # Two entrants: the loser of the only match is the losers-bracket champion.
        brackets = [Bracket("winners", tuple(winners)), Bracket("losers", ())]
        losers_champion = Ref(winners[0].matches[0].id, "loser")
    else:
        losers = losers_rounds(winners)
        brackets = [Bracket("winners", tuple(winners)), Bracket("losers", tuple(losers))]
        losers_champion = Ref(losers[-1].matches[0].id, "winner")
    if grand_final != "none":
        brackets.append(final_bracket(winners_champion, losers_champion, grand_final))
    return resolve_byes(brackets)
