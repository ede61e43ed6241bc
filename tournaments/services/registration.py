"""A tournament before its start: created and edited, registration, check-in, seeding.

Each write runs in a transaction with the tournament row locked and records an audit entry.
"""

from __future__ import annotations

import random
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engines
from games import services as game_services
from games.clocks import TimeControl, TimeControlError
from games.engines.base import ConfigError
from hosting.core.errors import Conflict, Forbidden
from hosting.core.roles import is_organiser
from tournaments import adapters, tiebreaks
from tournaments.core import audit, hooks
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs
from tournaments.formats import FormatError
from tournaments.models import Entrant, Tournament
from tournaments.services.matches import UNDECIDED_RULES, engine_config
from tournaments.services.stages import SWISS_PAIRING

Status = Tournament.Status
SEEDING_METHODS = ("manual", "random", "rating")
TOURNAMENT_FORMATS = (*adapters.BRACKET_FORMATS, "swiss", "genius")
# Addresses of pages beside the tournaments' own (/tournaments/new/, /tournaments/mine/).
RESERVED_SLUGS = frozenset({"new", "mine", "become-organiser", "organiser-requests"})
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
    audit.log(tournament, organiser, "tournament.created", format=tournament.format)
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
        hooks.check_season_rules(Tournament(format_options=fields.get("format_options", {})))


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
    "players_report",
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
        tournament = lock_tournament(tournament)
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
            audit.log(tournament, by, "tournament.edited", fields=changed)
        return tournament


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
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.status != Status.DRAFT:
            raise Conflict(_("registration opens once, from a draft tournament"))
        tournament.status = Status.REGISTRATION
        tournament.save(update_fields=["status"])
        audit.log(tournament, by, "registration.opened")


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
        tournament = lock_tournament(tournament)
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
        audit.log(tournament, user, "entrant.registered", entrant=entrant.pk, waitlisted=full)
        return entrant


def waiting_list(tournament: Tournament) -> Any:
    """The waitlist in the order its places are given: first registered, first promoted."""
    waiting = tournament.entrants.filter(status=Entrant.Status.WAITLISTED)
    return waiting.order_by("registered_at", "pk")


def check_in_open(*, tournament: Tournament, by: Any) -> None:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.status != Status.REGISTRATION:
            raise Conflict(_("check-in follows registration"))
        tournament.status = Status.CHECK_IN
        tournament.check_in_opens = tournament.check_in_opens or timezone.now()
        tournament.save(update_fields=["status", "check_in_opens"])
        audit.log(tournament, by, "check_in.opened")


def entrant_check_in(*, entrant: Entrant, by: Any) -> None:
    with transaction.atomic():
        tournament = lock_tournament(entrant.tournament)
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
        audit.log(tournament, by, "entrant.checked_in", entrant=entrant.pk)


def entrant_promote(*, entrant: Entrant, by: Any) -> None:
    """The organiser gives a waitlisted entrant a place (over the capacity if need be)."""
    with transaction.atomic():
        tournament = lock_tournament(entrant.tournament)
        check_runs(tournament, by)
        entrant.refresh_from_db()
        if tournament.status not in (Status.REGISTRATION, Status.CHECK_IN):
            raise Conflict(_("places are given before the start"))
        if entrant.status != Entrant.Status.WAITLISTED:
            raise Conflict(_("only a waitlisted entry can be promoted"))
        entrant.status = Entrant.Status.REGISTERED
        entrant.save(update_fields=["status"])
        audit.log(tournament, by, "entrant.promoted", entrant=entrant.pk)


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
        tournament = lock_tournament(tournament)
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
        audit.log(
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
