"""Dispute rulings on a Genius result already settled into the season.

A Death Match's result eliminated its loser (``seasons.eliminate_loser``: ``eliminated_in``
and the ledger settlement by the season's rule) and, once the episode's last Death Match
ended, finished the episode and opened the next one (or the final). An overturn or a forfeit
swaps the elimination; a replay or a rewind takes it away until the new game ends:

- the previous loser is reinstated and gets back what the elimination settled, by new
  ledger entries (``ledger.return_settlement``: the ledger is append-only); an overturn then
  eliminates the new loser exactly as ``genius.eliminate`` would have from the start;
- the next episode, where nothing happened yet, stays as it is (an overturn: only the cast
  it plays with changes; the final is paired again) or goes (a replay: this episode is not
  over); what did happen in it (its main match and the steps after it, its Death Matches,
  the final's games or result) is listed by the preview as resets (``E3.MM``, ``E3.DM1``,
  ``FINAL``) and undone, its games voided through the games services;
- a next episode that has itself eliminated someone is not undone: the ruling is refused
  until that later result is taken away first (a replay ruling on it), because undoing it
  here would settle two eliminations on one ruling nobody previewed.

On the final, an overturn swaps the champion and the runner-up; a replay reinstates the
runner-up until the new game ends.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import services as game_services
from hosting.core.errors import Conflict
from tournaments.core import audit
from tournaments.events import emit, match_data
from tournaments.formats import FormatError, ledger
from tournaments.models import Dispute, Entrant, Episode, Match, Round, Stage, Tournament
from tournaments.seasons import services as seasons
from tournaments.seasons import tokens as token_record
from tournaments.services import corrections
from tournaments.services.matches import checked_result, decide, open_match

Status = Episode.Status


def main_match_step(number: int) -> str:
    """How a reset lists an episode's main match and the choices that followed it."""
    return f"E{number}.MM"


# -- the preview ------------------------------------------------------------------------------


def plan(match: Match, *, winner: Entrant | None = None) -> corrections.Plan:
    """What changing the settled ``match`` undoes after it (``winner``: it goes to them;
    ``None``: its result is taken away, to be played again), or a refusal saying why not."""
    tournament = match.stage.tournament
    episode = tournament.episodes.get(number=match.round.number)
    if episode.kind == Episode.Kind.FINAL or _keeps_elimination(episode, match, winner):
        return corrections.Plan((), (), ())
    replay = winner is None
    following = tournament.episodes.filter(number=episode.number + 1).first()
    fixed = _following(tournament, following, replay=replay)
    _returned(tournament, episode.number, _eliminated_by(episode, match))
    return fixed


def _following(
    tournament: Tournament, following: Episode | None, *, replay: bool
) -> corrections.Plan:
    """What the ruling undoes in the episode after the settled one."""
    if following is None:
        return corrections.Plan((), (), ())
    if following.kind == Episode.Kind.FINAL:
        final = _final(tournament)
        played = final.is_decided or final.match_games.exists()
        _check_no_disputes([final])  # reset, re-paired or removed: its parties change
        if played:
            return corrections.Plan(("FINAL",), (), ())
        return corrections.Plan((), () if replay else ("FINAL",), ())
    death_matches = list(_death_matches(following))
    decided = [m.code for m in death_matches if m.is_decided]
    if decided:
        raise Conflict(
            _(
                "episode %(episode)s has already settled %(codes)s, which eliminated a player; "
                "take that result away first (a replay ruling on it), then rule on this one"
            )
            % {"episode": following.number, "codes": ", ".join(decided)}
        )
    _check_no_disputes(death_matches)
    resets = (main_match_step(following.number),) if _progressed(following) else ()
    return corrections.Plan(resets + tuple(m.code for m in death_matches), (), ())


def _keeps_elimination(episode: Episode, match: Match, winner: Entrant | None) -> bool:
    """Whether an overturn leaves the same player out (it names the winner again, or the
    DMO of a drawn Death Match): only the match's own result changes then."""
    if winner is None:
        return False
    if episode.kind == Episode.Kind.FINAL:
        return winner.pk == match.winner_id
    loser = match.away_id if winner.pk == match.home_id else match.home_id
    return loser == _eliminated_by(episode, match)


def _progressed(episode: Episode) -> bool:
    """Whether anything was played or chosen in the episode (the host's settings aside)."""
    return bool(
        episode.status != Status.MAIN_MATCH
        or episode.winners
        or episode.losers
        or episode.mm_game_id
        or episode.submissions.exists()
    )


def _check_no_disputes(matches: list[Match]) -> None:
    """A dispute keeps its match: a match with one is not reset or removed from under it."""
    disputed = sorted({m.code for m in matches if m.disputes.exists()})
    if disputed:
        raise Conflict(
            _(
                "this ruling would undo %(codes)s, which has a dispute on record; a match is "
                "never undone from under its dispute, so this result stands (dismiss or uphold "
                "this dispute)"
            )
            % {"codes": ", ".join(disputed)}
        )


def _eliminated_by(episode: Episode, match: Match) -> int:
    """The entrant the settled Death Match eliminated, as the season recorded it."""
    for entrant in (match.home, match.away):
        if entrant is not None and entrant.eliminated_in == episode.number:
            return entrant.pk
    raise Conflict(
        _(
            "the season does not show %(match)s's elimination; run check_tournaments and "
            "repair the season before ruling"
        )
        % {"match": match.code}
    )


def _returned(tournament: Tournament, number: int, player: int) -> ledger.Ledger:
    """The ledger with ``player``'s elimination settlement returned, or why it cannot be."""
    before = seasons.ledger_for(tournament)
    try:
        return ledger.return_settlement(before, player, number)
    except FormatError:
        # Only paying back a transfer can fail: its receiver holds less than it gave them.
        entry = ledger.outstanding_settlement(before, player, number)
        payer = Entrant.objects.get(pk=entry.to) if entry and entry.to else None
        raise Conflict(
            _(
                "reinstating %(player)s gives back the %(amount)s %(currency)s their "
                "elimination paid to %(winner)s, who holds only %(held)s now; the ledger never "
                "goes below zero, so this ruling waits until %(winner)s holds them again"
            )
            % {
                "player": Entrant.objects.get(pk=player).display_name,
                "amount": entry.amount if entry else 0,
                "currency": entry.currency if entry else "",
                "winner": payer.display_name if payer else "?",
                "held": ledger.balance(before, payer.pk, entry.currency) if payer and entry else 0,
            }
        ) from None


# -- the rulings ------------------------------------------------------------------------------


def overturn(
    match: Match,
    fixed: corrections.Plan,
    *,
    dispute: Dispute,
    by: Any,
    winner: Entrant,
    forfeit: bool,
    reason: str,
) -> None:
    """``winner`` wins the settled Death Match (or the final) instead: the eliminations swap,
    the ledger follows, and what came after is undone exactly as ``fixed`` listed."""
    tournament = match.stage.tournament
    episode = Episode.objects.select_for_update().get(
        tournament=tournament, number=match.round.number
    )
    if _keeps_elimination(episode, match, winner):
        _set_result(match, fixed, by=by, winner=winner, forfeit=forfeit, reason=reason)
        return
    if episode.kind == Episode.Kind.FINAL:
        champion, runner_up = match.winner_id, match.loser_id
        _set_result(match, fixed, by=by, winner=winner, forfeit=forfeit, reason=reason)
        _reinstate(tournament, episode.number, runner_up, dispute=dispute, by=by, reason=reason)
        Entrant.objects.filter(pk=match.loser_id).update(eliminated_in=episode.number)
        audit.log(
            tournament,
            by,
            "season.won",
            reason=reason,
            winner=match.winner_id,
            previous_winner=champion,
            dispute=dispute.pk,
        )
        return
    loser = _eliminated_by(episode, match)
    _reinstate(tournament, episode.number, loser, dispute=dispute, by=by, reason=reason)
    following = tournament.episodes.filter(number=episode.number + 1).first()
    final = None
    if following is not None and following.kind == Episode.Kind.FINAL:
        final = Match.objects.select_for_update().get(stage=match.stage, code="FINAL")
        if "FINAL" in fixed.resets:
            # Before the new elimination: the new loser may be the final's runner-up.
            _reset_match(final, by=by, reason=reason, because=match)
            _reinstate_runner_up(tournament, final, by=by, reason=reason)
    _set_result(match, fixed, by=by, winner=winner, forfeit=forfeit, reason=reason)
    seasons.eliminate_loser(tournament, episode, match, by, reason=reason, dispute=dispute.pk)
    if final is not None:
        _pair_final_again(tournament, following, final, by=by, reason=reason, because=match)
    elif following is not None and fixed.resets:
        _reset_episode(tournament, following, fixed, by=by, reason=reason, because=match)


def unsettle(
    match: Match, fixed: corrections.Plan, *, dispute: Dispute, by: Any, reason: str
) -> None:
    """Take the settled result away before its match is played again (``dispute_games``):
    its loser is back in, its episode back at its Death Match, what came after undone as
    ``fixed`` listed. When the new game ends, ``seasons.match_decided`` settles it anew."""
    tournament = match.stage.tournament
    episode = Episode.objects.select_for_update().get(
        tournament=tournament, number=match.round.number
    )
    if episode.kind == Episode.Kind.FINAL:
        _reinstate(
            tournament, episode.number, match.loser_id, dispute=dispute, by=by, reason=reason
        )
    else:
        loser = _eliminated_by(episode, match)
        _reinstate(tournament, episode.number, loser, dispute=dispute, by=by, reason=reason)
        following = tournament.episodes.filter(number=episode.number + 1).first()
        if following is not None:
            _remove_episode(tournament, following, fixed, by=by, reason=reason, because=match)
    if episode.status == Status.FINISHED:
        episode.status = Status.DEATH_MATCH
        episode.save(update_fields=["status"])


# -- the steps --------------------------------------------------------------------------------


def _reinstate(
    tournament: Tournament,
    number: int,
    player: int | None,
    *,
    dispute: Dispute,
    by: Any,
    reason: str,
) -> None:
    """``player`` is back in the season, with what their elimination in ``number`` settled."""
    if player is None:
        return
    before = seasons.ledger_for(tournament)
    after = _returned(tournament, number, player)
    seasons.append_ledger(tournament, before, after)
    Entrant.objects.filter(pk=player).update(eliminated_in=None)
    audit.log(
        tournament,
        by,
        "season.reinstated",
        reason=reason,
        target=f"entrant:{player}",
        before={"eliminated_in": number},
        after={"eliminated_in": None},
        episode=number,
        entrant=player,
        returned=[
            {"kind": e.kind, "amount": e.amount, "from": e.player, "to": e.to}
            for e in after[len(before) :]
        ],
        dispute=dispute.pk,
    )


def _set_result(
    match: Match, fixed: corrections.Plan, *, by: Any, winner: Entrant, forfeit: bool, reason: str
) -> None:
    """The settled match's new result, audited as a correction (no downstream repair: the
    season's own steps follow it)."""
    previous = audit.result_of(match)
    match.home_score, match.away_score = checked_result(match, winner, None, None)
    decide(match, Match.ResultKind.FORFEIT if forfeit else Match.ResultKind.PLAYED)
    audit.log(
        match.stage.tournament,
        by,
        "match.result_corrected",
        reason=reason,
        target=f"match:{match.code}",
        before=previous,
        after=audit.result_of(match),
        match=match.code,
        winner=match.winner_id,
        forced=True,
        **({"resets": list(fixed.resets)} if fixed.resets else {}),
    )


def _reset_match(match: Match, *, by: Any, reason: str, because: Match) -> list[int]:
    """Void a following match's games (they stop counting; their logs stay), audited as
    the corrections' resets are."""
    voided = corrections.reset_games(match, by=by, reason=reason, corrected=because.code)
    emit(match.stage.tournament_id, "match.reset", **match_data(match), corrected=because.code)
    return voided


def _reinstate_runner_up(tournament: Tournament, final: Match, *, by: Any, reason: str) -> None:
    """A decided final is undone: its runner-up is back and the season runs again."""
    if not final.is_decided:
        return
    Entrant.objects.filter(pk=final.loser_id).update(eliminated_in=None)
    Stage.objects.filter(pk=final.stage_id).update(status=Stage.Status.RUNNING)
    if tournament.status == Tournament.Status.FINISHED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        tournament.status = Tournament.Status.RUNNING
        audit.log(tournament, by, "tournament.reopened", reason=reason, corrected=final.code)


def _pair_final_again(
    tournament: Tournament,
    final_episode: Episode,
    final: Match,
    *,
    by: Any,
    reason: str,
    because: Match,
) -> None:
    """The final is played by the two players now still in, as ``_create_final`` pairs
    them (seeding order), from its first game."""
    before = {"home": final.home_id, "away": final.away_id}
    finalists = seasons.season_for(tournament).players
    final.slots = list(finalists)
    final.home_id, final.away_id = finalists
    final.winner = final.loser = None
    final.home_score = final.away_score = 0
    final.result_kind = ""
    final.metrics = {}
    final.status = Match.Status.READY
    final.save()
    Round.objects.filter(pk=final.round_id).update(status=Round.Status.RUNNING)
    final_episode.status = Status.DEATH_MATCH
    final_episode.save(update_fields=["status"])
    audit.log(
        tournament,
        by,
        "season.final_paired",
        reason=reason,
        target="match:FINAL",
        before=before,
        after={"home": final.home_id, "away": final.away_id},
        corrected=because.code,
    )
    final.refresh_from_db()
    open_match(final)
    emit(tournament.pk, "match.ready", **match_data(final))


def _reset_episode(
    tournament: Tournament,
    episode: Episode,
    fixed: corrections.Plan,
    *,
    by: Any,
    reason: str,
    because: Match,
) -> None:
    """The episode goes back to its main match, to be played by the cast now still in."""
    voided = _undo_progress(episode, by=by, reason=reason, because=because)
    still_in = seasons.season_for(tournament).players
    episode.submissions.exclude(entrant_id__in=still_in).delete()
    episode.winners, episode.losers, episode.ecs = [], [], []
    episode.dmos, episode.tokens, episode.tokens_to_give = {}, {}, {}
    # The record keeps what was won; the reset takes it away (``check_tournaments`` agrees).
    token_record.expire_all(tournament, episode.number)
    episode.mm_game = None
    episode.status = Status.MAIN_MATCH
    episode.save()
    audit.log(
        tournament,
        by,
        "season.episode_reset",
        reason=reason,
        episode=episode.number,
        resets=list(fixed.resets),
        voided_games=voided,
        corrected=because.code,
    )


def _remove_episode(
    tournament: Tournament,
    episode: Episode,
    fixed: corrections.Plan,
    *,
    by: Any,
    reason: str,
    because: Match,
) -> None:
    """The episode after one that is not over any more goes; it is opened again when the
    replayed Death Match ends. The host's settings for it are kept in the audit entry."""
    voided: list[int] = []
    if episode.kind == Episode.Kind.FINAL:
        final = Match.objects.select_for_update().get(stage=because.stage, code="FINAL")
        if "FINAL" in fixed.resets:
            voided = _reset_match(final, by=by, reason=reason, because=because)
            _reinstate_runner_up(tournament, final, by=by, reason=reason)
        round_id = final.round_id
        final.delete()
        Round.objects.filter(pk=round_id).delete()
    else:
        voided = _undo_progress(episode, by=by, reason=reason, because=because)
    settings = {
        "mm_prompt": episode.mm_prompt,
        "mm_deadline": episode.mm_deadline.isoformat() if episode.mm_deadline else None,
        "dm_engine": episode.dm_engine,
        "dm_ruleset": episode.dm_ruleset,
        "dm_time_control": episode.dm_time_control,
        "dmo_deadline": episode.dmo_deadline.isoformat() if episode.dmo_deadline else None,
    }
    audit.log(
        tournament,
        by,
        "season.episode_removed",
        reason=reason,
        episode=episode.number,
        kind=episode.kind,
        resets=list(fixed.resets),
        voided_games=voided,
        settings=settings,
        corrected=because.code,
    )
    episode.delete()


def _undo_progress(episode: Episode, *, by: Any, reason: str, because: Match) -> list[int]:
    """Void the episode's main match game and remove its Death Matches (none decided: the
    preview refused that), their games voided."""
    voided: list[int] = []
    if episode.mm_game_id is not None:
        game_services.game_void(
            game_id=episode.mm_game_id,
            reason=f"{main_match_step(episode.number)} was reset: {because.code} was corrected",
            by=by,
        )
        voided.append(episode.mm_game_id)
    for match in _death_matches(episode).select_for_update():
        voided += _reset_match(match, by=by, reason=reason, because=because)
        match.delete()
    Round.objects.filter(stage=because.stage, bracket="episodes", number=episode.number).delete()
    return voided


def _death_matches(episode: Episode) -> Any:
    return Match.objects.filter(
        stage__tournament_id=episode.tournament_id,
        round__bracket="episodes",
        round__number=episode.number,
    ).order_by("code")


def _final(tournament: Tournament) -> Match:
    return Match.objects.get(stage__tournament=tournament, code="FINAL")
