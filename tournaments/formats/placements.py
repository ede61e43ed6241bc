"""Final placements where the format, not points, decides: knockouts and Genius seasons.

Each player gets a *depth*, how far they got, and players rank by depth, deepest first;
equal depths share a rank (1, 2, 3, 3, 5, 5, 5, 5). Players not yet out are deepest of all.

- Single elimination: losing in a later round is deeper. The third-place match splits the
  semi-final losers (winner 3, loser 4); without it (or before it) they share 3.
- Double elimination: only a losers-bracket loss (or the grand final) eliminates; a later
  losers round is deeper, the grand final's loser deepest of the eliminated.
- Genius season: a later episode of elimination is deeper; the final's loser is eliminated
  in the last episode, so the champion is 1 and the finalist 2.

Round labels are the match ids without their number: ``W2`` (winners/main round 2), ``L3``,
``P3`` (third-place match), ``GF1``/``GF2``. ``eliminated_in`` is the round of the last match
a player lost (``None`` while still in, and for the champion); ``round_reached`` the round of
the last match they played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.messages import Message, gettext_noop
from tournaments.formats import double_elimination, single_elimination
from tournaments.formats.bracket import Bracket, Ref
from tournaments.formats.errors import FormatError

STILL_IN = math.inf
RANKINGS = {
    single_elimination.KEY: "single elimination: the round of elimination",
    double_elimination.KEY: "double elimination: the losers-bracket round of elimination",
    "genius": "Genius season: the episode of elimination",
}


@dataclass(frozen=True)
class Result:
    """A decided, really played match (byes and closed resets are not results)."""

    winner: int
    loser: int


@dataclass(frozen=True)
class Placement:
    id: int
    rank: int
    wins: int
    eliminated_in: str | int | None
    round_reached: str | int | None


def round_label(match_id: str) -> str:
    """``"W2.1"`` -> ``"W2"``; ``"P3"``, ``"GF1"`` stay as they are."""
    return match_id.split(".")[0]


def rank_by_depth(depths: Mapping[int, tuple[float, ...]]) -> dict[int, int]:
    """Standard competition ranking (1, 2, 2, 4) by depth, deepest first."""
    ordered = sorted(depths.values(), reverse=True)
    return {player: ordered.index(depth) + 1 for player, depth in depths.items()}


def _matches(brackets: list[Bracket]) -> list[tuple[str, tuple]]:
    return [
        (match.id, match.slots)
        for bracket in brackets
        for round_ in bracket.rounds
        for match in round_.matches
    ]


def check_results(
    brackets: list[Bracket], participants: int, results: Mapping[str, Result]
) -> None:
    """Every result names a real match of the bracket and two of its entrants, in order."""
    structure = dict(_matches(brackets))
    for match_id, result in results.items():
        slots = structure.get(match_id)
        if slots is None:
            raise FormatError(
                Message(gettext_noop("no match {match_id!r} in this bracket"), match_id=match_id)
            )
        if None in slots:
            raise FormatError(
                Message(gettext_noop("{match_id} is a bye and has no result"), match_id=match_id)
            )
        for player in (result.winner, result.loser):
            if isinstance(player, bool) or not isinstance(player, int):
                raise FormatError(
                    Message(
                        gettext_noop("{match_id}: players are seed numbers, got {player!r}"),
                        match_id=match_id,
                        player=player,
                    )
                )
            if not 1 <= player <= participants:
                raise FormatError(
                    Message(
                        gettext_noop("{match_id}: there is no seed {player}"),
                        match_id=match_id,
                        player=player,
                    )
                )
        if result.winner == result.loser:
            raise FormatError(
                Message(
                    gettext_noop("{match_id}: the winner and the loser are the same seed"),
                    match_id=match_id,
                )
            )
        expected = {_entrant(slot, results) for slot in slots}
        if None not in expected and expected != {result.winner, result.loser}:
            raise FormatError(
                Message(
                    gettext_noop("{match_id} is played by seeds {expected}, not {given}"),
                    match_id=match_id,
                    expected=sorted(expected),
                    given=sorted({result.winner, result.loser}),
                )
            )


def _entrant(slot: Any, results: Mapping[str, Result]) -> int | None:
    if isinstance(slot, Ref):
        result = results.get(slot.match)
        if result is None:
            return None
        return result.winner if slot.outcome == "winner" else result.loser
    return slot


def _records(
    participants: int, brackets: list[Bracket], results: Mapping[str, Result]
) -> tuple[dict[int, int], dict[int, str | None], dict[int, str | None]]:
    """Wins, the last match lost and the last match played of every seed, in bracket order."""
    wins = dict.fromkeys(range(1, participants + 1), 0)
    lost: dict[int, str | None] = dict.fromkeys(wins)
    reached: dict[int, str | None] = dict.fromkeys(wins)
    for match_id, _slots in _matches(brackets):
        result = results.get(match_id)
        if result is None:
            continue
        wins[result.winner] += 1
        lost[result.loser] = match_id
        reached[result.winner] = reached[result.loser] = match_id
    return wins, lost, reached


def single_elimination_placements(
    participants: int, brackets: list[Bracket], results: Mapping[str, Result]
) -> list[Placement]:
    check_results(brackets, participants, results)
    wins, lost, reached = _records(participants, brackets, results)
    rounds = {m.id: r.number for b in brackets for r in b.rounds for m in r.matches}
    third_place = single_elimination.THIRD_PLACE_ID
    semi_final = max(rounds.values()) - 1
    depths: dict[int, tuple[float, ...]] = {}
    eliminated: dict[int, str | None] = {}
    for player in wins:
        last_loss = lost[player]
        if last_loss is None:
            depths[player], eliminated[player] = (STILL_IN, 0), None
        elif last_loss == third_place:
            depths[player], eliminated[player] = (semi_final, 0), third_place
        else:
            bronze = results.get(third_place)
            won_bronze = bronze is not None and bronze.winner == player
            depths[player] = (rounds[last_loss], 2 if won_bronze else 1)
            eliminated[player] = round_label(last_loss)
    return _placements(depths, wins, eliminated, reached)


def double_elimination_placements(
    participants: int, brackets: list[Bracket], results: Mapping[str, Result]
) -> list[Placement]:
    check_results(brackets, participants, results)
    wins, lost, reached = _records(participants, brackets, results)
    by_name = {b.name: b for b in brackets}
    losers_rounds = len(by_name["losers"].rounds)
    final = by_name.get("final")
    out_of_final = _grand_final_loser(final, results) if final else None
    losers_champion = None if final else _losers_champion(by_name, results)
    depths: dict[int, tuple[float, ...]] = {}
    eliminated: dict[int, str | None] = {}
    for player in wins:
        last_loss = lost[player]
        if out_of_final is not None and player == out_of_final[0]:
            depths[player], eliminated[player] = (losers_rounds + 1,), out_of_final[1]
        elif player == losers_champion:
            depths[player], eliminated[player] = (losers_rounds + 1,), None
        elif last_loss is not None and last_loss.startswith("L"):
            number = int(round_label(last_loss)[1:])
            depths[player], eliminated[player] = (number,), round_label(last_loss)
        else:
            depths[player], eliminated[player] = (STILL_IN,), None
    return _placements(depths, wins, eliminated, reached)


def _grand_final_loser(final: Bracket, results: Mapping[str, Result]) -> tuple[int, str] | None:
    """The grand final's loser once nothing is left to play: GF2's loser, or GF1's when the
    reset is not needed (or there is none)."""
    first = results.get("GF1")
    if first is None:
        return None
    reset = next((m for r in final.rounds for m in r.matches if m.id == "GF2"), None)
    if reset is None:
        return first.loser, "GF1"
    second = results.get("GF2")
    if second is not None:
        return second.loser, "GF2"
    (first_match,) = final.rounds[0].matches
    winner_slot = 1 if _entrant(first_match.slots[0], results) == first.winner else 2
    if double_elimination.reset_needed(winner_slot):
        return None  # GF2 is still to be played: both are in
    return first.loser, "GF1"


def _losers_champion(by_name: dict[str, Bracket], results: Mapping[str, Result]) -> int | None:
    """Without a grand final the losers-bracket champion is second once both brackets end."""
    (winners_final,) = by_name["winners"].rounds[-1].matches
    if winners_final.id not in results:
        return None
    losers = by_name["losers"].rounds
    if not losers:  # two entrants: the only match's loser
        return results[winners_final.id].loser
    (losers_final,) = losers[-1].matches
    result = results.get(losers_final.id)
    return result.winner if result else None


def season_placements(
    players: Mapping[int, int | None], episodes: int, wins: Mapping[int, int] | None = None
) -> list[Placement]:
    """Genius: ``players`` maps each player to the episode that eliminated them (or None).

    The final's loser is eliminated in the final's episode, so the champion ranks 1 and the
    finalist 2; everyone still in shares the top rank above all the eliminated.
    """
    depths = {p: ((STILL_IN,) if e is None else (e,)) for p, e in players.items()}
    ranks = rank_by_depth(depths)
    return sorted(
        (
            Placement(
                id=player,
                rank=ranks[player],
                wins=(wins or {}).get(player, 0),
                eliminated_in=episode,
                round_reached=episodes if episode is None else episode,
            )
            for player, episode in players.items()
        ),
        key=lambda p: (p.rank, p.id),
    )


def _placements(
    depths: dict[int, tuple[float, ...]],
    wins: dict[int, int],
    eliminated: dict[int, str | None],
    reached: dict[int, str | None],
) -> list[Placement]:
    ranks = rank_by_depth(depths)
    return sorted(
        (
            Placement(
                id=player,
                rank=ranks[player],
                wins=wins[player],
                eliminated_in=eliminated[player],
                round_reached=None if reached[player] is None else round_label(reached[player]),
            )
            for player in depths
        ),
        key=lambda p: (p.rank, p.id),
    )


PLACEMENTS = {
    single_elimination.KEY: single_elimination_placements,
    double_elimination.KEY: double_elimination_placements,
}
