"""Results: from a finished hosted game (the ``game_finished`` signal) or from the organiser.

Every result advances the tournament by itself (``stages.advance``); a Genius Death Match's
is settled into its season through the ``season_match_decided`` hook. The organiser's
correction of a result repairs every match it fed (``services.corrections``).
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services as game_services
from games.models import GameSession
from hosting.core.errors import Conflict, Forbidden
from hosting.core.roles import is_staff_admin
from tournaments.core import audit, hooks
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_match, lock_tournament
from tournaments.core.permissions import check_runs
from tournaments.models import Entrant, Match, MatchGame
from tournaments.services import corrections
from tournaments.services.matches import (
    checked_result,
    count_game,
    decide,
    decide_three,
    draws_allowed,
    goes_to_higher_seed,
    start_next_game,
)
from tournaments.services.stages import advance


def game_result_recorded(*, game_id: int) -> None:
    """A hosted game ended: count it for its match, then decide or continue the match.

    A match its games leave level is decided only where draws count (Swiss, round robin,
    Genius Death Matches, which the DMO wins); an elimination match plays another game, or
    goes to the better seed when the ruleset says ``"undecided": "higher_seed"``.
    """
    with transaction.atomic():
        link = MatchGame.objects.select_related("match__stage__tournament").filter(game_id=game_id)
        link = link.first()
        if link is None:
            return
        tournament = lock_tournament(link.match.stage.tournament)
        match = Match.objects.select_for_update().get(pk=link.match_id)
        if match.status != Match.Status.LIVE:
            return  # the organiser settled it meanwhile
        game = GameSession.objects.get(pk=game_id)
        if match.extra.get("three"):
            decide_three(match, match.extra["three"], game.outcome or {})
            audit.log(tournament, None, "match.result_from_games", match=match.code)
            _after_result(match)
            return
        count_game(match, link, game.outcome or {})
        needed = match.best_of // 2 + 1
        played = match.match_games.count()
        decided = max(match.home_score, match.away_score) >= needed or played >= match.best_of
        level = match.home_score == match.away_score
        if decided and (not level or draws_allowed(match)):
            decide(match, Match.ResultKind.PLAYED)
            audit.log(tournament, None, "match.result_from_games", match=match.code)
            _after_result(match)
        elif decided and goes_to_higher_seed(match):
            better = min((match.home, match.away), key=lambda e: e.seed or math.inf)
            decide(match, Match.ResultKind.PLAYED, winner=better)
            match.extra = {**match.extra, "decided_by": "higher_seed"}
            match.save(update_fields=["extra"])
            audit.log(
                tournament, None, "match.result_from_games", match=match.code, by="higher_seed"
            )
            _after_result(match)
        else:
            start_next_game(match)


def match_report_result(
    *,
    match: Match,
    by: Any,
    winner: Entrant | None,
    home_score: float | None = None,
    away_score: float | None = None,
    forfeit: bool = False,
    force: bool = False,
    reason: str = "",
    resets: list[str] | None = None,
) -> Match:
    """The organiser enters (or corrects) a result. A correction repairs every match it feeds
    (``services.corrections``). One that would reset matches already played is confirmed
    (``force``) with a reason and the ``resets`` that ``correction_preview`` listed: by the
    organiser when those matches are over, by a staff admin when a game is under way in
    one or Swiss rounds were paired after it (``organiser_may_force``)."""
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        check_runs(tournament, by)
        match = lock_match(match)
        scores = checked_result(match, winner, home_score, away_score)
        correcting = match.status == Match.Status.FINISHED
        plan = _correction_plan(match, winner, by, force, reason) if correcting else None
        if plan is not None and resets is None and plan.blocking:
            raise TournamentUserError(
                _(
                    'a forced correction names the matches it resets: send it with "dry_run": '
                    'true first, then again with the "resets" it lists'
                )
            )
        if plan is not None and resets is not None and sorted(resets) != sorted(plan.resets):
            raise Conflict(
                _("the correction would now reset %(now)s, not %(sent)s; run the dry run again")
                % {"now": _listed(plan.resets), "sent": _listed(resets)}
            )
        previous = {"winner": match.winner_id, "home": match.home_score, "away": match.away_score}
        previous_match = audit.result_of(match)
        match.home_score, match.away_score = scores
        decide(match, Match.ResultKind.FORFEIT if forfeit else Match.ResultKind.PLAYED)
        for link in match.match_games.filter(game__status=GameSession.Status.RUNNING):
            # The result is settled: a game still under way for it no longer counts.
            game_services.game_void(game_id=link.game_id, reason=f"{match.code} was decided", by=by)
        action = "match.result_corrected" if correcting else "match.result_entered"
        audit.log(
            tournament,
            by,
            action,
            reason=reason,
            target=f"match:{match.code}",
            before=previous_match if correcting else None,
            after=audit.result_of(match),
            match=match.code,
            previous=previous if correcting else None,
            winner=match.winner_id,
            forced=force,
            **({"resets": list(plan.resets)} if plan and plan.resets else {}),
            **({"later_rounds_kept": list(plan.later_swiss)} if plan and plan.later_swiss else {}),
        )
        if plan is not None:
            corrections.apply(match, plan, by=by, reason=reason)
        _after_result(match)
        return match


def correction_preview(
    *,
    match: Match,
    by: Any,
    winner: Entrant | None,
    home_score: float | None = None,
    away_score: float | None = None,
    reason: str = "",
) -> corrections.Plan:
    """A correction's dry run: what it would reset, checked as the confirmed correction itself
    is (who may confirm it, a reason, a result the match allows), changing nothing."""
    with transaction.atomic():
        tournament = lock_tournament(match.stage.tournament)
        check_runs(tournament, by)
        match = lock_match(match)
        checked_result(match, winner, home_score, away_score)
        if match.status != Match.Status.FINISHED:
            raise Conflict(_("%(match)s has no result to correct yet") % {"match": match.code})
        return _correction_plan(match, winner, by, True, reason, previewing=True)


def _correction_plan(
    match: Match,
    winner: Entrant | None,
    by: Any,
    force: bool,
    reason: str,
    *,
    previewing: bool = False,
) -> corrections.Plan:
    """What correcting ``match`` resets, refused unless ``by`` may confirm it; a preview
    (``previewing``) is shown before the reason is asked for, the confirmation needs it."""
    if match.stage.format == "genius":
        raise Conflict(
            _(
                "a Death Match result is settled into the season (the elimination and its "
                "garnets); changing it is a dispute ruling"
            )
        )
    plan = corrections.plan(match, winner)
    own = organiser_may_force(match, plan)
    if plan.blocking and not force:
        if own:
            message = ngettext(
                "%(matches)s was already played; preview the correction (a dry run lists "
                "what it resets), then confirm it with a reason",
                "%(matches)s were already played; preview the correction (a dry run lists "
                "what it resets), then confirm it with a reason",
                len(plan.resets),
            ) % {"matches": ", ".join(plan.resets)}
        elif plan.resets:
            message = _(
                "%(matches)s already started; a staff admin may force the correction with a reason"
            ) % {"matches": ", ".join(plan.resets)}
        else:
            message = _(
                "round %(number)s is already paired; a staff admin may force the correction "
                "with a reason"
            ) % {"number": match.round.number + 1}
        raise Conflict(message)
    if force:
        staff = is_staff_admin(by)
        if not staff and not own:
            raise Forbidden(_("forcing a correction takes a staff admin and a reason"))
        if not reason.strip() and not previewing:
            if staff:
                raise Forbidden(_("forcing a correction takes a staff admin and a reason"))
            raise TournamentUserError(_("a correction that resets played matches needs a reason"))
    return plan


def organiser_may_force(match: Match, plan: corrections.Plan) -> bool:
    """Whether the tournament's organiser may confirm this correction themselves: every match
    it resets is over (none has a game under way) and no later Swiss round was paired. A
    game being played, or a Swiss round paired on the old result, takes a staff admin."""
    if plan.later_swiss:
        return False
    if not plan.resets:
        return True
    over = (Match.Status.FINISHED, Match.Status.CLOSED)
    unfinished = Match.objects.filter(stage=match.stage, code__in=plan.resets).exclude(
        status__in=over
    )
    return not unfinished.exists()


def _listed(codes: Any) -> str:
    return ", ".join(codes) if codes else _("no match")


def _after_result(match: Match) -> None:
    """A decided match moves its tournament on: the next matches of its stage, or its season
    (a Death Match or a season's final, through the hook the season connects)."""
    if match.stage.format == "genius":
        hooks.season_match_decided(match)
    else:
        advance(match.stage)
