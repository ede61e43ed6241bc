"""Tokens of Life remembered across a season: an append-only record of each token won, given,
received, used, expired or lost with its holder, per episode (``TokenEntry``).

``seasons.services`` calls these where the season's steps move tokens; the episode's own
``tokens`` stay what the pure rules read, and these entries are what the board, the episode
story and ``check_tournaments`` read afterwards. A token *protects* its holder in an episode
whose Death Match opponents were picked while they held it and were no candidate: at the end of
that episode one is recorded as used; the rest expire, or carry over to the next episode when
the season's rules say so (``tokens_carry_over``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments.models import Episode, TokenEntry, Tournament


def _write(tournament: Tournament, episode: int, entrant: int, kind: str, count: int) -> None:
    if count > 0:
        TokenEntry.objects.create(
            tournament=tournament, episode=episode, entrant_id=entrant, kind=kind, count=count
        )


def won(tournament: Tournament, episode: int, before: dict[Any, int], after: dict[Any, int]):
    """The main match handed out tokens: each holder's increase is won."""
    for player, count in after.items():
        _write(tournament, episode, int(player), "won", count - before.get(player, 0))


def given(tournament: Tournament, episode: int, giver: int, receiver: int) -> None:
    _write(tournament, episode, giver, "given", 1)
    _write(tournament, episode, receiver, "received", 1)


def lost(tournament: Tournament, episode: Episode, player: int) -> None:
    """An eliminated player's tokens leave with them."""
    _write(tournament, episode.number, player, "lost", held(tournament).get(player, 0))


def settle_episode(tournament: Tournament, episode: Episode, *, carry_over: bool) -> dict[str, int]:
    """The episode is over: a token that protected its holder is used, the others expire or
    carry over. Returns the tokens the next episode starts with (``Episode.tokens``)."""
    picked = bool(episode.dmos)
    protected_from = set(episode.ecs) | set(episode.dmos.values())
    following: dict[str, int] = {}
    for player, count in held(tournament).items():
        if count <= 0:
            continue
        used = 1 if picked and player not in protected_from else 0
        _write(tournament, episode.number, player, "used", used)
        rest = count - used
        if carry_over:
            if rest:
                following[str(player)] = rest
        else:
            _write(tournament, episode.number, player, "expired", rest)
    return following


def expire_all(tournament: Tournament, episode: int) -> None:
    """The season is over: whatever is still held expires."""
    for player, count in held(tournament).items():
        _write(tournament, episode, player, "expired", count)


def held(tournament: Tournament) -> dict[int, int]:
    """Tokens each player holds now, by the record."""
    counts: dict[int, int] = defaultdict(int)
    for entrant, kind, count in tournament.tokens.values_list("entrant_id", "kind", "count"):
        counts[entrant] += TokenEntry.SIGN[kind] * count
    return {player: count for player, count in counts.items() if count}


def history(tournament: Tournament) -> dict[int, dict[str, int]]:
    """Per player, the season's totals by kind and what they hold now (the board's columns)."""
    totals: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for entrant, kind, count in tournament.tokens.values_list("entrant_id", "kind", "count"):
        totals[entrant][kind] += count
        totals[entrant]["held"] += TokenEntry.SIGN[kind] * count
    return {player: dict(kinds) for player, kinds in totals.items()}


def by_episode(tournament: Tournament) -> dict[int, list[TokenEntry]]:
    """The token entries of each episode, for its story."""
    stories: dict[int, list[TokenEntry]] = defaultdict(list)
    for entry in tournament.tokens.select_related("entrant").order_by("pk"):
        stories[entry.episode].append(entry)
    return dict(stories)
