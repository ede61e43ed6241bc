"""Tie-break metrics by key, and the ordered chain a tournament ranks its players with.

The definitions follow the FIDE tie-break regulations (Handbook C.07) in one of two
versions, ``REGULATIONS``, which a tournament stores by name (``fide-2026``, the one in force,
by default). Unplayed rounds follow their Article 16 (Swiss):

- opponents see a participant's *adjusted* score (16.3): every unplayed round counts the
  points it gave, except a requested bye followed only by voluntary unplayed rounds (or in
  the last round), which counts as a draw;
- a participant's own unplayed round counts as a game against a *dummy* (16.4) whose score is
  the participant's own. ``fide-2024`` (applied from 1 August 2024) stops there;
  ``fide-2026`` (the amendment applied from 1 March 2026) caps it by the scheduled opponent's
  adjusted score for a forfeit (16.4.1) and by half a point per round of the tournament for
  a bye (16.4.2), so that an unplayed round is never worth more than the game would have been;
- the Cut-1 of Buchholz removes a voluntary unplayed round first (16.5).

Requested byes are the ``half``, ``zero`` and ``absent`` byes (a round a player does not
appear in is ``absent``); a voluntary unplayed round (VUR) is a requested bye or a forfeit
loss. For a round robin (``swiss=False``) Article 15.2 applies instead: forfeits count as
games and a bye contributes nothing. Standard library only: this module is driven by tests
and benchmarks without Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError
from tournaments.formats.history import Entry, History

REGULATIONS: dict[str, str] = {
    "fide-2024": "FIDE C.07, applied from 1 August 2024",
    "fide-2026": "FIDE C.07, amended with effect from 1 March 2026",
}
DEFAULT_REGULATIONS = "fide-2026"


def check_regulations(name: object) -> str:
    """``name`` if it is a known version of the regulations; otherwise a readable refusal."""
    if not isinstance(name, str) or name not in REGULATIONS:
        raise FormatError(
            Message(
                gettext_noop("unknown tie-break regulations {name!r}; choose one of {regulations}"),
                name=name,
                regulations=", ".join(REGULATIONS),
            )
        )
    return name


REQUESTED_BYES = frozenset({"half", "zero", "absent"})
FORFEITS = frozenset({"forfeit_win", "forfeit_loss"})
WIN_POINTS, DRAW_POINTS = 1.0, 0.5


def voluntary(entry: Entry) -> bool:
    """A voluntary unplayed round (16.1.2): a requested bye or a forfeit loss."""
    return entry.kind in REQUESTED_BYES or entry.kind == "forfeit_loss"


@dataclass(frozen=True)
class Contribution:
    """One round's share of a sum-based tie-break, and whether it came from a VUR."""

    value: float
    voluntary: bool
    opponent_score: float


class Crosstable:
    """A ``History`` with the scores tie-breaks need, each computed once."""

    def __init__(
        self,
        history: History,
        *,
        dmo: int | None = None,
        swiss: bool = True,
        regulations: str = DEFAULT_REGULATIONS,
    ) -> None:
        self.history = history
        self.dmo = dmo
        self.regulations = check_regulations(regulations)
        # Article 16 manages unplayed rounds in Swiss events only. With pre-determined
        # pairings (round robin, 15.2) a forfeit counts as a game and a bye as nothing.
        self.swiss = swiss

    @cached_property
    def scores(self) -> dict[int, float]:
        return {p.id: self.history.score(p.id) for p in self.history.players}

    @cached_property
    def adjusted_scores(self) -> dict[int, float]:
        """Scores as opponents' tie-breaks see them (Article 16.3)."""
        if not self.swiss:
            return self.scores
        adjusted = {}
        for player, entries in self.history.entries.items():
            total = 0.0
            for index, entry in enumerate(entries):
                terminal = all(voluntary(later) for later in entries[index + 1 :])
                if entry.kind in REQUESTED_BYES and terminal:
                    total += DRAW_POINTS
                else:
                    total += entry.points
            adjusted[player] = total
        return adjusted

    def dummy_score(self, player: int, entry: Entry) -> float:
        """The dummy opponent's score for one of ``player``'s unplayed rounds (16.4): the
        player's own, capped since the 2026 amendment (16.4.1 forfeits, 16.4.2 byes)."""
        own = self.scores[player]
        if self.regulations == "fide-2024":
            return own
        if entry.kind in FORFEITS:
            return min(own, self.adjusted_scores[entry.opponent])
        return min(own, DRAW_POINTS * self.history.total_rounds)

    def contributions(self, player: int) -> list[Contribution]:
        """Per round: the opponent's (or dummy's) score and the points scored against them."""
        result = []
        for entry in self.history.entries[player]:
            if entry.played or (entry.opponent is not None and not self.swiss):
                opponent = self.adjusted_scores[entry.opponent]
            elif self.swiss:
                opponent = self.dummy_score(player, entry)
            else:
                continue
            result.append(Contribution(entry.points, voluntary(entry), opponent))
        return result


PerPlayer = Callable[[Crosstable, int], float]


def cut(contributions: list[Contribution], lowest: int, highest: int) -> list[Contribution]:
    """Drop the least significant values (a VUR first, 16.5), then the most significant."""
    kept = sorted(contributions, key=lambda c: c.opponent_score)
    for _ in range(min(lowest, len(kept))):
        vur = next((c for c in kept if c.voluntary), None)
        kept.remove(vur if vur is not None else kept[0])
    return kept[: len(kept) - min(highest, len(kept))]


def buchholz_with_cuts(lowest: int, highest: int) -> PerPlayer:
    def value(table: Crosstable, player: int) -> float:
        kept = cut(table.contributions(player), lowest, highest)
        return sum(c.opponent_score for c in kept)

    return value


def sonneborn_berger(table: Crosstable, player: int) -> float:
    """Art. 9.1: points scored against each opponent (or dummy) times that one's score."""
    return sum(c.value * c.opponent_score for c in table.contributions(player))


def wins(table: Crosstable, player: int) -> float:
    """Art. 7.1 (WIN): rounds in which the player got a win's points, played or not."""
    return sum(1 for e in table.history.entries[player] if e.points == WIN_POINTS)


def games_won(table: Crosstable, player: int) -> float:
    """Art. 7.2 (WON): games won over the board."""
    return sum(1 for e in table.history.entries[player] if e.played and e.points == WIN_POINTS)


def koya(table: Crosstable, player: int) -> float:
    """Art. 9.2: points scored against opponents with at least half the maximum score."""
    threshold = DRAW_POINTS * table.history.rounds_played
    return sum(
        e.points
        for e in table.history.entries[player]
        if e.opponent is not None and table.scores[e.opponent] >= threshold
    )


def progressive(table: Crosstable, player: int) -> float:
    """Art. 7.5: the sum of the running score after every round."""
    running = total = 0.0
    for entry in table.history.entries[player]:
        running += entry.points
        total += running
    return total


def game_score(table: Crosstable, player: int) -> float:
    """The sum of in-game points the engines reported (e.g. card points)."""
    return sum(e.game_points for e in table.history.entries[player])


def metric(name: str) -> PerPlayer:
    """The sum of one game-specific metric from the engines' outcomes."""

    def value(table: Crosstable, player: int) -> float:
        return sum(e.metrics.get(name, 0.0) for e in table.history.entries[player])

    return value


def dmo_wins_tie(table: Crosstable, player: int) -> float:
    """The Death Match rule: on a tie the Death Match Opponent (DMO) ranks first."""
    return 1.0 if player == table.dmo else 0.0


def head_to_head(table: Crosstable, player: int, tied: frozenset[int]) -> float:
    """Art. 6 (direct encounter): points scored against the others still tied.

    It separates only when every tied player has met every other (6.1); otherwise it gives
    everyone 0 and leaves the tie to the next tie-break.
    """
    others = tied - {player}
    met = {
        p: {e.opponent for e in table.history.entries[p] if e.opponent is not None} for p in tied
    }
    if any(not (tied - {p}) <= met[p] for p in tied):
        return 0.0
    return sum(e.points for e in table.history.entries[player] if e.opponent in others)


# (table, player, the players still tied with them when this tie-break is reached)
InChain = Callable[[Crosstable, int, frozenset[int]], float]


def per_player(compute: PerPlayer) -> InChain:
    """Most tie-breaks ignore who else is tied; only head-to-head looks."""
    return lambda table, player, _tied: compute(table, player)


@dataclass(frozen=True)
class Tiebreak:
    key: str
    label: str
    value: InChain


def _register(*tiebreaks: Tiebreak) -> dict[str, Tiebreak]:
    return {t.key: t for t in tiebreaks}


TIEBREAKS: dict[str, Tiebreak] = _register(
    Tiebreak("points", "Points", per_player(lambda table, player: table.scores[player])),
    Tiebreak("wins", "Number of wins (WIN)", per_player(wins)),
    Tiebreak("games_won", "Games won over the board (WON)", per_player(games_won)),
    Tiebreak("head_to_head", "Direct encounter", head_to_head),
    Tiebreak("buchholz", "Buchholz", per_player(buchholz_with_cuts(0, 0))),
    Tiebreak("buchholz_cut1", "Buchholz Cut-1", per_player(buchholz_with_cuts(1, 0))),
    Tiebreak("median_buchholz", "Buchholz Median-1", per_player(buchholz_with_cuts(1, 1))),
    Tiebreak("sonneborn_berger", "Sonneborn-Berger", per_player(sonneborn_berger)),
    Tiebreak("koya", "Koya", per_player(koya)),
    Tiebreak("progressive", "Progressive score", per_player(progressive)),
    Tiebreak("game_score", "Game score (in-game points)", per_player(game_score)),
    # Drafting Trios reports the power cards each seat activated (cost cards do not count).
    Tiebreak(
        "power_cards_played", "Power cards played", per_player(metric("power_cards_activated"))
    ),
    Tiebreak("dmo_wins_tie", "Death Match: the DMO wins a tie", per_player(dmo_wins_tie)),
)
METRIC_PREFIX = "metric:"


def get(key: str) -> Tiebreak:
    """The tie-break registered as ``key``; ``metric:<name>`` sums any engine metric."""
    if key in TIEBREAKS:
        return TIEBREAKS[key]
    if key.startswith(METRIC_PREFIX) and len(key) > len(METRIC_PREFIX):
        name = key[len(METRIC_PREFIX) :]
        return Tiebreak(key, name, per_player(metric(name)))
    raise FormatError(
        Message(
            gettext_noop("unknown tie-break {key!r}; choose from {tiebreaks} or metric:<name>"),
            key=key,
            tiebreaks=", ".join(TIEBREAKS),
        )
    )


@dataclass(frozen=True)
class Standing:
    id: int
    rank: int
    points: float
    tiebreaks: dict[str, float]


def rank(table: Crosstable, chain: Iterable[str]) -> list[Standing]:
    """Rank by points, then each tie-break in order, splitting only the groups still tied.

    Players tied on everything share a rank (1, 2, 2, 4) and are listed by pairing number.
    """
    tiebreaks = [get(key) for key in chain]
    numbers = {p.id: p.number for p in table.history.players}
    values: dict[int, dict[str, float]] = {p: {} for p in numbers}
    groups = [sorted(numbers, key=lambda p: (-table.scores[p], numbers[p]))]
    groups = split(groups, lambda p: table.scores[p])
    for tiebreak in tiebreaks:
        for group in groups:
            tied = frozenset(group)
            for player in group:
                values[player][tiebreak.key] = tiebreak.value(table, player, tied)
        groups = split(groups, lambda p, key=tiebreak.key: values[p][key])
    standings, position = [], 1
    for group in groups:
        for player in group:
            standings.append(Standing(player, position, table.scores[player], values[player]))
        position += len(group)
    return standings


def split(groups: list[list[int]], key: Callable[[int], float]) -> list[list[int]]:
    """Split each group into runs of equal ``key``, highest first, keeping order within."""
    result = []
    for group in groups:
        by_value: dict[float, list[int]] = {}
        for player in group:
            by_value.setdefault(key(player), []).append(player)
        result += [by_value[v] for v in sorted(by_value, reverse=True)]
    return result
