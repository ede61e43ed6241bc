"""Results the players report themselves, where the organiser allows it
(``Tournament.players_report``): one player says how the match ended, the other confirms it
and the result is recorded as if the organiser had entered it. When the two disagree nothing
is recorded: the match waits, both claims shown, for the organiser (who reports it on its
card as always) or a dispute.

A claim lives in ``match.extra["claim"]`` (``{"by": entrant, "winner": entrant or None}``);
two claims that disagree move to ``match.extra["contested"]``. Every step is audited
(``tournaments.match.result_claimed``, ``…result_confirmed``, ``…result_contested``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.locking import lock_match, lock_tournament
from tournaments.models import Entrant, Match
from tournaments.services.matches import checked_result, decide
from tournaments.services.results import _after_result

CLAIMED, CONFIRMED, CONTESTED = "claimed", "confirmed", "contested"


def party(match: Match, user: Any) -> Entrant | None:
    """The entrant of ``match`` that ``user`` plays as, if any."""
    if not getattr(user, "is_authenticated", False):
        return None
    for side in (match.home, match.away):
        if side is not None and side.user_id == user.pk:
            return side
    return None


def claim_of(match: Match) -> dict[str, Any] | None:
    return match.extra.get("claim")


def match_claim_result(*, match: Match, by: Any, winner: Entrant | None) -> str:
    """``by`` (a player of ``match``) reports ``winner`` (``None``: a draw, where the format
    scores draws). The first report waits for the opponent; the opponent's same report records
    the result (``CONFIRMED``); a different one leaves it to the organiser (``CONTESTED``).
    A player may change their own waiting report by sending another."""
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        match = lock_match(match)
        if not tournament.players_report:
            raise Forbidden(_("In this tournament the organiser reports the results."))
        me = party(match, by)
        if me is None:
            raise Forbidden(
                _("Only the two players of %(code)s report its result.") % {"code": match.code}
            )
        if match.status not in (Match.Status.READY, Match.Status.LIVE):
            raise Conflict(_("%(code)s is not waiting for a result.") % {"code": match.code})
        if match.match_games.exists():
            raise Conflict(_("The result of %(code)s comes from its games.") % {"code": match.code})
        checked_result(match, winner, None, None)
        mine = {"by": me.pk, "winner": winner.pk if winner else None}
        theirs = claim_of(match)
        if theirs is None or theirs["by"] == me.pk:
            match.extra = {**match.extra, "claim": mine}
            match.save(update_fields=["extra", "updated"])
            audit.log(
                tournament,
                by,
                "match.result_claimed",
                target=f"match:{match.code}",
                match=match.code,
                entrant=me.pk,
                winner=mine["winner"],
            )
            return CLAIMED
        extra = {k: v for k, v in match.extra.items() if k not in ("claim", "contested")}
        if theirs["winner"] != mine["winner"]:
            match.extra = {**extra, "contested": [theirs, mine]}
            match.save(update_fields=["extra", "updated"])
            audit.log(
                tournament,
                by,
                "match.result_contested",
                target=f"match:{match.code}",
                match=match.code,
                entrant=me.pk,
                winner=mine["winner"],
                claimed_by=theirs["by"],
                claimed_winner=theirs["winner"],
            )
            return CONTESTED
        match.extra = extra
        match.home_score, match.away_score = checked_result(match, winner, None, None)
        decide(match, Match.ResultKind.PLAYED)
        audit.log(
            tournament,
            by,
            "match.result_confirmed",
            target=f"match:{match.code}",
            after=audit.result_of(match),
            match=match.code,
            entrant=me.pk,
            winner=match.winner_id,
            claimed_by=theirs["by"],
        )
        _after_result(match)
        return CONFIRMED
