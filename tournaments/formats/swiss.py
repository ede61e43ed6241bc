"""Swiss pairing in the Dutch style (FIDE C.04.3 as the model), as weighted matchings.

Like bbpPairings (the engine lichess uses), the Dutch priorities are encoded as edge weights
and a maximum-weight perfect matching (rustworkx's compiled blossom) picks the pairing:

- absolute criteria are missing edges: no rematch, and two players who both *must* have the
  same colour (|W-B| would pass 2 or a colour would come three times in a row) never meet;
- the pairing-allocated bye is an edge to a dummy node, present only for players who have not
  had one (nor a forfeit win, C.04.1.d);
- the rest is a penalty per edge, packed into tiers so that a worse tier always outweighs any
  sum of better ones: the bye goes to the lowest score possible; then score differences,
  squared and weighted toward the top groups (few, small floats, top groups first); then
  colour preferences a pairing cannot grant (strong ones cost more than mild); then floats
  in the same direction as in the previous round (C.14-C.15); then the distance from the
  Dutch ideal order (S1[i] meets S2[i] inside a score group, the lowest player floats down
  and meets the top of the next group); then the bye to the lowest ranked.

Fields up to 400 players use every legal edge; larger ones a sparse candidate graph
(score-order neighbours plus a window around each player's ideal opponent), widened until a
perfect matching exists. Fields over ``BLOCK_SIZE`` are matched top down in blocks of whole
score groups, carrying the floaters of one block into the next (the Dutch system's bracket
by bracket order), because blossom time grows much faster than linearly with the field.
Colours follow the Dutch allocation rules (E.1-E.5), initial colour white.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import rustworkx

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError
from tournaments.formats.history import Colour, History

KEY = "swiss"
LABEL = "Swiss (Dutch system)"
INITIAL_COLOUR: Colour = "W"
MILD, STRONG, ABSOLUTE = 1, 2, 3
Float = Literal["down", "up"]
FULL_GRAPH_LIMIT = 400
CANDIDATE_WINDOW = 12
BLOCK_SIZE = 1000
# Two absolute preferences for one colour never meet; the entry prices the hypothetical pair
# a floater is compared with (``below`` in ``match_block``).
UNGRANTED_COLOUR_COST = {0: 0, MILD: 1, STRONG: 3, ABSOLUTE: 3}


@dataclass(frozen=True)
class Pairing:
    white: int
    black: int


@dataclass(frozen=True)
class RoundPairing:
    pairings: tuple[Pairing, ...]
    bye: int | None


@dataclass(frozen=True)
class Contender:
    """A player to pair this round, with everything the pairing rules look at."""

    id: int
    number: int  # pairing number
    half_points: int  # score in half points, so scores compare exactly
    rank: int  # position in score-then-pairing-number order, 0 = top
    level: int  # score group, 0 = top
    group_rank: int  # position inside the score group
    group_size: int
    colours: tuple[Colour, ...]  # of games played over the board, oldest first
    opponents: frozenset[int]  # met over the board
    bye_eligible: bool
    preference: Colour | None
    strength: int  # 0 none, MILD, STRONG, ABSOLUTE
    last_float: Float | None  # how the player floated in the previous round


def other(colour: Colour) -> Colour:
    return "B" if colour == "W" else "W"


def colour_preference(colours: tuple[Colour, ...]) -> tuple[Colour | None, int]:
    """The Dutch colour preference (C.04.3 A.6) from the colours of played games."""
    if not colours:
        return None, 0
    difference = colours.count("W") - colours.count("B")
    if difference > 1 or difference < -1:
        return ("B" if difference > 0 else "W"), ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other(colours[-1]), ABSOLUTE
    if difference != 0:
        return ("B" if difference > 0 else "W"), STRONG
    return other(colours[-1]), MILD


def last_floats(history: History) -> dict[int, Float]:
    """Who floated down or up in the previous round (a pairing-allocated bye is a down float)."""
    if not history.rounds_played:
        return {}
    before = {
        pid: history.score(pid) - entries[-1].points for pid, entries in history.entries.items()
    }
    floats: dict[int, Float] = {}
    for pid, entries in history.entries.items():
        last = entries[-1]
        if last.kind == "pab":
            floats[pid] = "down"
        elif last.opponent is not None and before[pid] != before[last.opponent]:
            floats[pid] = "down" if before[pid] > before[last.opponent] else "up"
    return floats


def contenders(history: History) -> list[Contender]:
    """Players present this round, in pairing order (score, then pairing number)."""
    floats = last_floats(history)
    present = [p for p in history.players if p.id not in history.absent]
    scored = sorted(
        ((round(2 * history.score(p.id)), p) for p in present),
        key=lambda item: (-item[0], item[1].number),
    )
    group_sizes: dict[int, int] = {}
    for half, _ in scored:
        group_sizes[half] = group_sizes.get(half, 0) + 1
    levels = {half: level for level, half in enumerate(group_sizes)}
    result, seen_in_group = [], dict.fromkeys(group_sizes, 0)
    for rank, (half, player) in enumerate(scored):
        entries = history.entries[player.id]
        colours = tuple(e.colour for e in entries if e.played and e.colour)
        preference, strength = colour_preference(colours)
        result.append(
            Contender(
                id=player.id,
                number=player.number,
                half_points=half,
                rank=rank,
                level=levels[half],
                group_rank=seen_in_group[half],
                group_size=group_sizes[half],
                colours=colours,
                opponents=frozenset(e.opponent for e in entries if e.played),
                bye_eligible=not any(e.kind in ("pab", "forfeit_win") for e in entries),
                preference=preference,
                strength=strength,
                last_float=floats.get(player.id),
            )
        )
        seen_in_group[half] += 1
    return result


def compatible(a: Contender, b: Contender) -> bool:
    """The absolute criteria: no rematch, no pair that breaks someone's colour limits."""
    if b.id in a.opponents:
        return False
    return not (a.strength == b.strength == ABSOLUTE and a.preference == b.preference)


@dataclass(frozen=True)
class Tiers:
    """Multipliers that keep each penalty tier above every sum of the tiers below it."""

    bye_score: int
    score: int
    colour: int
    floats: int
    order: int
    base: int
    field_size: int
    levels: int

    @classmethod
    def for_field(cls, players: list[Contender]) -> Tiers:
        n = len(players)
        pairs = n // 2 + 1
        spread = players[0].half_points - players[-1].half_points if players else 0
        levels = players[-1].level + 1 if players else 1
        order = n + 1  # below: the bye recipient's rank, at most n - 1
        floats = order * (2 * n * pairs + 1)  # below: order penalties, at most 2n per pair
        colour = floats * (2 * pairs + 1)  # below: repeated floats, at most 2 per pair
        score = colour * (max(UNGRANTED_COLOUR_COST.values()) * pairs + 1)
        bye_score = score * (spread * spread * levels * pairs + 1)
        base = bye_score * (spread + 1)
        return cls(bye_score, score, colour, floats, order, base, n, levels)


def pair_penalty(a: Contender, b: Contender, tiers: Tiers) -> int:
    """Cost of pairing ``a`` (ranked higher) with ``b``, lower is better."""
    gap = a.half_points - b.half_points
    # Squared, so one long float costs more than several short ones; weighted toward the
    # top, as the Dutch system completes the higher score groups first.
    score = gap * gap * (tiers.levels - a.level)
    if a.preference is not None and a.preference == b.preference:
        colour = UNGRANTED_COLOUR_COST[min(a.strength, b.strength)]
    else:
        colour = 0
    # Dutch C.14-C.15: nobody floats the same way as in the previous round if avoidable.
    repeated = (a.last_float == "down") + (b.last_float == "up") if gap else 0
    if a.level == b.level:
        order = abs(b.group_rank - a.group_rank - a.group_size // 2)
    else:
        order = (a.group_size - 1 - a.group_rank) + b.group_rank
    return (
        score * tiers.score + colour * tiers.colour + repeated * tiers.floats + order * tiers.order
    )


def bye_penalty(player: Contender, lowest_half_points: int, tiers: Tiers) -> int:
    """The bye goes to the lowest score possible, then to the lowest-ranked player."""
    return (player.half_points - lowest_half_points) * tiers.bye_score + (
        tiers.field_size - 1 - player.rank
    )


def candidate_pairs(players: list[Contender], window: int | None) -> Iterator[tuple[int, int]]:
    """Index pairs (i < j) worth considering; ``None`` means all of them.

    ``players`` must hold whole score groups in pairing order, as a block does.
    """
    n = len(players)
    if window is None:
        for i in range(n):
            for j in range(i + 1, n):
                yield i, j
        return
    for i, player in enumerate(players):
        neighbours_end = min(n, i + 1 + window)
        yield from ((i, j) for j in range(i + 1, neighbours_end))
        half = player.group_size // 2
        if player.group_rank < half:
            group_end = i - player.group_rank + player.group_size
            ideal = i + half
            start = max(neighbours_end, ideal - window)
            yield from ((i, j) for j in range(start, min(group_end, ideal + window + 1)))


class _Unmatched(Exception):
    """The candidate graph has no perfect matching (widen it, or the round is unpairable)."""


Pair = tuple[Contender, Contender]


def match_block(
    carried: list[Contender],
    members: list[Contender],
    below: Contender | None,
    sinks: int,
    window: int | None,
    tiers: Tiers,
) -> tuple[list[Pair], list[Contender]]:
    """Pair ``carried`` floaters and a block of whole score groups by maximum-weight matching.

    ``sinks`` players are left over: with ``below`` (the first player of the next block) they
    float down, priced as if paired with ``below``; without it (last block) the single sink
    is the pairing-allocated bye. Raises ``_Unmatched`` when no perfect matching exists.
    """
    nodes = carried + members
    offset = len(carried)
    n = len(nodes)
    pairs = [(i, j) for i in range(offset) for j in range(i + 1, n)]
    pairs += [(offset + i, offset + j) for i, j in candidate_pairs(members, window)]
    edges = [
        (i, j, tiers.base - pair_penalty(nodes[i], nodes[j], tiers))
        for i, j in pairs
        if compatible(nodes[i], nodes[j])
    ]
    for sink in range(n, n + sinks):
        if below is None:
            lowest = nodes[-1].half_points
            edges += [
                (i, sink, tiers.base - bye_penalty(p, lowest, tiers))
                for i, p in enumerate(nodes)
                if p.bye_eligible
            ]
        else:
            edges += [
                (i, sink, tiers.base - pair_penalty(p, below, tiers)) for i, p in enumerate(nodes)
            ]
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n + sinks))
    graph.add_edges_from(edges)
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) < n + sinks:
        raise _Unmatched
    matched = [(min(u, v), max(u, v)) for u, v in matching]
    return (
        [(nodes[i], nodes[j]) for i, j in matched if j < n],
        sorted((nodes[i] for i, j in matched if j >= n), key=lambda p: p.rank),
    )


def widening(
    carried: list[Contender],
    members: list[Contender],
    below: Contender | None,
    sinks: int,
    tiers: Tiers,
) -> tuple[list[Pair], list[Contender]]:
    """``match_block`` on a candidate graph widened step by step until it succeeds."""
    count = len(carried) + len(members)
    windows: list[int | None] = [None]
    if count > FULL_GRAPH_LIMIT:
        windows = [CANDIDATE_WINDOW, 4 * CANDIDATE_WINDOW, 16 * CANDIDATE_WINDOW]
        if count <= 5 * FULL_GRAPH_LIMIT:
            windows.append(None)
    for window in windows:
        try:
            return match_block(carried, members, below, sinks, window, tiers)
        except _Unmatched:
            continue
    raise _Unmatched


def score_blocks(players: list[Contender], size: int) -> list[list[Contender]]:
    """Consecutive whole score groups, merged until each block holds at least ``size``."""
    blocks: list[list[Contender]] = [[]]
    for player in players:
        if player.group_rank == 0 and len(blocks[-1]) >= size:
            blocks.append([])
        blocks[-1].append(player)
    return blocks


def pair_blocks(
    players: list[Contender], tiers: Tiers, size: int
) -> tuple[list[Pair], list[Contender]]:
    """Top-down over score blocks, as the Dutch system goes bracket by bracket.

    Returns the pairs and the leftover (the bye, if any). Raises ``_Unmatched`` when a block
    cannot be completed even with a few more floaters.
    """
    blocks = score_blocks(players, size)
    pairs: list[Pair] = []
    carried: list[Contender] = []
    for index, members in enumerate(blocks):
        last = index == len(blocks) - 1
        below = None if last else blocks[index + 1][0]
        parity = (len(carried) + len(members)) % 2
        attempts = [parity] if last else [parity, parity + 2, parity + 4]
        for sinks in attempts:
            try:
                block_pairs, carried = widening(carried, members, below, sinks, tiers)
                break
            except _Unmatched:
                continue
        else:
            raise _Unmatched
        pairs += block_pairs
    return pairs, carried


def allocate_colours(a: Contender, b: Contender) -> tuple[int, int]:
    """(white id, black id) for ``a`` ranked above ``b``, by the Dutch rules E.1-E.5."""

    def a_gets(colour: Colour) -> tuple[int, int]:
        return (a.id, b.id) if colour == "W" else (b.id, a.id)

    if a.preference is None and b.preference is None:
        return a_gets(INITIAL_COLOUR if a.number % 2 else other(INITIAL_COLOUR))
    if b.preference is None or (a.preference is not None and a.preference != b.preference):
        return a_gets(a.preference)
    if a.preference is None:
        return a_gets(other(b.preference))
    if a.strength != b.strength:
        stronger = a if a.strength > b.strength else b
        return a_gets(a.preference if stronger is a else other(b.preference))
    for colour_a, colour_b in zip(reversed(a.colours), reversed(b.colours), strict=False):
        if colour_a != colour_b:
            return a_gets(other(colour_a))
    return a_gets(a.preference)


def pair_round(history: History) -> RoundPairing:
    """Pair the next round of a Swiss event; raises ``FormatError`` when no legal pairing exists.

    Fields up to ``BLOCK_SIZE`` are one matching. Larger ones are paired block by block
    (whole score groups, top down, floaters carried into the next block), since the blossom
    algorithm's time grows much faster than linearly; if a block cannot be completed, the
    whole field is matched at once.
    """
    if history.rounds_played >= history.total_rounds:
        raise FormatError(
            Message(
                gettext_noop("all {total_rounds} rounds have been played"),
                total_rounds=history.total_rounds,
            )
        )
    players = contenders(history)
    if not players:
        raise FormatError(Message(gettext_noop("no players are present to pair")))
    tiers = Tiers.for_field(players)
    try:
        try:
            pairs, leftover = pair_blocks(players, tiers, BLOCK_SIZE)
        except _Unmatched:
            pairs, leftover = widening([], players, None, len(players) % 2, tiers)
    except _Unmatched:
        raise FormatError(
            Message(
                gettext_noop(
                    "no pairing satisfies the absolute rules (no rematches, at most one pairing "
                    "bye each, colour limits); pair this round by hand"
                )
            )
        ) from None
    pairs.sort(key=board_order)
    return RoundPairing(
        pairings=tuple(Pairing(*allocate_colours(a, b)) for a, b in pairs),
        bye=leftover[0].id if leftover else None,
    )


def board_order(pair: Pair) -> tuple[int, int, int]:
    """Dutch board order: higher score first, then higher sum of scores, then rank."""
    a, b = pair
    return (-a.half_points, -(a.half_points + b.half_points), a.rank)
