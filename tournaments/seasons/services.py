"""Write paths of a Genius season, over the pure rules of ``tournaments.formats.genius``.

Each call rebuilds the pure season from rows, lets the pure function decide (or refuse with
a reason), and writes the result back with an audit entry. Death Matches are ordinary matches
whose home entrant is the EC and away entrant the DMO, so results flow in from hosted games or
from the organiser exactly as in any tournament.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from types import MappingProxyType
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engines
from games import services as game_services
from games.clocks import TimeControl, TimeControlError
from games.engines.base import ConfigError
from games.engines.messages import Message
from hosting.core import scheduling
from hosting.core.errors import Conflict, Forbidden
from hosting.core.wording import say
from notifications import services as notices
from notifications.models import Kind
from tournaments import adapters
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_episode, lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.events import emit, match_data
from tournaments.formats import FormatError, genius, ledger
from tournaments.models import (
    DeathMatchPick,
    Entrant,
    Episode,
    LedgerEntry,
    Match,
    Round,
    SealedSubmission,
    Stage,
    Tournament,
)
from tournaments.seasons import tokens as token_record
from tournaments.services.matches import DMO_TIE_DECISIONS, open_match
from tournaments.services.stages import withdraw_no_shows

Status = Episode.Status


# -- rebuilding the pure state ----------------------------------------------------------------


def rules_for(tournament: Tournament) -> genius.SeasonRules:
    """The season's rules from ``format_options``; an unknown key is refused, not ignored."""
    fields = [f.name for f in dataclasses.fields(genius.SeasonRules)]
    options = tournament.format_options
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise TournamentUserError(
            _("season rules: unknown rule %(rule)r; the rules are %(rules)s")
            % {"rule": unknown[0], "rules": ", ".join(fields)}
        )
    try:
        return genius.SeasonRules(**options)
    except (FormatError, TypeError) as error:
        raise TournamentUserError(
            _("season rules: %(error)s") % {"error": say(str(error))}
        ) from None


def season_for(tournament: Tournament, episode: Episode | None = None) -> genius.Season:
    """Players still in (seeding order), those eliminated, and this episode's tokens.

    A Token of Life protects for the episode it was won in, so only the current episode's
    tokens count.
    """
    entrants = tournament.entrants.filter(status__in=("registered", "checked_in"))
    still_in = entrants.filter(eliminated_in__isnull=True).order_by("seed")
    out = entrants.filter(eliminated_in__isnull=False).order_by("eliminated_in", "pk")
    tokens = {int(k): v for k, v in (episode.tokens if episode else {}).items() if v}
    return genius.Season(
        tuple(e.pk for e in still_in), tuple(e.pk for e in out), MappingProxyType(tokens)
    )


def episode_for(episode: Episode) -> genius.Episode:
    return genius.Episode(
        number=episode.number,
        winners=frozenset(episode.winners),
        losers=frozenset(episode.losers),
        ecs=tuple(episode.ecs),
        dmos=MappingProxyType({int(k): v for k, v in episode.dmos.items()}),
        tokens_to_give=MappingProxyType(
            {int(k): v for k, v in episode.tokens_to_give.items() if v}
        ),
    )


def ledger_for(tournament: Tournament, *, public: bool = False) -> ledger.Ledger:
    rows = tournament.ledger.filter(private=False) if public else tournament.ledger
    return tuple(
        ledger.LedgerEntry(
            kind=e.kind,
            player=e.entrant_id,
            amount=e.amount,
            reason=e.reason,
            to=e.to_id,
            currency=e.currency,
            episode=e.episode,
        )
        for e in rows.order_by("pk")
    )


def _store(episode: Episode, pure: genius.Episode, season: genius.Season) -> None:
    episode.winners = sorted(pure.winners)
    episode.losers = sorted(pure.losers)
    episode.ecs = list(pure.ecs)
    episode.dmos = {str(k): v for k, v in pure.dmos.items()}
    episode.tokens = {str(k): v for k, v in season.tokens.items()}
    episode.tokens_to_give = {str(k): v for k, v in pure.tokens_to_give.items() if v}


def append_ledger(tournament: Tournament, before: ledger.Ledger, after: ledger.Ledger) -> None:
    """Write the entries the pure ledger ``after`` added to ``before`` (append-only).

    An entry other than an award that moves the currency of a player with a private
    transfer in their history is private too: its amount (a settlement of their whole
    balance, a fine capped by it) would tell what the private transfer was."""
    private = tournament.ledger.filter(private=True)
    secret = set(private.values_list("entrant_id", flat=True)) | set(
        private.values_list("to_id", flat=True)
    )
    for entry in after[len(before) :]:
        LedgerEntry.objects.create(
            private=entry.kind != "award" and bool({entry.player, entry.to} & secret),
            tournament=tournament,
            kind=entry.kind,
            entrant_id=entry.player,
            amount=entry.amount,
            to_id=entry.to,
            currency=entry.currency,
            reason=entry.reason,
            episode=entry.episode,
        )


def _decided(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a pure rule; its refusal becomes a user error with the rule's own words, the
    players it names by their names (the pure rules know them by id)."""
    try:
        return call(*args, **kwargs)
    except FormatError as error:
        raise TournamentUserError(_named(error.args[0] if error.args else str(error))) from None


# The parameters of the pure rules' messages that are a player's id.
PLAYER_PARAMS = ("ec", "dmo", "chosen", "player", "giver", "receiver", "winner", "loser")


def _named(message: Any) -> Any:
    if not isinstance(message, Message) or message.parts:
        return message
    params = message.params.items()
    ids = {value for key, value in params if key in PLAYER_PARAMS and type(value) is int}
    if not ids:
        return message
    names = dict(Entrant.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    params = {
        key: names.get(value, value) if key in PLAYER_PARAMS and type(value) is int else value
        for key, value in message.params.items()
    }
    return Message(message.template, **params)


# -- the season -------------------------------------------------------------------------------


def season_start(*, tournament: Tournament, by: Any) -> Episode:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("only a Genius-format tournament runs as a season"))
        if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN):
            raise Conflict(_("this season has already started"))
        rules_for(tournament)
        withdraw_no_shows(tournament, by)
        cast = adapters.seeded_entrants_for(tournament)
        if len(cast) < 3:
            raise Conflict(_("a season needs a seeded cast of at least three players"))
        Stage.objects.create(
            tournament=tournament, format=genius.KEY, options=tournament.format_options
        )
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        audit.log(tournament, by, "season.started", cast=[e.pk for e in cast.values()])
        emit(tournament.pk, "tournament.started", stage=1, entrants=len(cast))
        return Episode.objects.create(tournament=tournament, number=1)


def sealed_open(*, episode: Episode, by: Any, prompt: str, deadline: Any) -> None:
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.status != Status.MAIN_MATCH or episode.winners:
            raise Conflict(_("the main match is already decided"))
        if deadline <= timezone.now():
            raise TournamentUserError(_("the deadline must be in the future"))
        episode.mm_prompt, episode.mm_deadline = prompt, deadline
        episode.save(update_fields=["mm_prompt", "mm_deadline"])
        audit.log(tournament, by, "season.sealed_opened", episode=episode.number)


def sealed_submit(*, episode: Episode, entrant: Entrant, by: Any, text: str) -> SealedSubmission:
    """A player's private answer, timestamped; replaced freely until the deadline only."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        if by != entrant.user:
            raise Forbidden(_("players submit their own answers"))
        if entrant.pk not in season_for(tournament).players:
            raise Conflict(_("only players still in the season take part"))
        if not episode.mm_deadline:
            raise Conflict(_("this main match takes no sealed submissions"))
        now = timezone.now()
        if now > episode.mm_deadline:
            raise Conflict(_("the deadline has passed; submissions can no longer change"))
        if not text.strip():
            raise TournamentUserError(_("an empty answer cannot be submitted"))
        if (
            not rules_for(tournament).sealed_edits
            and episode.submissions.filter(entrant=entrant).exists()
        ):
            raise Conflict(_("this season keeps each player's first answer; it cannot change"))
        submission, _created = SealedSubmission.objects.update_or_create(
            episode=episode, entrant=entrant, defaults={"text": text, "submitted_at": now}
        )
        return submission


def sealed_reveal(*, episode: Episode, by: Any) -> list[SealedSubmission]:
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if not episode.mm_deadline or timezone.now() <= episode.mm_deadline:
            raise Conflict(_("submissions are revealed after the deadline"))
        episode.mm_revealed = True
        episode.save(update_fields=["mm_revealed"])
        audit.log(tournament, by, "season.sealed_revealed", episode=episode.number)
        return list(episode.submissions.select_related("entrant"))


def main_match_game(
    *, episode: Episode, by: Any, engine: str, config: dict | None = None, time_control=None
) -> None:
    """Play the main match as a hosted game of any engine among the players still in."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.status != Status.MAIN_MATCH or episode.mm_game_id:
            raise Conflict(_("this main match is already under way or decided"))
        players = [Entrant.objects.get(pk=pk) for pk in season_for(tournament).players]
        game = game_services.game_create(
            engine_key=engine,
            seats=[game_services.SeatSpec(display_name=e.display_name) for e in players],
            config=config,
            time_control=time_control,
            created_by=tournament.organiser,
        )
        for seat, entrant in zip(game.seats.order_by("number"), players, strict=True):
            seat.user = entrant.user
            seat.save(update_fields=["user"])
        game_services.game_open_seed_window(
            game_id=game.pk, seconds=tournament.seed_window_seconds, by=by
        )
        episode.mm_game = game
        episode.save(update_fields=["mm_game"])
        audit.log(tournament, by, "season.main_match_game", episode=episode.number, game=game.pk)


def main_match_game_finished(*, game_id: int) -> bool:
    """A hosted main match ended: its first place wins, everyone else loses."""
    episode = Episode.objects.filter(mm_game_id=game_id).first()
    if episode is None:
        return False
    game = episode.mm_game
    seat_to_entrant = {
        str(seat.number): Entrant.objects.get(tournament=episode.tournament, user=seat.user).pk
        for seat in game.seats.all()
    }
    winners = [seat_to_entrant[str(s)] for s in (game.outcome or {}).get("winners", [])]
    losers = [pk for pk in seat_to_entrant.values() if pk not in winners]
    main_match_record(episode=episode, by=None, winners=winners, losers=losers)
    return True


def main_match_record(*, episode: Episode, by: Any, winners: list[int], losers: list[int]) -> None:
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.status != Status.MAIN_MATCH:
            raise Conflict(_("this episode's main match is already decided"))
        rules = rules_for(tournament)
        # Tokens carried over from the episode before (``tokens_carry_over``) count here.
        season = season_for(tournament, episode)
        held_before = dict(season.tokens)
        season, pure = _decided(genius.main_match, season, episode.number, winners, losers, rules)
        token_record.won(tournament, episode.number, held_before, dict(season.tokens))
        if genius.candidates_follow_from_result(pure, rules):
            pure = _decided(genius.name_elimination_candidates, pure, rules)
        pure = _waive_impossible_gift(season, pure)
        _store(episode, pure, season)
        episode.status = _next_status(pure)
        episode.save()
        audit.log(tournament, by, "season.main_match", episode=episode.number, winners=winners)


def candidates_choose(*, episode: Episode, by: Any, chosen: list[int]) -> None:
    """The MM winners (or the host for them) name the elimination candidates."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        if episode.status != Status.CANDIDATES:
            raise Conflict(_("candidates are not being chosen now"))
        _check_member(tournament, by, episode.winners, _("only the main match winners choose"))
        season = season_for(tournament, episode)
        pure = _decided(
            genius.name_elimination_candidates, episode_for(episode), rules_for(tournament), chosen
        )
        pure = _waive_impossible_gift(season, pure)
        _store(episode, pure, season)
        episode.status = _next_status(pure)
        episode.save()
        audit.log(tournament, by, "season.candidates", episode=episode.number, ecs=chosen)


def token_give(*, episode: Episode, by: Any, giver: int, receiver: int) -> None:
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        if episode.status != Status.TOKENS:
            raise Conflict(_("no Token of Life is waiting to be given"))
        _check_member(tournament, by, [giver], _("only the sole winner gives their token away"))
        season, pure = _decided(
            genius.give_token,
            season_for(tournament, episode),
            episode_for(episode),
            giver,
            receiver,
        )
        _store(episode, pure, season)
        episode.status = _next_status(pure)
        episode.save()
        token_record.given(tournament, episode.number, giver, receiver)
        audit.log(tournament, by, "season.token_given", episode=episode.number, to=receiver)


def opponent_choose(*, episode: Episode, by: Any, ec: int, dmo: int) -> None:
    """An EC picks their DMO; once every EC has, the Death Matches begin."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        if episode.status != Status.OPPONENTS:
            raise Conflict(_("opponents are not being chosen now"))
        _check_member(tournament, by, [ec], _("each candidate chooses their own opponent"))
        if (
            episode.dmo_deadline
            and timezone.now() > episode.dmo_deadline
            and not runs(tournament, by)
        ):
            raise Conflict(_("the deadline to choose has passed; the host decides now"))
        season = season_for(tournament, episode)
        three = rules_for(tournament).dm_players == 3
        if three and str(ec) in episode.dmos:
            _second_opponent(season, episode, ec, dmo)
        else:
            pure = _decided(genius.choose_opponent, season, episode_for(episode), ec, dmo)
            _store(episode, pure, season)
        audit.log(tournament, by, "season.opponent_chosen", episode=episode.number, ec=ec, dmo=dmo)
        # The cast is told (and the season's Discord: a public fact of the show).
        cast = Entrant.objects.filter(tournament=tournament, eliminated_in__isnull=True)
        notices.notify_many(
            list(cast.values_list("user_id", flat=True)),
            Kind.DMO_CHOSEN,
            notices.About(
                key=f"episode-dmo-chosen:{episode.pk}:{ec}:{dmo}",
                label=f"{tournament.name} · {episode.number}",
                url=reverse("tournament-detail", args=[tournament.slug]),
                tournament_id=tournament.pk,
            ),
        )
        picked = len(episode.dmos) == len(episode.ecs)
        if picked and (not three or len(episode.dm_third) == len(episode.ecs)):
            pick = DeathMatchPick.objects.filter(episode=episode, mode="bans", chosen="").first()
            if pick is not None:
                _start_bans(episode, pick)  # the DM begins once the bans leave one game
            else:
                episode.status = Status.DEATH_MATCH
                _create_death_matches(tournament, episode)
        episode.save()


def _taken_view(episode: Episode, ec: int) -> genius.Episode:
    """The pure episode as a second pick sees it: ``ec`` still to pick, every DMO (first and
    second) already taken (under keys that are no candidate)."""
    pure = episode_for(episode)
    taken = [v for k, v in pure.dmos.items() if k != ec] + [pure.dmos[ec]]
    taken += list(episode.dm_third.values())
    return dataclasses.replace(
        pure, dmos=MappingProxyType({-(i + 1): v for i, v in enumerate(taken)})
    )


def _second_opponent(season: genius.Season, episode: Episode, ec: int, dmo: int) -> None:
    """A three-player Death Match: the EC's second DMO, by the rules of the first pick."""
    if str(ec) in episode.dm_third:
        raise TournamentUserError(
            _named(
                Message(
                    "player {ec} has already chosen player {chosen}",
                    ec=ec,
                    chosen=episode.dm_third[str(ec)],
                )
            )
        )
    _decided(genius.choose_opponent, season, _taken_view(episode, ec), ec, dmo)
    episode.dm_third = {**episode.dm_third, str(ec): dmo}


def opponents_left(tournament: Tournament, episode: Episode, ec: int) -> list[int]:
    """Who ``ec`` may pick now: a first DMO, or (three-player) their second."""
    season = season_for(tournament, episode)
    if str(ec) not in episode.dmos:
        return genius.eligible_opponents(season, episode_for(episode))
    if rules_for(tournament).dm_players == 3 and str(ec) not in episode.dm_third:
        return genius.eligible_opponents(season, _taken_view(episode, ec))
    return []


# Until the Death Match begins the host may set how it is played and the DMO-pick deadline.
DM_SETUP_STATUSES = (Status.MAIN_MATCH, Status.CANDIDATES, Status.TOKENS, Status.OPPONENTS)


def death_match_setup(
    *,
    episode: Episode,
    by: Any,
    engine: str = "",
    config: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    dmo_deadline: Any = None,
) -> None:
    """The host chooses this episode's Death Match: its engine, the engine's config and the
    time control (allowance and reserve per phase), checked now for a two-seat game, and the
    deadline for the EC's DMO pick. After that deadline the EC can no longer pick: the season
    rules name no default DMO, so the host picks (the console prompts them)."""
    with transaction.atomic():
        tournament, episode = lock_episode(episode)
        check_runs(tournament, by)
        if episode.kind == Episode.Kind.FINAL or episode.status not in DM_SETUP_STATUSES:
            raise Conflict(_("this episode's Death Match has begun; its settings stay as they are"))
        engine = engine or tournament.game
        if engine not in engines.known_keys():
            raise TournamentUserError(
                _("unknown game %(game)r; games: %(games)s")
                % {"game": engine, "games": ", ".join(engines.known_keys())}
            )
        played = engines.get(engine)
        seats = rules_for(tournament).dm_players
        if not played.min_seats <= seats <= played.max_seats:
            raise TournamentUserError(
                _("this season's Death Match is a %(seats)s-player game; %(game)s is not")
                % {"seats": seats, "game": played.name}
            )
        if dmo_deadline is not None and dmo_deadline <= timezone.now():
            raise TournamentUserError(_("the deadline must be in the future"))
        try:
            checked = played.validate_config(config or {}, seats)
            defaults = game_services.time_control_defaults(played, checked)
            TimeControl.from_json(time_control or {}, defaults)
        except (ConfigError, TimeControlError) as error:
            raise TournamentUserError(str(error)) from None
        episode.dm_engine = engine
        episode.dm_ruleset = config or {}
        episode.dm_time_control = time_control or {}
        episode.dmo_deadline = dmo_deadline
        episode.save(update_fields=["dm_engine", "dm_ruleset", "dm_time_control", "dmo_deadline"])
        audit.log(
            tournament,
            by,
            "season.death_match_setup",
            episode=episode.number,
            engine=engine,
            time_control=episode.dm_time_control,
            dmo_deadline=dmo_deadline.isoformat() if dmo_deadline else None,
        )


def dmo_pick_overdue(episode: Episode) -> bool:
    """The DMO-pick deadline has passed with a pick still missing: the host must pick."""
    return bool(
        episode.status == Status.OPPONENTS
        and episode.dmo_deadline
        and timezone.now() > episode.dmo_deadline
    )


def _check_member(tournament: Tournament, user: Any, entrant_ids: list[int], message: str) -> None:
    if runs(tournament, user):
        return
    if not getattr(user, "is_authenticated", False):
        raise Forbidden(message)
    if not tournament.entrants.filter(pk__in=entrant_ids, user=user).exists():
        raise Forbidden(message)


def _waive_impossible_gift(season: genius.Season, pure: genius.Episode) -> genius.Episode:
    """A sole winner gives a spare token away only while that still leaves every candidate
    an opponent to choose; late in a season (three players left) the duty lapses."""
    if not pure.ecs or not any(pure.tokens_to_give.values()):
        return pure
    if len(genius.eligible_opponents(season, pure)) > len(pure.ecs):
        return pure
    return dataclasses.replace(pure, tokens_to_give=MappingProxyType({}))


def _next_status(pure: genius.Episode) -> str:
    if not pure.ecs:
        return Status.CANDIDATES
    if any(pure.tokens_to_give.values()):
        return Status.TOKENS
    return Status.OPPONENTS


def _round_for(tournament: Tournament, episode: Episode) -> tuple[Stage, Round]:
    stage = tournament.stages.get(format=genius.KEY)
    bracket = "final" if episode.kind == Episode.Kind.FINAL else "episodes"
    round_, _created = Round.objects.get_or_create(
        stage=stage, bracket=bracket, number=episode.number, defaults={"status": "running"}
    )
    return stage, round_


def _start_bans(episode: Episode, pick: DeathMatchPick) -> None:
    """Every DMO is picked: the ECs and DMOs ban games from the pool in turn (EC first), each
    within ``step_seconds``; a Celery task bans at random for whoever lets the time run out."""
    order: list[int] = []
    for ec, dmo in episode.dmos.items():
        order += [int(ec), dmo]
    pick.order = order
    pick.step_deadline = timezone.now() + timedelta(seconds=pick.step_seconds)
    pick.save(update_fields=["order", "step_deadline"])
    episode.status = Status.DM_PICK
    arm_ban_timeout(pick)


def arm_ban_timeout(pick: DeathMatchPick) -> None:
    pk, step, when = pick.pk, len(pick.banned), pick.step_deadline.timestamp()
    transaction.on_commit(
        lambda: scheduling.schedule("tournaments.dm_ban_timeout", when, pick_id=pk, step=step)
    )


def _create_death_matches(tournament: Tournament, episode: Episode) -> None:
    stage, round_ = _round_for(tournament, episode)
    extra: dict[str, Any] = {"roles": ["EC", "DMO"]}
    if episode.dm_engine:
        extra["game"] = {
            "engine": episode.dm_engine,
            "config": episode.dm_ruleset,
            "time_control": episode.dm_time_control,
        }
    for index, (ec, dmo) in enumerate(episode.dmos.items(), start=1):
        extra = dict(extra)
        extra.pop("first_seat", None)
        if episode.dm_advantage_id in (int(ec), dmo):
            extra["first_seat"] = episode.dm_advantage_id
        slots = [int(ec), dmo]
        if str(ec) in episode.dm_third:
            # Three players, seated EC, DMO, second DMO; the last place is eliminated.
            slots.append(episode.dm_third[str(ec)])
            extra = {**extra, "three": slots, "roles": ["", ""]}
        match = Match.objects.create(
            stage=stage,
            round=round_,
            code=f"E{episode.number}.DM{index}",
            slots=slots,
            home_id=int(ec),
            away_id=dmo,
            status=Match.Status.READY,
            extra=extra,
        )
        open_match(match)
        emit(tournament.pk, "match.ready", **match_data(match))


def _create_final(tournament: Tournament, episode: Episode, finalists: tuple[int, ...]) -> None:
    stage, round_ = _round_for(tournament, episode)
    match = Match.objects.create(
        stage=stage,
        round=round_,
        code="FINAL",
        slots=list(finalists),
        home_id=finalists[0],
        away_id=finalists[1],
        best_of=rules_for(tournament).final_best_of,
        status=Match.Status.READY,
        extra={"roles": ["EC", "DMO"]},
    )
    open_match(match)
    emit(tournament.pk, "match.ready", **match_data(match))


def match_decided(match: Match) -> None:
    """A Death Match or the final ended (from games or the organiser): settle the season."""
    tournament = match.stage.tournament
    episode = tournament.episodes.select_for_update().get(number=match.round.number)
    if episode.kind == Episode.Kind.FINAL:
        _finish_season(tournament, episode, match)
        return
    eliminate_loser(tournament, episode, match)
    if match.stage.matches.filter(round=match.round).exclude(status="finished").exists():
        return
    episode.status = Status.FINISHED
    episode.save(update_fields=["status"])
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.FINISHED)
    carried = token_record.settle_episode(
        tournament, episode, carry_over=rules_for(tournament).tokens_carry_over
    )
    following = season_for(tournament)
    if following.stage == "final":
        final = Episode.objects.create(
            tournament=tournament,
            number=episode.number + 1,
            kind=Episode.Kind.FINAL,
            status=Status.DEATH_MATCH,
        )
        token_record.expire_all(tournament, episode.number)
        _create_final(tournament, final, following.players)
    else:
        Episode.objects.create(tournament=tournament, number=episode.number + 1, tokens=carried)


def eliminate_loser(
    tournament: Tournament, episode: Episode, match: Match, by: Any = None, **data: Any
) -> None:
    """The Death Match's loser leaves the season and their currency is settled by its rule
    (``genius.eliminate``); ``data`` joins the audit entry (a dispute ruling names itself)."""
    result = _death_match_result(episode, match)
    before = ledger_for(tournament)
    _before, after = _decided(
        genius.eliminate,
        season_for(tournament, episode),
        result,
        rules_for(tournament),
        before,
        episode=episode.number,
    )
    append_ledger(tournament, before, after)
    token_record.lost(tournament, episode, result.loser)
    Entrant.objects.filter(pk=result.loser).update(eliminated_in=episode.number)
    audit.log(
        tournament,
        by,
        "season.eliminated",
        episode=episode.number,
        loser=result.loser,
        winner=result.winner,
        dmo_won_tie=result.tie,
        **data,
    )


def _death_match_result(episode: Episode, match: Match) -> genius.DeathMatchResult:
    """The DM's winner as the game (or the organiser) decided it; a drawn result entered by
    the organiser is a tie, which the DMO wins. ``tie`` also records a game that its own
    tie-break chain settled in the DMO's favour."""
    ec = match.home_id
    if match.extra.get("three"):
        # First place wins, last place (decided with the game, ``matches.decide_three``) loses.
        return genius.DeathMatchResult(
            ec=ec,
            dmo=match.away_id,
            winner=match.winner_id,
            loser=match.loser_id,
            tie=False,
        )
    if match.winner_id is None:
        return _decided(genius.death_match_result, episode_for(episode), ec, 0.5, 0.5)
    ec_won = match.winner_id == ec
    result = _decided(
        genius.death_match_result, episode_for(episode), ec, float(ec_won), float(not ec_won)
    )
    last = match.match_games.order_by("-number").select_related("game").first()
    decided_by = ((last.game.outcome or {}).get("details", {}) if last else {}).get("decided_by")
    return dataclasses.replace(result, tie=decided_by in DMO_TIE_DECISIONS)


def _finish_season(tournament: Tournament, episode: Episode, match: Match) -> None:
    Entrant.objects.filter(pk=match.loser_id).update(eliminated_in=episode.number)
    episode.status = Status.FINISHED
    episode.save(update_fields=["status"])
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.FINISHED)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    match.stage.status = Stage.Status.FINISHED
    match.stage.save(update_fields=["status"])
    audit.log(tournament, None, "season.won", winner=match.winner_id)
    emit(tournament.pk, "tournament.finished", stage=match.stage.number, winner=match.winner_id)


# -- currency ---------------------------------------------------------------------------------


def ledger_record(
    *,
    tournament: Tournament,
    by: Any,
    kind: str,
    entrant: int,
    amount: int,
    reason: str,
    to: int | None = None,
) -> None:
    """Award, transfer or spend currency; the pure ledger refuses overdrafts with a reason."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if kind == "transfer" and not runs(tournament, by):
            _check_member(tournament, by, [entrant], _("only the payer can transfer their garnets"))
        else:
            check_runs(tournament, by)
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("garnets belong to Genius seasons"))
        named = {entrant} | ({to} if to is not None else set())
        if tournament.entrants.filter(pk__in=named).count() != len(named):
            raise TournamentUserError(_("every entrant in a ledger entry must be in this season"))
        if kind == "transfer" and to is None:
            raise TournamentUserError(_('a transfer needs "to": the entrant who receives it'))
        rules = rules_for(tournament)
        currency = rules.currency
        if (
            kind == "transfer"
            and not runs(tournament, by)
            and (rules.transfers != "immediate" or rules.transfer_visibility != "public")
        ):
            # Acceptance, approval or privacy: the offer path (``seasons.transfers``) keeps them.
            raise Conflict(
                _("this season's transfers are offers: make one on the season desk or /transfers")
            )
        operations = {
            "award": lambda led: ledger.award(led, entrant, amount, reason, currency=currency),
            "spend": lambda led: ledger.spend(led, entrant, amount, reason, currency=currency),
            "transfer": lambda led: ledger.transfer(
                led, entrant, to, amount, reason, currency=currency
            ),
        }
        if kind not in operations:
            raise TournamentUserError(
                _("a ledger entry is one of: %(kinds)s") % {"kinds": ", ".join(operations)}
            )
        before = ledger_for(tournament)
        after = _decided(operations[kind], before)
        append_ledger(tournament, before, after)
        audit.log(tournament, by, f"season.ledger.{kind}", entrant=entrant, amount=amount, to=to)


def balances(tournament: Tournament) -> dict[int, int]:
    return ledger.balances(ledger_for(tournament), rules_for(tournament).currency)


def public_balances(tournament: Tournament) -> dict[int, int]:
    """Balances as everyone may see them: private transfers left out (their two players and
    the hosts see the whole ledger, ``balances``)."""
    return ledger.balances(ledger_for(tournament, public=True), rules_for(tournament).currency)
