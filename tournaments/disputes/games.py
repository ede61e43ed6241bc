"""The games side of a ruling: a replay (a new game, same pairing, fresh seed) or a rewind (a
new game from the disputed game's state at a chosen event, same hands, fresh seed for what
was not yet dealt).

Either way the disputed game stops counting for its match: it is voided if it still runs
(its log is kept, and verifies), detached from the match, and the match's score is counted
again from the games that remain. A decided match first loses its result, and whatever it
fed is reset exactly as the ruling's preview listed (``corrections.plan_undecided``; for a
result settled into a Genius season, ``season_rulings.unsettle``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import services as game_services
from games.models import GameSession
from hosting.core.errors import Conflict, UserError
from tournaments.core import audit
from tournaments.models import Dispute, Match, MatchGame, Round, Stage, Tournament
from tournaments.seasons import rulings as season_rulings
from tournaments.services import corrections
from tournaments.services.matches import count_game, start_next_game


def play_again(
    dispute: Dispute,
    match: Match,
    by: Any,
    reason: str,
    plan: corrections.Plan | None,
    ruling: str,
    seq: int | None,
) -> dict[str, Any]:
    link = MatchGame.objects.filter(match=match, game_id=dispute.game_id).first()
    if link is None:
        raise Conflict(_("the disputed game no longer counts for this match"))
    old = GameSession.objects.get(pk=link.game_id)
    if ruling == Dispute.Ruling.REWIND and (seq is None or not 0 <= seq <= old.version):
        raise UserError(
            _("name the event to continue from: 0 (the deal) to %(last)s") % {"last": old.version}
        )
    if plan is not None and match.stage.format == "genius":
        season_rulings.unsettle(match, plan, dispute=dispute, by=by, reason=reason)
    elif plan is not None:
        corrections.apply(match, plan, by=by, reason=reason)
    game_services.game_void(
        game_id=old.pk, reason=f"dispute {dispute.pk}: {Dispute.Ruling(ruling).label}", by=by
    )
    home_seat = link.home_seat
    link.delete()
    match.refresh_from_db()
    match.extra = {**match.extra, "voided_games": [*match.extra.get("voided_games", []), old.pk]}
    _recount(match)
    _reopen(match, by, reason)
    if ruling == Dispute.Ruling.REPLAY:
        start_next_game(match)
        new = match.match_games.order_by("-number").first().game
    else:
        new = game_services.game_continue_from(
            source_game_id=old.pk, seq=seq, created_by=match.stage.tournament.organiser
        )
        MatchGame.objects.create(
            match=match, game=new, number=match.match_games.count() + 1, home_seat=home_seat
        )
        # What nobody had seen is shuffled again: the players' client seeds take part.
        game_services.game_open_seed_window(
            game_id=new.pk, seconds=match.stage.tournament.seed_window_seconds, by=by
        )
        match.status = Match.Status.LIVE
        match.save(update_fields=["status"])
    audit.log(
        match.stage.tournament,
        by,
        "match.game_replaced",
        reason=reason,
        target=f"match:{match.code}",
        before={"game": old.pk},
        after={"game": new.pk, "continued_from": seq},
        match=match.code,
        dispute=dispute.pk,
    )
    return {
        "voided_game": old.pk,
        "new_game": new.pk,
        "resets": list(plan.resets) if plan else [],
        **({"seq": seq} if ruling == Dispute.Ruling.REWIND else {}),
    }


def _recount(match: Match) -> None:
    """The match's score from the games that still count for it, as they came in."""
    match.home_score = match.away_score = 0
    match.metrics = {}
    match.result_kind = ""
    match.winner = match.loser = None
    match.status = Match.Status.LIVE
    match.save()
    for link in match.match_games.select_related("game").order_by("number"):
        if link.game.is_over:
            count_game(match, link, link.game.outcome or {})


def _reopen(match: Match, by: Any, reason: str) -> None:
    """The match is played again: its round, stage and tournament run again."""
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.RUNNING)
    stage = match.stage
    if stage.status == Stage.Status.FINISHED:
        Stage.objects.filter(pk=stage.pk).update(status=Stage.Status.RUNNING)
    tournament = stage.tournament
    if tournament.status == Tournament.Status.FINISHED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        audit.log(tournament, by, "tournament.reopened", reason=reason, replayed=match.code)
