"""Write paths of a tournament: registration, check-in, seeding, stages, results, advancing.

Each runs in a transaction with the tournament row locked, records an ``AuditEntry`` and calls
the pure formats through ``tournaments.adapters``. Results flow in from finished hosted games
(the ``game_finished`` signal) or from the organiser; every result advances the tournament by
itself: brackets open the matches it decides, and a finished round pairs the next one.
"""

from __future__ import annotations

import math
import random
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engines
from games import services as game_services
from games.clocks import TimeControl, TimeControlError
from games.engines.base import ConfigError
from games.models import GameSession
from hosting.core.errors import Conflict, Forbidden, UserError
from hosting.core.roles import is_organiser, is_staff_admin
from tournaments import adapters, corrections, tiebreaks
from tournaments.events import emit, match_data
from tournaments.formats import FormatError
from tournaments.formats.double_elimination import reset_needed
from tournaments.models import (
    Entrant,
    Match,
    MatchGame,
    Round,
    Stage,
    Tournament,
)

Status = Tournament.Status
SEEDING_METHODS = ("manual", "random", "rating")


class TournamentUserError(UserError):
    pass


def audit(
    tournament: Tournament,
    actor: Any,
    action: str,
    reason: str = "",
    *,
    target: str = "",
    before: Any = None,
    after: Any = None,
    **data: Any,
) -> None:
    """A tournament's entry in the service's audit log (``tournaments.core.audit``)."""
    from tournaments.core.audit import record  # the audit module reads these models too

    record(
        actor,
        f"tournaments.{action}",
        tournament=tournament,
        target=target,
        before=before,
        after=after,
        reason=reason,
        **data,
    )


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def check_runs(tournament: Tournament, user: Any) -> None:
    """Refuse unless ``user`` runs this tournament (its organiser or a staff admin);
    ``None`` is the system itself (results flowing in from games)."""
    if user is None:
        return
    if user.pk == tournament.organiser_id or is_staff_admin(user):
        return
    raise Forbidden(_("only this tournament's organiser can do that"))


# -- registration -----------------------------------------------------------------------------


TOURNAMENT_FORMATS = (*adapters.BRACKET_FORMATS, "swiss", "genius")
# Addresses of pages beside the tournaments' own (/tournaments/new/, /tournaments/mine/).
RESERVED_SLUGS = frozenset({"new", "mine"})
# A match game waits at most this long for its players' client seeds (games.fairness).
MAX_SEED_WINDOW_SECONDS = 600


def tournament_create(*, organiser: Any, **fields: Any) -> Tournament:
    """A draft tournament; the game, format and tie-break chain are checked up front."""
    if not is_organiser(organiser):
        raise Forbidden(_("only organisers can create tournaments"))
    if fields.get("game") not in engines.known_keys():
        raise TournamentUserError(
            _("unknown game %(game)r; games: %(games)s")
            % {"game": fields.get("game"), "games": ", ".join(engines.known_keys())}
        )
    if fields.get("slug") in RESERVED_SLUGS:
        raise TournamentUserError(
            _("the address %(slug)r is reserved; choose another") % {"slug": fields["slug"]}
        )
    _check_settings(fields)
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(organiser=organiser, **fields)
    except IntegrityError:
        raise Conflict(
            _("the address %(slug)r is taken; choose another") % {"slug": fields.get("slug")}
        ) from None
    audit(tournament, organiser, "tournament.created", format=tournament.format)
    return tournament


def _check_settings(fields: dict[str, Any]) -> None:
    """The format, tie-break chain, regulations, game settings and season rules: checked
    the same way when a tournament is created and each time it is edited."""
    if fields.get("format") not in TOURNAMENT_FORMATS:
        raise TournamentUserError(
            _("the format is one of: %(formats)s") % {"formats": ", ".join(TOURNAMENT_FORMATS)}
        )
    try:
        for key in fields.get("tiebreaks", []):
            tiebreaks.get(key)
        if "tiebreak_regulations" in fields:
            tiebreaks.check_regulations(fields["tiebreak_regulations"])
    except FormatError as error:
        raise TournamentUserError(str(error)) from None
    _check_game_settings(fields)
    window = fields.get("seed_window_seconds", 0)
    if not isinstance(window, int) or not 0 <= window <= MAX_SEED_WINDOW_SECONDS:
        raise TournamentUserError(
            _("the seed window is 0 to %(most)s seconds") % {"most": MAX_SEED_WINDOW_SECONDS}
        )
    pairing = (fields.get("format_options") or {}).get("pairing", "automatic")
    if fields.get("format") == "swiss" and pairing not in SWISS_PAIRING:
        raise TournamentUserError(
            _("pairing is one of: %(choices)s") % {"choices": ", ".join(SWISS_PAIRING)}
        )
    if fields.get("format") == "genius":
        from tournaments.seasons.services import rules_for

        rules_for(Tournament(format_options=fields.get("format_options", {})))


# What an organiser may change before the start; the game and format only while a draft.
EDITABLE = (
    "name",
    "description",
    "ruleset",
    "time_control",
    "format_options",
    "tiebreaks",
    "tiebreak_regulations",
    "capacity",
    "best_of",
    "play_online",
    "seed_window_seconds",
    "registration_opens",
    "registration_closes",
    "check_in_closes",
    "visibility",
)
EDITABLE_IN_DRAFT = ("game", "format")


def tournament_update(*, tournament: Tournament, by: Any, **fields: Any) -> Tournament:
    """Change a tournament's settings until it starts, checked as at its creation."""
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        if tournament.status not in (Status.DRAFT, Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("a tournament's settings change only until it starts"))
        allowed = EDITABLE + (EDITABLE_IN_DRAFT if tournament.status == Status.DRAFT else ())
        refused = sorted(set(fields) - set(allowed))
        if refused:
            raise TournamentUserError(
                _("these cannot change now: %(fields)s") % {"fields": ", ".join(refused)}
            )
        current = {name: getattr(tournament, name) for name in (*EDITABLE, *EDITABLE_IN_DRAFT)}
        _check_settings(current | fields)
        changed = sorted(name for name, value in fields.items() if current[name] != value)
        for name in changed:
            setattr(tournament, name, fields[name])
        if changed:
            tournament.save(update_fields=[*changed, "updated"])
            audit(tournament, by, "tournament.edited", fields=changed)
        return tournament


# Ruleset keys the tournament itself reads; the engine is given the rest as its config.
UNDECIDED_RULES = ("replay", "higher_seed")


def engine_config(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The game's config: the tournament's ruleset without the tournament's own keys."""
    return {key: value for key, value in (ruleset or {}).items() if key != "undecided"}


def undecided_rule(tournament: Tournament) -> str:
    """What settles an elimination match whose games leave it level (a drawn game, a double
    timeout): ``replay`` (another game, the default) or ``higher_seed`` (the better seed)."""
    return (tournament.ruleset or {}).get("undecided", "replay")


def _check_game_settings(fields: dict[str, Any]) -> None:
    """The ruleset and time control must be ones the game accepts, checked for a two-seat
    game (or the engine's smallest table) so that mistakes surface now, not at the start."""
    engine = engines.get(fields["game"])
    seats = max(2, engine.min_seats)
    undecided = (fields.get("ruleset") or {}).get("undecided", "replay")
    if undecided not in UNDECIDED_RULES:
        raise TournamentUserError(
            _("ruleset: undecided must be one of %(rules)s, got %(value)r")
            % {"rules": ", ".join(UNDECIDED_RULES), "value": undecided}
        )
    try:
        config = engine.validate_config(engine_config(fields.get("ruleset") or {}), seats)
        defaults = game_services.time_control_defaults(engine, config)
        TimeControl.from_json(fields.get("time_control") or {}, defaults)
    except (ConfigError, TimeControlError) as error:
        raise TournamentUserError(str(error)) from None


def registration_open(*, tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        if tournament.status != Status.DRAFT:
            raise Conflict(_("registration opens once, from a draft tournament"))
        tournament.status = Status.REGISTRATION
        tournament.save(update_fields=["status"])
        audit(tournament, by, "registration.opened")


def entrant_register(
    *,
    tournament: Tournament,
    user: Any,
    display_name: str = "",
    partner: Any = None,
    rating: int | None = None,
) -> Entrant:
    """Register, or join the waitlist when the tournament is full."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.status != Status.REGISTRATION:
            raise Conflict(_("registration is not open"))
        now = timezone.now()
        if tournament.registration_opens and now < tournament.registration_opens:
            raise Conflict(_("registration has not opened yet"))
        if tournament.registration_closes and now > tournament.registration_closes:
            raise Conflict(_("registration has closed"))
        if tournament.entrants.filter(user=user).exists():
            raise Conflict(_("you are already registered"))
        if partner is not None and partner == user:
            raise TournamentUserError(_("a team of two needs two different people"))
        taken = tournament.entrants.filter(status=Entrant.Status.REGISTERED).count()
        full = tournament.capacity is not None and taken >= tournament.capacity
        entrant = Entrant.objects.create(
            tournament=tournament,
            user=user,
            partner=partner,
            display_name=display_name or user.get_username(),
            rating=rating,
            status=Entrant.Status.WAITLISTED if full else Entrant.Status.REGISTERED,
        )
        audit(tournament, user, "entrant.registered", entrant=entrant.pk, waitlisted=full)
        return entrant


def entrant_withdraw(*, entrant: Entrant, by: Any) -> None:
    """Withdraw; before the start the first on the waitlist takes the place."""
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        entrant.refresh_from_db()
        if by != entrant.user:
            check_runs(tournament, by)
        if entrant.status in (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED):
            raise Conflict(_("this entry has already ended"))
        held_place = entrant.status in (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN)
        entrant.status = Entrant.Status.WITHDRAWN
        entrant.save(update_fields=["status"])
        audit(tournament, by, "entrant.withdrawn", entrant=entrant.pk)
        if held_place and tournament.status in (Status.REGISTRATION, Status.CHECK_IN):
            promoted = waiting_list(tournament).first()
            if promoted is not None:
                promoted.status = Entrant.Status.REGISTERED
                promoted.save(update_fields=["status"])
                audit(tournament, None, "entrant.promoted", entrant=promoted.pk)


def waiting_list(tournament: Tournament) -> Any:
    """The waitlist in the order its places are given: first registered, first promoted."""
    waiting = tournament.entrants.filter(status=Entrant.Status.WAITLISTED)
    return waiting.order_by("registered_at", "pk")


def check_in_open(*, tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        if tournament.status != Status.REGISTRATION:
            raise Conflict(_("check-in follows registration"))
        tournament.status = Status.CHECK_IN
        tournament.check_in_opens = tournament.check_in_opens or timezone.now()
        tournament.save(update_fields=["status", "check_in_opens"])
        audit(tournament, by, "check_in.opened")


def entrant_check_in(*, entrant: Entrant, by: Any) -> None:
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        entrant.refresh_from_db()
        if by != entrant.user:
            check_runs(tournament, by)  # the organiser may check someone in at the desk
        if tournament.status != Status.CHECK_IN:
            raise Conflict(_("check-in is not open"))
        if tournament.check_in_closes and timezone.now() > tournament.check_in_closes:
            raise Conflict(_("check-in has closed"))
        if entrant.status != Entrant.Status.REGISTERED:
            raise Conflict(
                _("a %(status)s entry cannot check in")
                % {"status": str(entrant.get_status_display()).lower()}
            )
        entrant.status = Entrant.Status.CHECKED_IN
        entrant.checked_in_at = timezone.now()
        entrant.save(update_fields=["status", "checked_in_at"])
        audit(tournament, by, "entrant.checked_in", entrant=entrant.pk)


def entrant_promote(*, entrant: Entrant, by: Any) -> None:
    """The organiser gives a waitlisted entrant a place (over the capacity if need be)."""
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        check_runs(tournament, by)
        entrant.refresh_from_db()
        if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("places are given before the start"))
        if entrant.status != Entrant.Status.WAITLISTED:
            raise Conflict(_("only a waitlisted entry can be promoted"))
        entrant.status = Entrant.Status.REGISTERED
        entrant.save(update_fields=["status"])
        audit(tournament, by, "entrant.promoted", entrant=entrant.pk)


def entrant_disqualify(*, entrant: Entrant, by: Any, reason: str) -> None:
    """The organiser disqualifies an entrant, with a reason. Before the start the place goes
    to the waitlist as for a withdrawal; once running, a match they are playing or about to
    play is won by their opponent by forfeit."""
    if not reason.strip():
        raise TournamentUserError(_("a disqualification needs a reason"))
    with transaction.atomic():
        tournament = _lock(entrant.tournament)
        check_runs(tournament, by)
        entrant.refresh_from_db()
        if entrant.status in (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED):
            raise Conflict(_("this entry has already ended"))
        held_place = entrant.status in (Entrant.Status.REGISTERED, Entrant.Status.CHECKED_IN)
        held_status = entrant.status
        entrant.status = Entrant.Status.DISQUALIFIED
        entrant.save(update_fields=["status"])
        audit(
            tournament,
            by,
            "entrant.disqualified",
            reason=reason,
            target=f"entrant:{entrant.pk}",
            before={"status": held_status},
            after={"status": entrant.status},
            entrant=entrant.pk,
        )
        if held_place and tournament.status in (Status.REGISTRATION, Status.CHECK_IN):
            promoted = waiting_list(tournament).first()
            if promoted is not None:
                promoted.status = Entrant.Status.REGISTERED
                promoted.save(update_fields=["status"])
                audit(tournament, None, "entrant.promoted", entrant=promoted.pk)
        open_matches = Match.objects.filter(
            stage__tournament=tournament, status__in=[Match.Status.READY, Match.Status.LIVE]
        ).filter(models.Q(home=entrant) | models.Q(away=entrant))
        for match in open_matches:
            opponent = match.away if match.home_id == entrant.pk else match.home
            match_report_result(match=match, by=by, winner=opponent, forfeit=True, reason=reason)


def seeding_apply(
    *,
    tournament: Tournament,
    by: Any,
    method: str,
    order: list[int] | None = None,
    rng: random.Random | None = None,
) -> list[Entrant]:
    """Number the taking-part entrants 1..n. With a check-in, those who did not check in are
    dropped to the bottom seeds (and take part only if the organiser keeps them)."""
    if method not in SEEDING_METHODS:
        raise TournamentUserError(
            _("seeding is one of: %(methods)s") % {"methods": ", ".join(SEEDING_METHODS)}
        )
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("seeding happens before the start"))
        active = list(tournament.entrants.filter(status__in=adapters.ACTIVE))
        previous = {str(e.pk): e.seed for e in active}
        if method == "manual":
            ids = [e.pk for e in active]
            if sorted(order or []) != sorted(ids):
                raise TournamentUserError(_("a manual seeding lists every entrant exactly once"))
            position = {pk: i for i, pk in enumerate(order)}
            active.sort(key=lambda e: position[e.pk])
        elif method == "random":
            (rng or random.SystemRandom()).shuffle(active)
        else:
            active.sort(key=lambda e: (-(e.rating or 0), e.registered_at, e.pk))
        if tournament.status == Status.CHECK_IN:
            active.sort(
                key=lambda e: e.status != Entrant.Status.CHECKED_IN
            )  # stable: no-shows last
        tournament.entrants.update(seed=None)
        for seed, entrant in enumerate(active, start=1):
            entrant.seed = seed
            entrant.save(update_fields=["seed"])
        audit(
            tournament,
            by,
            "seeding.applied",
            target=f"tournament:{tournament.slug}",
            before={"seeds": previous},
            after={"seeds": {str(e.pk): e.seed for e in active}},
            method=method,
            order=[e.pk for e in active],
        )
        return active


# -- stages and matches -----------------------------------------------------------------------


def stage_start(*, tournament: Tournament, by: Any) -> Stage:
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("this tournament has already started"))
        withdraw_no_shows(tournament)
        seeded = adapters.seeded_entrants_for(tournament)
        if len(seeded) < 2:
            raise Conflict(_("at least two seeded entrants are needed; apply a seeding first"))
        stage = Stage.objects.create(
            tournament=tournament,
            number=tournament.stages.count() + 1,
            format=tournament.format,
            options=tournament.format_options,
        )
        try:
            if stage.format == "swiss":
                rounds = tournament.format_options.get("rounds") or math.ceil(
                    math.log2(len(seeded))
                )
                stage.total_rounds = int(rounds)
                stage.save(update_fields=["total_rounds"])
                _pair_swiss_round(stage, 1)
            elif stage.format in adapters.BRACKET_FORMATS:
                _create_bracket(stage, len(seeded))
            else:
                raise TournamentUserError(
                    _("%(format)r tournaments are run as seasons") % {"format": stage.format}
                )
        except FormatError as error:
            raise TournamentUserError(str(error)) from None
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        audit(tournament, by, "stage.started", stage=stage.number, entrants=len(seeded))
        emit(tournament.pk, "tournament.started", stage=stage.number, entrants=len(seeded))
        _advance(stage)
        return stage


def withdraw_no_shows(tournament: Tournament) -> None:
    """At the start, entrants who did not check in (when check-in was held) are out."""
    if tournament.status == Status.CHECK_IN:
        no_shows = tournament.entrants.filter(status=Entrant.Status.REGISTERED)
        no_shows.update(status=Entrant.Status.WITHDRAWN, seed=None)


def _create_bracket(stage: Stage, entrants: int) -> None:
    for bracket in adapters.bracket_structure(stage, entrants):
        for round_data in bracket["rounds"]:
            round_ = Round.objects.create(
                stage=stage, bracket=bracket["name"], number=round_data["number"]
            )
            Match.objects.bulk_create(
                Match(
                    stage=stage,
                    round=round_,
                    code=match["id"],
                    slots=match["slots"],
                    extra={k: v for k, v in match.items() if k not in {"id", "slots", "bye"}},
                    best_of=stage.tournament.best_of,
                )
                for match in round_data["matches"]
            )
    if stage.format == "round_robin":
        stage.rounds.filter(number=1).update(status=Round.Status.RUNNING)
    else:
        stage.rounds.update(status=Round.Status.RUNNING)


def _pair_swiss_round(stage: Stage, number: int) -> None:
    pairing = adapters.swiss_pairings(stage)
    seeds = adapters.seeded_entrants(stage)
    round_ = Round.objects.create(stage=stage, number=number, status=Round.Status.RUNNING)
    for board, pair in enumerate(pairing["pairings"], start=1):
        Match.objects.create(
            stage=stage,
            round=round_,
            code=f"S{number}.{board}",
            slots=[pair["white"], pair["black"]],
            best_of=stage.tournament.best_of,
        )
    if pairing["bye"] is not None:
        Match.objects.create(
            stage=stage,
            round=round_,
            code=f"S{number}.bye",
            slots=[pairing["bye"], None],
            home=seeds[pairing["bye"]],
        )


def _advance(stage: Stage) -> None:
    """Fill every match whose entrants are now known, open it, and close finished rounds."""
    seeds = adapters.seeded_entrants(stage)
    progressed = True
    while progressed:
        progressed = False
        by_code = {m.code: m for m in stage.matches.select_related("round")}
        for match in by_code.values():
            if match.status != Match.Status.PENDING or match.round.status != Round.Status.RUNNING:
                continue
            sides = [_resolve_slot(slot, seeds, by_code) for slot in match.slots]
            if any(side is _UNKNOWN for side in sides):
                continue
            progressed = True
            match.home, match.away = sides
            gone = [side for side in sides if side is not None and side.status in ENDED_ENTRIES]
            if match.extra.get("reset") and not _reset_is_played(by_code):
                match.status = Match.Status.CLOSED
                match.save()
            elif match.home is None or match.away is None:
                _close_as_bye(match)
            elif len(gone) == 1:
                _forfeit_to_whoever_remains(match, gone[0])
            else:
                match.status = Match.Status.READY
                match.save()
                _open_match(match)
                emit(stage.tournament_id, "match.ready", **match_data(match))
        progressed = _close_rounds(stage) or progressed


_UNKNOWN = object()


def _resolve_slot(slot: Any, seeds: dict[int, Entrant], by_code: dict[str, Match]) -> Any:
    if slot is None:
        return None
    if isinstance(slot, int):
        return seeds.get(slot)  # a seed that withdrew before the start plays as a bye
    code, _sep, outcome = slot.partition(":")
    source = by_code[code]
    if not source.is_decided:
        return _UNKNOWN
    return source.winner if outcome == "winner" else source.loser


def _reset_is_played(by_code: dict[str, Match]) -> bool:
    first_final = by_code["GF1"]
    return reset_needed(1 if first_final.winner_id == first_final.home_id else 2)


# Entries that ended while the tournament ran lose every match they still reach (a disqualified
# double-elimination player drops into the losers' bracket and forfeits there too). Two of them
# meeting is left to the organiser, who decides who (if anyone) goes on.
ENDED_ENTRIES = (Entrant.Status.WITHDRAWN, Entrant.Status.DISQUALIFIED)


def _forfeit_to_whoever_remains(match: Match, gone: Entrant) -> None:
    remaining = match.away if match.home == gone else match.home
    match.home_score, match.away_score = _checked_result(match, remaining, None, None)
    _decide(match, Match.ResultKind.FORFEIT, winner=remaining)
    audit(match.stage.tournament, None, "match.forfeited", match=match.code, winner=remaining.pk)


def _close_as_bye(match: Match) -> None:
    present = match.home or match.away
    match.status = Match.Status.CLOSED
    match.result_kind = Match.ResultKind.BYE if present else ""
    match.winner = present
    match.save()


# A Swiss pairs its next round by itself once a round is over (``automatic``), or when its
# organiser starts it (``"pairing": "organiser"`` in the format options).
SWISS_PAIRING = ("automatic", "organiser")


def _pairs_by_hand(stage: Stage) -> bool:
    return stage.format == "swiss" and (stage.options or {}).get("pairing") == "organiser"


def swiss_round_start(*, tournament: Tournament, by: Any) -> Round:
    """Pair and start a Swiss's next round, the last one being over."""
    with transaction.atomic():
        tournament = _lock(tournament)
        check_runs(tournament, by)
        stage = tournament.stages.filter(status=Stage.Status.RUNNING, format="swiss").last()
        if stage is None:
            raise Conflict(_("only a running Swiss tournament starts rounds"))
        if stage.rounds.exclude(status=Round.Status.FINISHED).exists():
            raise Conflict(_("the current round is still being played"))
        number = stage.rounds.count() + 1
        _pair_swiss_round(stage, number)
        audit(tournament, by, "round.started", stage=stage.number, round=number)
        _advance(stage)
        return stage.rounds.get(number=number)


def _close_rounds(stage: Stage) -> bool:
    """Finish rounds whose matches are all decided; open or pair the next; finish the stage."""
    changed = False
    for round_ in stage.rounds.filter(status=Round.Status.RUNNING):
        if round_.matches.exclude(status__in=[Match.Status.FINISHED, Match.Status.CLOSED]).exists():
            continue
        round_.status = Round.Status.FINISHED
        round_.save(update_fields=["status"])
        changed = True
        if stage.format == "round_robin":
            stage.rounds.filter(number=round_.number + 1).update(status=Round.Status.RUNNING)
        elif (
            stage.format == "swiss"
            and round_.number < (stage.total_rounds or 0)
            and not _pairs_by_hand(stage)
        ):
            _pair_swiss_round(stage, round_.number + 1)
    unpaired = stage.format == "swiss" and stage.rounds.count() < (stage.total_rounds or 0)
    if not unpaired and not stage.rounds.exclude(status=Round.Status.FINISHED).exists():
        _finish_stage(stage)
    return changed


def _finish_stage(stage: Stage) -> None:
    if stage.status == Stage.Status.FINISHED:
        return
    stage.status = Stage.Status.FINISHED
    stage.save(update_fields=["status"])
    tournament = stage.tournament
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    audit(tournament, None, "tournament.finished", stage=stage.number)
    emit(tournament.pk, "tournament.finished", stage=stage.number)


def _open_match(match: Match) -> None:
    tournament = match.stage.tournament
    if tournament.play_online:
        _start_next_game(match)


def seat_roles_known(engine_key: str, config: dict[str, Any]) -> bool:
    """Whether the game gives its seats the EC and DMO roles (Drafting Trios does); other
    engines refuse a ``roles`` setting and play a Death Match without them."""
    engine = engines.get(engine_key)
    try:
        engine.validate_config({**config, "roles": {"0": "EC", "1": "DMO"}}, 2)
    except ConfigError:
        return False
    return True


def _start_next_game(match: Match) -> None:
    """Create and start the match's next game; home takes seat 0 in odd games."""
    tournament = match.stage.tournament
    number = match.match_games.count() + 1
    home_seat = 0 if number % 2 else 1
    entrants = [match.home, match.away] if home_seat == 0 else [match.away, match.home]
    # Death Matches seat the EC at home and the DMO away; the roles travel with the entrant.
    home_role, away_role = match.extra.get("roles", ["", ""])
    roles = [home_role, away_role] if home_seat == 0 else [away_role, home_role]
    # A Death Match carries the game its episode chose (seasons.death_match_setup).
    played = match.extra.get("game") or {}
    engine_key = played.get("engine", tournament.game)
    config = played.get("config", engine_config(tournament.ruleset))
    if any(roles) and not seat_roles_known(engine_key, config):
        roles = ["", ""]  # the season itself gives the DMO a tie, whatever the game
    game = game_services.game_create(
        engine_key=engine_key,
        seats=[
            game_services.SeatSpec(display_name=e.display_name, role=role)
            for e, role in zip(entrants, roles, strict=True)
        ],
        config=config,
        time_control=played.get("time_control", tournament.time_control),
        created_by=tournament.organiser,
    )
    for seat, entrant in zip(game.seats.order_by("number"), entrants, strict=True):
        seat.user = entrant.user
        seat.save(update_fields=["user"])
    MatchGame.objects.create(match=match, game=game, number=number, home_seat=home_seat)
    # The players' client seeds take part in the deal: it waits for them a short while.
    game_services.game_open_seed_window(game_id=game.pk, seconds=tournament.seed_window_seconds)
    match.status = Match.Status.LIVE
    match.save(update_fields=["status"])


# -- results ----------------------------------------------------------------------------------


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
        tournament = _lock(link.match.stage.tournament)
        match = Match.objects.select_for_update().get(pk=link.match_id)
        if match.status != Match.Status.LIVE:
            return  # the organiser settled it meanwhile
        game = GameSession.objects.get(pk=game_id)
        _count_game(match, link, game.outcome or {})
        needed = match.best_of // 2 + 1
        played = match.match_games.count()
        decided = max(match.home_score, match.away_score) >= needed or played >= match.best_of
        level = match.home_score == match.away_score
        if decided and (not level or _draws_allowed(match)):
            _decide(match, Match.ResultKind.PLAYED)
            audit(tournament, None, "match.result_from_games", match=match.code)
            _after_result(match)
        elif decided and _goes_to_higher_seed(match):
            better = min((match.home, match.away), key=lambda e: e.seed or math.inf)
            _decide(match, Match.ResultKind.PLAYED, winner=better)
            match.extra = {**match.extra, "decided_by": "higher_seed"}
            match.save(update_fields=["extra"])
            audit(tournament, None, "match.result_from_games", match=match.code, by="higher_seed")
            _after_result(match)
        else:
            _start_next_game(match)


# How an engine reports a game it gave to the Death Match Opponent only because it was level
# (Drafting Trios: a tie on points and power cards, or both reserves out at once).
DMO_TIE_DECISIONS = frozenset({"dmo", "timeout_tie_dmo"})


def _is_death_match(match: Match) -> bool:
    """ "Ties go to the DMO" is a rule of Genius Death Matches, not of the season's final."""
    return match.stage.format == "genius" and match.code != "FINAL"


def _count_game(match: Match, link: MatchGame, outcome: dict[str, Any]) -> None:
    home, away = str(link.home_seat), str(1 - link.home_seat)
    winners = [str(seat) for seat in outcome.get("winners", [])]
    decided_by = (outcome.get("details") or {}).get("decided_by")
    undecided = (home in winners and away in winners) or not winners
    if decided_by in DMO_TIE_DECISIONS and not _is_death_match(match):
        undecided = True  # level, whatever seat the engine's Death Match rule favoured
    if undecided:
        match.home_score += 0.5
        match.away_score += 0.5
    elif home in winners:
        match.home_score += 1
    else:
        match.away_score += 1
    scores = outcome.get("scores", {})
    totals = match.metrics.setdefault("scores", [0.0, 0.0])
    totals[0] += float(scores.get(home, 0))
    totals[1] += float(scores.get(away, 0))
    for name, values in outcome.get("metrics", {}).items():
        pair = match.metrics.setdefault("metrics", {}).setdefault(name, [0.0, 0.0])
        pair[0] += float(values.get(home, 0) or 0)
        pair[1] += float(values.get(away, 0) or 0)
    match.save()


def _draws_allowed(match: Match) -> bool:
    """Swiss and round robin score draws; a drawn Death Match goes to the DMO."""
    return match.stage.format in ("swiss", "round_robin") or _is_death_match(match)


def _goes_to_higher_seed(match: Match) -> bool:
    """A classic bracket's ruleset may settle a level match by seeding; a season's final is
    always replayed (it has no seeds to favour, only two survivors)."""
    return (
        match.stage.format != "genius" and undecided_rule(match.stage.tournament) == "higher_seed"
    )


def _decide(match: Match, kind: str, winner: Entrant | None = None) -> None:
    """Finish the match: the higher score wins, or ``winner`` when given; level is a draw."""
    match.status = Match.Status.FINISHED
    if winner is None and match.home_score == match.away_score:
        match.result_kind = Match.ResultKind.DRAW
        match.winner = match.loser = None
    else:
        home_won = match.home_score > match.away_score if winner is None else winner == match.home
        match.result_kind = kind
        match.winner, match.loser = (
            (match.home, match.away) if home_won else (match.away, match.home)
        )
    match.save()
    emit(match.stage.tournament_id, "match.result", **match_data(match))


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
    (``tournaments.corrections``); one that would reset a match already started, or that
    comes before Swiss rounds already paired, is refused unless a staff admin forces it with
    a reason and the ``resets`` that ``correction_preview`` listed."""
    with transaction.atomic():
        tournament = _lock(match.stage.tournament)
        check_runs(tournament, by)
        match = Match.objects.select_for_update().get(pk=match.pk)
        scores = _checked_result(match, winner, home_score, away_score)
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
        previous_match = _result_of(match)
        match.home_score, match.away_score = scores
        _decide(match, Match.ResultKind.FORFEIT if forfeit else Match.ResultKind.PLAYED)
        for link in match.match_games.filter(game__status=GameSession.Status.RUNNING):
            # The result is settled: a game still under way for it no longer counts.
            game_services.game_void(game_id=link.game_id, reason=f"{match.code} was decided")
        action = "match.result_corrected" if correcting else "match.result_entered"
        audit(
            tournament,
            by,
            action,
            reason=reason,
            target=f"match:{match.code}",
            before=previous_match if correcting else None,
            after=_result_of(match),
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


def _result_of(match: Match) -> dict[str, Any]:
    """A match's result as the audit log keeps it before and after a change."""
    return {
        "status": match.status,
        "result_kind": match.result_kind,
        "winner": match.winner_id,
        "home": match.home_id,
        "away": match.away_id,
        "home_score": match.home_score,
        "away_score": match.away_score,
    }


def correction_preview(
    *,
    match: Match,
    by: Any,
    winner: Entrant | None,
    home_score: float | None = None,
    away_score: float | None = None,
    reason: str = "",
) -> corrections.Plan:
    """A forced correction's dry run: what it would reset, checked as the correction itself
    is (a staff admin, a reason, a result the match allows), changing nothing."""
    with transaction.atomic():
        tournament = _lock(match.stage.tournament)
        check_runs(tournament, by)
        match = Match.objects.select_for_update().get(pk=match.pk)
        _checked_result(match, winner, home_score, away_score)
        if match.status != Match.Status.FINISHED:
            raise Conflict(_("%(match)s has no result to correct yet") % {"match": match.code})
        return _correction_plan(match, winner, by, True, reason)


def _checked_result(
    match: Match, winner: Entrant | None, home_score: float | None, away_score: float | None
) -> tuple[float, float]:
    """The home and away scores of a result the match allows, or a refusal saying why."""
    if match.home is None or match.away is None:
        raise Conflict(_("this match does not have both entrants yet"))
    if winner is not None and winner not in (match.home, match.away):
        raise TournamentUserError(_("the winner must be one of the match's two entrants"))
    if winner is None and not _draws_allowed(match):
        raise TournamentUserError(_("an elimination match needs a winner"))
    if winner is None:
        drawn = home_score if home_score is not None else 0.5
        return drawn, drawn
    home_won = winner == match.home
    won, lost = 1.0, 0.0
    home = home_score if home_score is not None else (won if home_won else lost)
    away = away_score if away_score is not None else (lost if home_won else won)
    if (home > away) != home_won:
        raise TournamentUserError(_("the score contradicts the winner"))
    return home, away


def _correction_plan(
    match: Match, winner: Entrant | None, by: Any, force: bool, reason: str
) -> corrections.Plan:
    if match.stage.format == "genius":
        raise Conflict(
            _(
                "a Death Match result is settled into the season (the elimination and its "
                "garnets); changing it is a dispute ruling"
            )
        )
    plan = corrections.plan(match, winner)
    if plan.blocking and not force:
        if plan.resets:
            message = _(
                "%(matches)s already started; a staff admin may force the correction with a reason"
            ) % {"matches": ", ".join(plan.resets)}
        else:
            message = _(
                "round %(number)s is already paired; a staff admin may force the correction "
                "with a reason"
            ) % {"number": match.round.number + 1}
        raise Conflict(message)
    if force and not (is_staff_admin(by) and reason.strip()):
        raise Forbidden(_("forcing a correction takes a staff admin and a reason"))
    return plan


def _listed(codes: Any) -> str:
    return ", ".join(codes) if codes else _("no match")


def _after_result(match: Match) -> None:
    if match.stage.format == "genius":
        from tournaments.seasons import services as seasons

        seasons.match_decided(match)
    else:
        _advance(match.stage)


# -- standings --------------------------------------------------------------------------------


def standings(*, tournament: Tournament, regulations: str | None = None) -> list[dict[str, Any]]:
    """Ranked entrants: knockouts and Genius seasons by how far each got (placements), round
    robin and Swiss by points and the tournament's tie-break chain, under its regulations
    (or ``regulations``, to see the table under another version)."""
    if tournament.format == "genius":
        rows = adapters.season_placements(tournament) if tournament.stages.exists() else []
        return _named(tournament, rows)
    stage = tournament.stages.order_by("-number").first()
    if stage is None:
        return []
    chain = [key for key in tournament.tiebreaks if key != "points"]
    try:
        if stage.format in PLACEMENT_FORMATS:
            rows = adapters.bracket_placements(stage)
        else:
            rows = adapters.standings(
                stage, chain, regulations=regulations or tournament.tiebreak_regulations
            )
            for row in rows:  # nobody is eliminated from a round robin or a Swiss
                row["eliminated_in"] = row["round_reached"] = None
    except FormatError as error:
        raise TournamentUserError(str(error)) from None
    return _named(tournament, rows)


PLACEMENT_FORMATS = ("single_elimination", "double_elimination")


def standings_table(*, tournament: Tournament, regulations: str | None = None) -> dict[str, Any]:
    """The standings with what decided them: ``ranking`` is the format whose placements
    rank the entrants, or ``points`` (then the chain), and ``regulations`` the version of
    the tie-break regulations applied (the tournament's, unless another is asked for)."""
    if regulations is not None:
        try:
            tiebreaks.check_regulations(regulations)
        except FormatError as error:
            raise TournamentUserError(str(error)) from None
    placed = tournament.format in (*PLACEMENT_FORMATS, "genius")
    return {
        "ranking": tournament.format if placed else "points",
        "regulations": regulations or tournament.tiebreak_regulations,
        "standings": standings(tournament=tournament, regulations=regulations),
    }


def _named(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Every seed keeps its name, that of an entrant who withdrew after the start included.
    seeds = {e.seed: e for e in tournament.entrants.filter(seed__isnull=False)}
    for row in rows:
        entrant = seeds.get(row["id"])
        row["entrant"] = entrant.pk if entrant else None
        row["name"] = entrant.display_name if entrant else f"seed {row['id']}"
    return rows
