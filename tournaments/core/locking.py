"""The row locks every tournament write takes first, so that two writes to one tournament run
one after the other: the tournament row always first, then the row the write changes."""

from __future__ import annotations

from tournaments.models import Episode, Match, Tournament


def lock_tournament(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the transaction ends, as it is now in the database."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def lock_match(match: Match) -> Match:
    """The match row, locked (its tournament's row is locked first)."""
    return Match.objects.select_for_update().get(pk=match.pk)


def lock_episode(episode: Episode) -> tuple[Tournament, Episode]:
    """A season's tournament row, then the episode's, both locked."""
    tournament = Tournament.objects.select_for_update().get(pk=episode.tournament_id)
    return tournament, Episode.objects.select_for_update().get(pk=episode.pk)
