"""What a corrected result changes downstream in a bracket, and whether a bracket is whole.

A bracket match's slots are seeds, byes (``None``) or references ``"W1.1:winner"`` to an earlier
match (see ``bracket``). Given every match as the host holds it, ``expected`` works out from
the feeders what each match should hold: its two entrants, and whether it is decided by
itself (a bye, or a bracket reset that is not needed). A match that keeps its pair keeps its
result. ``repair`` does the same with one match's result replaced and lists what the host must
change: matches that had started (a result or a game) and now hold a different pair are
**reset**, those that held entrants but had not started are **refilled**. ``problems`` checks
a bracket against itself.

Matches without references (first rounds, round robin, Swiss pairings, Death Matches) are
roots: they hold what they were given. A seed next to a reference (a bye's winner placed
straight into round 2) keeps what it was given once the match is filled, else it is looked
up in ``seeds``. Entrants are opaque ids; nothing here knows a row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError

SlotJSON = int | str | None


@dataclass(frozen=True)
class Held:
    """One match as the host holds it."""

    code: str
    slots: tuple[SlotJSON, SlotJSON]
    home: int | None = None
    away: int | None = None
    winner: int | None = None
    loser: int | None = None
    filled: bool = False  # its entrants are known (it no longer waits for its feeders)
    decided: bool = False  # finished, or closed (a bye, an unneeded reset)
    started: bool = False  # a result or a hosted game: changing its pair throws that away
    # A bracket reset (GF2) is played only when its first feeder was won by this slot (1 or 2).
    played_if_won_by_slot: int | None = None


@dataclass(frozen=True)
class Expected:
    home: int | None
    away: int | None
    winner: int | None
    loser: int | None
    filled: bool
    decided: bool

    @property
    def pair(self) -> tuple[int | None, int | None] | None:
        return (self.home, self.away) if self.filled else None


@dataclass(frozen=True)
class Repair:
    resets: tuple[str, ...]  # started matches whose pair changes: result cleared, games void
    refills: tuple[str, ...]  # matches whose entrants change before anything was played


WAITING = Expected(None, None, None, None, filled=False, decided=False)
_UNKNOWN = object()


def _ref(slot: SlotJSON) -> tuple[str, str] | None:
    if isinstance(slot, str):
        code, _, outcome = slot.partition(":")
        return code, outcome
    return None


def _index(matches: Sequence[Held]) -> dict[str, Held]:
    by_code = {m.code: m for m in matches}
    for match in matches:
        for slot in match.slots:
            ref = _ref(slot)
            if ref and ref[0] not in by_code:
                raise FormatError(
                    Message(
                        gettext_noop("{code} refers to {ref}, which is not in the bracket"),
                        code=match.code,
                        ref=ref[0],
                    )
                )
    return by_code


def _as_held(match: Held) -> Expected:
    return Expected(match.home, match.away, match.winner, match.loser, match.filled, match.decided)


def expected(
    matches: Sequence[Held],
    seeds: Mapping[int, int | None],
    override: tuple[str, int | None, int | None] | None = None,
    *,
    undecided: bool = False,
) -> dict[str, Expected]:
    """What every match should hold given its feeders; ``override`` is ``(code, winner,
    loser)``, a result that replaces what the host holds for that match (with ``undecided``:
    the match has no result any more, it is to be played again)."""
    by_code = _index(matches)
    settled: dict[str, Expected] = {}

    def settle(code: str, trail: tuple[str, ...] = ()) -> Expected:
        if code not in settled:
            if code in trail:
                raise FormatError(
                    Message(gettext_noop("the bracket loops through {code}"), code=code)
                )
            match = by_code[code]
            if override and override[0] == code:
                settled[code] = replace(
                    _as_held(match), winner=override[1], loser=override[2], decided=not undecided
                )
            elif not any(_ref(slot) for slot in match.slots):
                settled[code] = _as_held(match)
            else:
                settled[code] = _from_feeders(match, seeds, lambda c: settle(c, (*trail, code)))
        return settled[code]

    for code in by_code:
        settle(code)
    return settled


def _from_feeders(
    match: Held, seeds: Mapping[int, int | None], settle: Callable[[str], Expected]
) -> Expected:
    sides: list[object] = []
    for index, slot in enumerate(match.slots):
        ref = _ref(slot)
        if ref is not None:
            source = settle(ref[0])
            if not source.decided:
                return WAITING
            sides.append(source.winner if ref[1] == "winner" else source.loser)
        elif slot is None:
            sides.append(None)
        elif match.filled:
            sides.append((match.home, match.away)[index])
        else:
            sides.append(seeds.get(slot))
    home, away = sides  # type: ignore[misc]
    fresh = _fresh(match, home, away, settle)  # type: ignore[arg-type]
    if not fresh.decided and match.filled and (match.home, match.away) == (home, away):
        return _as_held(match)  # same pair: its result (or its game under way) stands
    return fresh


def _fresh(
    match: Held, home: int | None, away: int | None, settle: Callable[[str], Expected]
) -> Expected:
    """A match whose entrants just became known, before anything is played."""
    if home is None or away is None:
        present = away if home is None else home
        return Expected(home, away, present, None, filled=True, decided=True)  # a bye
    if match.played_if_won_by_slot is not None:
        source = settle(_ref(match.slots[0])[0])  # type: ignore[index]
        won_by = 1 if source.winner == source.home else 2
        if won_by != match.played_if_won_by_slot:
            return Expected(home, away, None, None, filled=True, decided=True)  # not needed
    return Expected(home, away, None, None, filled=True, decided=False)


def repair(
    matches: Sequence[Held],
    seeds: Mapping[int, int | None],
    code: str,
    winner: int | None,
    loser: int | None,
    *,
    undecided: bool = False,
) -> Repair:
    """What changes when ``code``'s result becomes ``winner``/``loser`` (``None`` for a draw),
    or, ``undecided``, when its result is taken away for the match to be played again."""
    by_code = _index(matches)
    if code not in by_code:
        raise FormatError(Message(gettext_noop("no match {code!r} in the bracket"), code=code))
    before = expected(matches, seeds)
    after = expected(matches, seeds, (code, winner, loser), undecided=undecided)
    resets, refills = [], []
    for other in by_code:
        held = by_code[other]
        # A match still waiting for its feeders holds nothing to change: it fills later.
        if other == code or not held.filled or after[other].pair == before[other].pair:
            continue
        (resets if held.started else refills).append(other)
    return Repair(
        tuple(sorted(resets, key=bracket_order)), tuple(sorted(refills, key=bracket_order))
    )


def bracket_order(code: str) -> tuple[int, str, tuple[int, ...]]:
    """Winners, losers, then finals; by round, then match: the order a person reads them in."""
    prefix = code.rstrip("0123456789.")
    numbers = tuple(int(part) for part in code[len(prefix) :].split(".") if part.isdigit())
    rank = {"W": 0, "L": 1, "P": 2, "GF": 3}.get(prefix, 4)
    return rank, prefix, numbers


def problems(
    matches: Sequence[Held],
    seeds: Mapping[int, int | None],
    *,
    draws: bool = False,
    names: Mapping[int, str] | None = None,
) -> list[str]:
    """Where a bracket contradicts itself: every match holds what its feeders decided, a bye
    or an unneeded reset is closed, and a result names the match's own two entrants.
    ``names`` says who an entrant id is in the messages ("entrant 7" otherwise)."""
    found = []

    def shown(state: Expected) -> str:
        if not state.filled:
            return "no entrants yet"
        return f"{who(state.home)} v {who(state.away)}"

    def who(entrant: int | None) -> str:
        if entrant is None:
            return "a bye"
        return (names or {}).get(entrant, f"entrant {entrant}")

    should_be = expected(matches, seeds)
    for match in sorted(matches, key=lambda m: bracket_order(m.code)):
        should = should_be[match.code]
        held = _as_held(match)
        if held.pair != should.pair:
            found.append(f"{match.code} holds {shown(held)}; its feeders make it {shown(should)}")
        elif held.decided != should.decided and (held.home is None or held.away is None):
            found.append(f"{match.code} is a bye but is not closed")
        elif should.decided and not held.decided:
            found.append(f"{match.code} is not needed but is still open")
        elif should.decided and (held.winner, held.loser) != (should.winner, should.loser):
            found.append(f"{match.code} is closed with the wrong winner")
        elif held.decided and held.home is not None and held.away is not None:
            found.extend(_result_problems(match, draws))
        elif not held.decided and (held.winner or held.loser):
            found.append(f"{match.code} is not decided but names a winner")
    return found


def _result_problems(match: Held, draws: bool) -> list[str]:
    if match.winner is None and match.loser is None:
        if draws or match.played_if_won_by_slot is not None:
            return []  # a draw where draws count, or a closed bracket reset
        return [Message(gettext_noop("{code} is decided without a winner"), code=match.code)]
    pair = {match.home, match.away}
    if match.winner not in pair or match.loser not in pair or match.winner == match.loser:
        return [
            Message(
                gettext_noop("{code}'s winner and loser are not its own two entrants"),
                code=match.code,
            )
        ]
    return []
