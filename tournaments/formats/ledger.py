"""Season currencies (garnets, or any other) as an append-only ledger of entries with reasons.

Balances are never stored: they are the sum of the entries. Every function here validates a
new entry against the balances so far and returns the ledger with it appended; no entry may
leave anyone below zero. Amounts are whole units.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError

Kind = Literal["award", "transfer", "spend", "confiscate"]
GARNETS = "garnets"


@dataclass(frozen=True)
class LedgerEntry:
    """``player`` gains (award) or loses (the rest) ``amount``; a transfer pays ``to``."""

    kind: Kind
    player: int
    amount: int
    reason: str
    to: int | None = None
    currency: str = GARNETS
    episode: int | None = None


Ledger = tuple[LedgerEntry, ...]


def balances(ledger: Iterable[LedgerEntry], currency: str = GARNETS) -> dict[int, int]:
    """Everyone's balance in ``currency``; players with no entries are absent (zero)."""
    totals: dict[int, int] = {}
    for entry in ledger:
        if entry.currency != currency:
            continue
        sign = 1 if entry.kind == "award" else -1
        totals[entry.player] = totals.get(entry.player, 0) + sign * entry.amount
        if entry.to is not None:
            totals[entry.to] = totals.get(entry.to, 0) + entry.amount
    return totals


def balance(ledger: Iterable[LedgerEntry], player: int, currency: str = GARNETS) -> int:
    return balances(ledger, currency).get(player, 0)


def _check(amount: int, reason: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise FormatError(
            Message(
                gettext_noop("an amount must be a positive whole number, got {amount!r}"),
                amount=amount,
            )
        )
    if not reason or not reason.strip():
        raise FormatError(Message(gettext_noop("every ledger entry needs a reason")))


def _covered(ledger: Ledger, player: int, amount: int, currency: str) -> None:
    held = balance(ledger, player, currency)
    if held < amount:
        raise FormatError(
            Message(
                gettext_noop("player {player} has {held} {currency}, not the {amount} needed"),
                player=player,
                held=held,
                currency=currency,
                amount=amount,
            )
        )


def award(
    ledger: Ledger,
    player: int,
    amount: int,
    reason: str,
    *,
    currency: str = GARNETS,
    episode: int | None = None,
) -> Ledger:
    _check(amount, reason)
    return (*ledger, LedgerEntry("award", player, amount, reason, None, currency, episode))


def transfer(
    ledger: Ledger,
    player: int,
    to: int,
    amount: int,
    reason: str,
    *,
    currency: str = GARNETS,
    episode: int | None = None,
) -> Ledger:
    _check(amount, reason)
    if player == to:
        raise FormatError(
            Message(
                gettext_noop("player {player} cannot transfer {currency} to themselves"),
                player=player,
                currency=currency,
            )
        )
    _covered(ledger, player, amount, currency)
    return (*ledger, LedgerEntry("transfer", player, amount, reason, to, currency, episode))


def spend(
    ledger: Ledger,
    player: int,
    amount: int,
    reason: str,
    *,
    currency: str = GARNETS,
    episode: int | None = None,
) -> Ledger:
    _check(amount, reason)
    _covered(ledger, player, amount, currency)
    return (*ledger, LedgerEntry("spend", player, amount, reason, None, currency, episode))


CONFISCATED = "eliminated: confiscated"
TO_DM_WINNER = "eliminated: to the Death Match winner"
RETURNED = "reinstated: the elimination's settlement returned"


def settle_elimination(
    ledger: Ledger,
    eliminated: int,
    winner: int,
    rule: Literal["confiscated", "to_dm_winner"],
    *,
    currency: str = GARNETS,
    episode: int | None = None,
) -> Ledger:
    """Apply the season's rule to an eliminated player's whole balance (nothing if empty)."""
    held = balance(ledger, eliminated, currency)
    if held == 0:
        return ledger
    if rule == "confiscated":
        entry = LedgerEntry("confiscate", eliminated, held, CONFISCATED, None, currency, episode)
    else:
        entry = LedgerEntry(
            "transfer", eliminated, held, TO_DM_WINNER, winner, currency, episode,
        )  # fmt: skip
    return (*ledger, entry)


def outstanding_settlement(ledger: Ledger, player: int, episode: int) -> LedgerEntry | None:
    """The entry that settled ``player``'s elimination in ``episode``, unless it was
    returned since (a ruling reinstated them); ``None`` when nothing was settled."""
    settled = [
        e
        for e in ledger
        if e.player == player and e.episode == episode and e.reason in (CONFISCATED, TO_DM_WINNER)
    ]
    returned = [
        e
        for e in ledger
        if e.episode == episode
        and e.reason == RETURNED
        and (e.to if e.kind == "transfer" else e.player) == player
    ]
    return settled[-1] if len(settled) > len(returned) else None


def return_settlement(ledger: Ledger, player: int, episode: int) -> Ledger:
    """A reinstated player gets back what their elimination in ``episode`` took, by new
    entries (the ledger is append-only): a confiscation is awarded back, a transfer is paid
    back by the Death Match winner who received it, which fails if they no longer hold it."""
    entry = outstanding_settlement(ledger, player, episode)
    if entry is None:
        return ledger
    if entry.kind == "confiscate":
        return award(
            ledger, player, entry.amount, RETURNED, currency=entry.currency, episode=episode
        )
    if entry.to is None:
        raise FormatError(f"the settlement of player {player}'s elimination names no winner")
    return transfer(
        ledger, entry.to, player, entry.amount, RETURNED, currency=entry.currency, episode=episode
    )
