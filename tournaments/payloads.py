"""What a client receives about a tournament and its parts: the dicts the API answers (and
the pages draw), one function per shape; ``tournaments.api.outputs`` describes them in the
OpenAPI document. Reads only what it is given: the queries are the callers'
(``selectors.detail`` prefetches them all)."""

from __future__ import annotations

from typing import Any

from tournaments.models import Entrant, Episode, Match, Round, SealedSubmission, Tournament


def entrant_payload(entrant: Entrant) -> dict[str, Any]:
    return {
        "id": entrant.pk,
        "name": entrant.display_name,
        "status": entrant.status,
        "seed": entrant.seed,
        "eliminated_in": entrant.eliminated_in,
    }


def _side(entrant_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    return None if entrant_id is None else {"id": entrant_id, "name": names.get(entrant_id)}


def match_payload(match: Match, round_: Round, names: dict[int, str]) -> dict[str, Any]:
    return {
        "code": match.code,
        "bracket": round_.bracket,
        "round": round_.number,
        # Seeds, or "W1.2:winner"-style references: who will fill a side not known yet.
        "slots": match.slots,
        "home": _side(match.home_id, names),
        "away": _side(match.away_id, names),
        "best_of": match.best_of,
        "status": match.status,
        "result_kind": match.result_kind,
        "home_score": match.home_score,
        "away_score": match.away_score,
        "winner": match.winner_id,
        # Spectators follow these at /api/games/<id>/ and /live/games/<id>/.
        "games": [link.game_id for link in match.match_games.all()],
        # Games a correction voided when it reset this match (kept, no longer counted).
        "voided_games": match.extra.get("voided_games", []),
    }


def episode_payload(episode: Episode) -> dict[str, Any]:
    return {
        "number": episode.number,
        "kind": episode.kind,
        "status": episode.status,
        "mm_prompt": episode.mm_prompt,
        "mm_deadline": episode.mm_deadline,
        "mm_revealed": episode.mm_revealed,
        "mm_game": episode.mm_game_id,
        "winners": episode.winners,
        "losers": episode.losers,
        "ecs": episode.ecs,
        "dmos": episode.dmos,
        "dm_third": episode.dm_third,
        "tokens": episode.tokens,
        "tokens_to_give": episode.tokens_to_give,
        "dmo_deadline": episode.dmo_deadline,
        # The Death Match's own game when the host chose one; null: the tournament's.
        "death_match": {
            "engine": episode.dm_engine,
            "config": episode.dm_ruleset,
            "time_control": episode.dm_time_control,
        }
        if episode.dm_engine
        else None,
        "dm_advantage": episode.dm_advantage_id,
        "dm_pick": dm_pick_payload(episode),
    }


def dm_pick_payload(episode: Episode) -> dict[str, Any] | None:
    """How the episode's DM game is being chosen (lottery or bans): public, like the picks."""
    pick = getattr(episode, "dm_pick", None) if episode.pk else None
    if pick is None:
        return None
    return {
        "mode": pick.mode,
        "pool": pick.pool,
        "banned": pick.banned,
        "remaining": pick.remaining,
        "banner": pick.banner,
        "step_deadline": pick.step_deadline,
        "chosen": pick.chosen or None,
    }


def submission_payload(submission: SealedSubmission) -> dict[str, Any]:
    return {
        "entrant": submission.entrant_id,
        "name": submission.entrant.display_name,
        "text": submission.text,
        "submitted_at": submission.submitted_at,
    }


def summary_payload(tournament: Tournament) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "organiser": tournament.organiser.get_username(),
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "visibility": tournament.visibility,
        "capacity": tournament.capacity,
        "registration_opens": tournament.registration_opens,
        "registration_closes": tournament.registration_closes,
    }
