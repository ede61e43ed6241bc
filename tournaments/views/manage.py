"""The organiser console (``/tournaments/<slug>/manage/``): each form posts to one action that
calls one service, the same call the API makes, so a page meets the API's refusals.

Input is checked by the API's own serializers (``tournaments.api.inputs``:
``TournamentCreateInput``, ``ResultInput``, ...) and the lookups are the API's
(``tournaments.selectors``); a refusal is shown on the console, the request changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.exceptions import ValidationError

from games import engines
from hosting.core.errors import UserError
from hosting.core.roles import is_organiser, is_staff_admin
from hosting.core.validation import valid
from tournaments import form_feedback, selectors, services, tiebreaks
from tournaments.api.inputs import (
    DeathMatchSetupInput,
    LedgerInput,
    MainMatchInput,
    ResultInput,
    SealedOpenInput,
    TournamentCreateInput,
)
from tournaments.core import audit_sentences
from tournaments.core.permissions import runs
from tournaments.formats import genius
from tournaments.models import AuditEntry, Episode, Match, Tournament
from tournaments.seasons import services as seasons
from tournaments.selectors import or_404
from tournaments.templatetags.tournament_pages import FORMATS
from tournaments.views import creation_fields

AUDIT_SHOWN = 50


def run_by(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, for the one who runs it (its organiser or a staff admin)."""
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    if not runs(tournament, request.user):
        raise PermissionDenied
    return tournament


# The fields of the console's forms as their labels name them, for the refusals.
FIELD_NAMES = {
    "name": gettext_lazy("Name"),
    "slug": gettext_lazy("Address"),
    "description": gettext_lazy("Description"),
    "visibility": gettext_lazy("Visibility"),
    "game": gettext_lazy("Game"),
    "format": gettext_lazy("Format"),
    "ruleset": gettext_lazy("Game rules (JSON)"),
    "allowances": gettext_lazy("Allowance per phase (JSON)"),
    "time_control": gettext_lazy("Time control"),
    "reserve": gettext_lazy("Reserve"),
    "increment": gettext_lazy("Increment"),
    "best_of": gettext_lazy("Games per match"),
    "seed_window_seconds": gettext_lazy("Seed window"),
    "format_options": gettext_lazy("Format options (JSON)"),
    "tiebreaks": gettext_lazy("Tie-breaks"),
    "capacity": gettext_lazy("Places"),
    "registration_opens": gettext_lazy("Registration opens"),
    "registration_closes": gettext_lazy("Registration closes"),
    "check_in_closes": gettext_lazy("Check-in closes"),
    "config": gettext_lazy("Game options"),
    "engine": gettext_lazy("Game"),
    "dmo_deadline": gettext_lazy("Deadline for the EC's DMO pick"),
    "winner": gettext_lazy("Winner"),
    "reason": gettext_lazy("Reason"),
    "amount": gettext_lazy("Amount"),
    "entrant": gettext_lazy("Entrant"),
    "prompt": gettext_lazy("Prompt"),
    "deadline": gettext_lazy("Deadline"),
}


def _errors(error: ValidationError) -> list[str]:
    """A serializer's refusal in lines a person reads: "Field label: reason"."""

    def lines(detail: Any, prefix: str = "") -> list[str]:
        if isinstance(detail, dict):
            return [
                line
                for key, value in detail.items()
                for line in lines(value, f"{FIELD_NAMES.get(key, key)}: ")
            ]
        if isinstance(detail, list):
            return [line for item in detail for line in lines(item, prefix)]
        return [f"{prefix}{detail}".replace("non_field_errors: ", "")]

    return lines(error.detail)


# -- creating a tournament --------------------------------------------------------------------

JSON_FIELDS = ("ruleset", "format_options", "allowances")


def _creation(post: Any) -> dict[str, Any]:
    """The create form as the API's JSON body; malformed JSON is a ValidationError."""
    data: dict[str, Any] = {
        key: post.get(key, "").strip() for key in ("name", "slug", "game", "format")
    }
    for key in ("description", "visibility"):
        if post.get(key, "").strip():
            data[key] = post[key].strip()
    # The fields say every rule; a filled "Advanced (JSON)" box overrides its part.
    parsed = creation_fields.build(post, data["game"], data["format"])
    for key in JSON_FIELDS:
        text = post.get(key, "").strip()
        if not text:
            continue
        try:
            parsed[key] = json.loads(text)
        except ValueError:
            raise ValidationError({key: [_("This is not valid JSON.")]}) from None
        if not isinstance(parsed[key], dict):
            raise ValidationError({key: [_('Write a JSON object: {"key": value}.')]})
    data["ruleset"], data["format_options"] = parsed["ruleset"], parsed["format_options"]
    time_control: dict[str, Any] = {}
    if parsed["allowances"]:
        time_control["allowances"] = parsed["allowances"]
    for key in ("reserve", "increment"):
        if post.get(key, "").strip():
            time_control[key] = post[key].strip()
    data["time_control"] = time_control
    chain = [k.strip() for k in post.get("tiebreaks", "").replace("\n", ",").split(",")]
    data["tiebreaks"] = [k for k in chain if k]
    for key in ("capacity", "best_of", "seed_window_seconds"):
        if post.get(key, "").strip():
            data[key] = post[key].strip()
    for key in ("registration_opens", "registration_closes", "check_in_closes"):
        if post.get(key, "").strip():
            data[key] = post[key].strip()
    data["play_online"] = post.get("play_online") == "on"
    data["players_report"] = post.get("players_report") == "on"
    return data


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not is_organiser(request.user):  # where to ask for the role, not a dead end
        messages.info(request, _("Only organisers can create tournaments: ask for the role here."))
        return redirect("become-organiser")
    errors: list[str] = []
    if request.method == "POST":
        try:
            data = valid(TournamentCreateInput, _creation(request.POST))
            for key in ("reserve", "increment"):
                if key in data["time_control"]:
                    data["time_control"][key] = float(data["time_control"][key])
            tournament = services.tournament_create(organiser=request.user, **data)
        except ValidationError as error:
            errors = _errors(error)
        except (UserError, ValueError) as error:
            errors = [getattr(error, "message", str(error))]
        else:
            messages.success(request, _("The tournament is created as a draft."))
            return redirect("tournament-manage", slug=tournament.slug)
    context = {
        "errors": errors,
        "values": request.POST,
        "rules": creation_fields.sections(request.POST),
        "games": [(key, engines.get(key).name) for key in engines.ENGINE_MODULES],
        "formats": list(FORMATS.items()),
        "tiebreak_keys": list(tiebreaks.TIEBREAKS),
    }
    return render(request, "tournaments/manage/new.html", context, status=400 if errors else 200)


class TournamentEditInput(TournamentCreateInput):
    """The create input for a tournament that exists: its own address is not "taken"."""

    def validate_slug(self, slug: str) -> str:
        return slug


def _local(moment: Any) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M") if moment else ""


def _form_values(tournament: Tournament) -> dict[str, Any]:
    """A tournament's settings as the settings form shows them."""
    control = tournament.time_control or {}
    fields, rest = creation_fields.saved_values(
        tournament.game,
        tournament.format,
        tournament.ruleset or {},
        control.get("allowances", {}),
        tournament.format_options or {},
    )
    return {
        **fields,
        "name": tournament.name,
        "slug": tournament.slug,
        "description": tournament.description,
        "visibility": tournament.visibility,
        "game": tournament.game,
        "format": tournament.format,
        "ruleset": json.dumps(rest["ruleset"]) if "ruleset" in rest else "",
        "allowances": json.dumps(rest["allowances"]) if "allowances" in rest else "",
        "reserve": control.get("reserve", ""),
        "increment": control.get("increment", ""),
        "best_of": tournament.best_of,
        "seed_window_seconds": tournament.seed_window_seconds,
        "play_online": "on" if tournament.play_online else "",
        "players_report": "on" if tournament.players_report else "",
        "format_options": json.dumps(rest["format_options"]) if "format_options" in rest else "",
        "tiebreaks": ", ".join(tournament.tiebreaks),
        "capacity": tournament.capacity or "",
        "registration_opens": _local(tournament.registration_opens),
        "registration_closes": _local(tournament.registration_closes),
        "check_in_closes": _local(tournament.check_in_closes),
    }


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = run_by(request, slug)
    locked = tournament.status != Tournament.Status.DRAFT  # game and format: drafts only
    errors: list[str] = []
    values: Any = _form_values(tournament)
    if request.method == "POST":
        values = request.POST.copy()
        values["slug"] = tournament.slug
        if locked:
            values["game"], values["format"] = tournament.game, tournament.format
        try:
            data = valid(TournamentEditInput, _creation(values))
            for key in ("reserve", "increment"):
                if key in data["time_control"]:
                    data["time_control"][key] = float(data["time_control"][key])
            data.pop("slug")
            if locked:
                data.pop("game"), data.pop("format")
            services.tournament_update(tournament=tournament, by=request.user, **data)
        except ValidationError as error:
            errors = _errors(error)
        except (UserError, ValueError) as error:
            errors = [getattr(error, "message", str(error))]
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("tournament-manage", slug=slug)
    context = {
        "tournament": tournament,
        "errors": errors,
        "values": values,
        "editing": True,
        "locked": locked,
        "games": [(key, engines.get(key).name) for key in engines.ENGINE_MODULES],
        "formats": list(FORMATS.items()),
        "tiebreak_keys": list(tiebreaks.TIEBREAKS),
        "rules": creation_fields.sections(values),
    }
    return render(request, "tournaments/manage/edit.html", context, status=400 if errors else 200)


# -- the console ------------------------------------------------------------------------------


@login_required
def console(
    request: HttpRequest,
    slug: str,
    preview: dict[str, Any] | None = None,
    told: dict[str, Any] | None = None,
    status: int = 200,
    removal: dict[str, Any] | None = None,
    starting: dict[str, Any] | None = None,
) -> HttpResponse:
    """The console; ``preview`` is a correction's dry run waiting to be confirmed, ``removal``
    a withdrawal or disqualification and what it costs, ``told`` the feedback of an
    htmx-posted form."""
    tournament = run_by(request, slug)
    drawn = selectors.board(tournament)
    entrants = list(tournament.entrants.order_by("seed", "registered_at", "pk"))
    audit = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
    matches = [
        match
        for stage in drawn["detail"]["stages"][-1:]
        for round_ in stage["rounds"]
        for match in round_["matches"]
        if match["home"] and match["away"] and match["status"] in ("ready", "live", "finished")
    ]
    episode = selectors.current_episode(tournament)
    context = {
        "tournament": tournament,
        "board": drawn,
        "entrants": entrants,
        "matches": matches,
        # Waiting for a result, or just reported on its card (the answer shown there).
        "open_matches": [
            m
            for m in matches
            if m["status"] in ("ready", "live") or (told or {}).get("form") == f"card-{m['code']}"
        ],
        "episode": episode,
        "still_in": [e for e in entrants if e.eliminated_in is None and e.seed is not None],
        "audit": audit_sentences.sentences(list(audit.order_by("-at", "-pk")[:AUDIT_SHOWN])),
        "is_staff_admin": is_staff_admin(request.user),
        "engines": [(key, engines.get(key).name) for key in engines.ENGINE_MODULES],
        "duel_engines": _duel_engines(),
        "mm_rules": creation_fields.hosted_game_rows("mm-", list(engines.ENGINE_MODULES), {}),
        "card_claims": _claims(tournament) if tournament.players_report else {},
        "dm_setup": _dm_setup(tournament, episode),
        "picking": _picking(tournament, episode),
        # A correction's preview is shown beside the result it corrects.
        "preview": preview
        and {**preview, "beside": any(m["code"] == preview["match"] for m in matches)},
        "removal": removal,
        "starting": starting,
        "undoable": _undoable(tournament, entrants),
        "feedback": told,
        "seeding": tournament.status
        in (Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN),
        "next_round": _next_swiss_round(tournament),
    }
    return render(request, "tournaments/manage/console.html", context, status=status)


def _duel_engines() -> list[tuple[str, str]]:
    return [
        (key, engines.get(key).name)
        for key in engines.ENGINE_MODULES
        if engines.get(key).min_seats <= 2 <= engines.get(key).max_seats
    ]


def _claims(tournament: Tournament) -> dict[str, str]:
    """What the players reported on each match still waiting (``services.claims``), said
    on the organiser's match card: a report waiting to be confirmed, or two that disagree."""
    waiting = Match.objects.filter(stage__tournament=tournament, status__in=("ready", "live"))
    waiting = waiting.filter(Q(extra__has_key="claim") | Q(extra__has_key="contested"))
    said: dict[str, str] = {}
    for match in waiting.select_related("home", "away"):
        names = {side.pk: side.display_name for side in (match.home, match.away) if side}

        def line(claim: dict[str, Any], names: dict[int, str] = names) -> str:
            outcome = (
                _("a draw")
                if claim["winner"] is None
                else _("%(name)s won") % {"name": names.get(claim["winner"], "?")}
            )
            return _("%(name)s reports: %(outcome)s") % {
                "name": names.get(claim["by"], "?"),
                "outcome": outcome,
            }

        if match.extra.get("contested"):
            lines = "; ".join(line(claim) for claim in match.extra["contested"])
            said[match.code] = _("The players disagree (%(lines)s): you decide.") % {"lines": lines}
        else:
            said[match.code] = _("%(line)s, waiting for the opponent to confirm.") % {
                "line": line(match.extra["claim"])
            }
    return said


def _undoable(tournament: Tournament, entrants: list[Any]) -> set[int]:
    """The ended entries whose withdrawal can still be undone (nothing since depends on it)."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return set()
    ended = [e for e in entrants if e.status in ("withdrawn", "disqualified") and e.seed]
    return {e.pk for e in ended if services.forfeited_since(e) and not services.undo_blockers(e)}


def _next_swiss_round(tournament: Tournament) -> int | None:
    """The number of the Swiss round its organiser may start now, if any."""
    stage = tournament.stages.filter(status="running", format="swiss").last()
    if stage is None or (stage.options or {}).get("pairing") != "organiser":
        return None
    if stage.rounds.exclude(status="finished").exists():
        return None
    number = stage.rounds.count() + 1
    return number if number <= (stage.total_rounds or 0) else None


def _picking(tournament: Tournament, episode: Any) -> dict[str, list[Any]] | None:
    """While opponents are chosen: the ECs yet to pick and whom they may pick (never a Token
    of Life holder the rules protect), so the host is offered only what the rules accept."""
    if episode is None or episode.status != Episode.Status.OPPONENTS:
        return None
    pure = seasons.episode_for(episode)
    eligible = genius.eligible_opponents(seasons.season_for(tournament, episode), pure)
    people = {e.pk: e for e in tournament.entrants.filter(pk__in=[*pure.ecs, *eligible])}
    return {
        "ecs": [people[pk] for pk in pure.ecs if pk not in pure.dmos and pk in people],
        "dmos": [people[pk] for pk in eligible if pk in people],
    }


def _dm_setup(tournament: Tournament, episode: Any) -> dict[str, Any] | None:
    """The Death Match form's values while the host may still change them, and whether the
    DMO pick is overdue (the host must pick: the season rules name no default)."""
    if episode is None or episode.kind == episode.Kind.FINAL:
        return None
    if episode.status not in seasons.DM_SETUP_STATUSES:
        return None
    control = episode.dm_time_control if episode.dm_engine else tournament.time_control or {}
    engine = episode.dm_engine or tournament.game
    config = episode.dm_ruleset if episode.dm_engine else services.engine_config(tournament.ruleset)
    values, rest = creation_fields.hosted_game_values(
        "dm-", engine, config, control.get("allowances", {})
    )
    duels = [key for key, _name in _duel_engines()]
    return {
        "engine": engine,
        "rules": creation_fields.hosted_game_rows("dm-", duels, values),
        "config": json.dumps(rest["config"]) if "config" in rest else "",
        "allowances": json.dumps(rest["allowances"]) if "allowances" in rest else "",
        "reserve": control.get("reserve", ""),
        "increment": control.get("increment", ""),
        "dmo_deadline": _local(episode.dmo_deadline),
        "overdue": seasons.dmo_pick_overdue(episode),
    }


# -- actions: one service call each -----------------------------------------------------------


def _entrant_id(post: Any, key: str = "entrant") -> int:
    try:
        return int(post.get(key, ""))
    except ValueError:
        raise UserError(_("Choose an entrant.")) from None


def _ids(post: Any, key: str) -> list[int]:
    try:
        return [int(value) for value in post.getlist(key)]
    except ValueError:
        raise UserError(_("Choose entrants from the list.")) from None


def open_registration(request: HttpRequest, tournament: Tournament) -> str:
    services.registration_open(tournament=tournament, by=request.user)
    return _("Registration is open.")


def open_check_in(request: HttpRequest, tournament: Tournament) -> str:
    services.check_in_open(tournament=tournament, by=request.user)
    return _("Check-in is open.")


def seed(request: HttpRequest, tournament: Tournament) -> str:
    """By number (each entrant's box; drag and drop rewrites the numbers), or random."""
    method = request.POST.get("method", "manual")
    order = None
    if method == "manual":
        numbered = []
        for key, value in request.POST.items():
            if key.startswith("seed-") and value.strip():
                try:
                    numbered.append((float(value), int(key.removeprefix("seed-"))))
                except ValueError:
                    raise UserError(_("A seed is a number.")) from None
        order = [pk for _number, pk in sorted(numbered)]
    services.seeding_apply(tournament=tournament, by=request.user, method=method, order=order)
    return _("The seeding is applied.")


def start(request: HttpRequest, tournament: Tournament) -> str | dict[str, Any]:
    """Start; when players registered but did not check in, first a confirmation naming
    them (the start withdraws them)."""
    absent = services.no_shows(tournament)
    if absent and request.POST.get("confirm") != "yes":
        return {"starting": {"no_shows": [e.display_name for e in absent]}}
    begin = seasons.season_start if tournament.format == genius.KEY else services.stage_start
    begin(tournament=tournament, by=request.user)
    return _("The tournament has started.")


def next_round(request: HttpRequest, tournament: Tournament) -> str:
    round_ = services.swiss_round_start(tournament=tournament, by=request.user)
    return _("Round %(number)s is paired.") % {"number": round_.number}


def entrant(request: HttpRequest, tournament: Tournament) -> str | dict[str, Any]:
    """Check someone in at the desk, promote from the waitlist, withdraw or disqualify (first
    a confirmation naming what it costs, then with a reason), or undo a withdrawal."""
    person = selectors.entrant(tournament, _entrant_id(request.POST))
    what = request.POST.get("what", "")
    name = {"name": person.display_name}
    reason = request.POST.get("reason", "").strip()
    if what == "check_in":
        services.entrant_check_in(entrant=person, by=request.user)
        return _("%(name)s is checked in.") % name
    if what == "promote":
        services.entrant_promote(entrant=person, by=request.user)
        return _("%(name)s has a place now.") % name
    if what == "reinstate":
        services.entrant_reinstate(entrant=person, by=request.user, reason=reason)
        return _("%(name)s is back in the tournament.") % name
    if what not in ("withdraw", "disqualify"):
        raise UserError(_("Choose what to do with the entrant."))
    if request.POST.get("confirm") != "yes":
        cost = services.consequence(entrant=person, by=request.user)
        return {"removal": {"entrant": person.pk, "what": what, "reason": reason, "cost": cost}}
    if what == "withdraw":
        services.entrant_withdraw(entrant=person, by=request.user, reason=reason)
        return _("%(name)s is withdrawn.") % name
    services.entrant_disqualify(entrant=person, by=request.user, reason=reason)
    return _("%(name)s is disqualified.") % name


def result(request: HttpRequest, tournament: Tournament) -> str | dict[str, Any]:
    """Enter or correct a result. A forced correction is first previewed, as the API's dry
    run (the matches it resets listed), then confirmed with exactly that list."""
    match = selectors.match(tournament, request.POST.get("match", ""))
    post = request.POST
    if not post.get("winner"):  # nobody's win is assumed: the form preselects no one
        raise UserError(_("Choose who won %(code)s.") % {"code": match.code})
    body: dict[str, Any] = {
        "winner": None if post.get("winner") == "draw" else post.get("winner"),
        "force": post.get("force") == "on",
        "reason": post.get("reason", ""),
        "forfeit": post.get("forfeit") == "on",
    }
    for key in ("home_score", "away_score"):
        if post.get(key, "").strip():
            body[key] = post[key].strip()
    confirmed = post.get("confirm") == "yes"
    if confirmed:
        body["resets"] = [code for code in post.getlist("resets") if code]
    elif match.status == "finished":
        # Every correction is previewed first: what it resets, named, before anything changes.
        body["force"] = body["dry_run"] = True
    else:
        body["dry_run"] = body["force"]
    data = valid(ResultInput, body)
    winner = None if data["winner"] is None else selectors.entrant(tournament, data["winner"])
    scores = {"home_score": data.get("home_score"), "away_score": data.get("away_score")}
    if data["dry_run"]:
        plan = services.correction_preview(
            match=match, by=request.user, winner=winner, reason=data["reason"], **scores
        )
        return {
            "preview": {
                "match": match.code,
                "winner": data["winner"],
                "winner_name": winner.display_name if winner else None,
                "reason": data["reason"],
                "forfeit": data["forfeit"],
                "resets": list(plan.resets),
                "reset_matches": _described(tournament, plan.resets),
                "refills": list(plan.refills),
                "later_rounds_kept": list(plan.later_swiss),
            }
        }
    services.match_report_result(
        match=match,
        by=request.user,
        winner=winner,
        forfeit=data["forfeit"],
        force=data["force"],
        reason=data["reason"],
        resets=data.get("resets") if confirmed else None,
        **scores,
    )
    return _("The result of %(code)s is recorded.") % {"code": match.code}


def _described(tournament: Tournament, codes: Any) -> list[dict[str, Any]]:
    """The matches a correction resets, as its preview names them: who played, who won."""
    found = {
        m.code: m
        for m in tournament.stages.order_by("-number")
        .first()
        .matches.filter(code__in=list(codes))
        .select_related("home", "away", "winner")
    }
    return [
        {
            "code": code,
            "home": found[code].home.display_name if found[code].home else "",
            "away": found[code].away.display_name if found[code].away else "",
            "winner": found[code].winner.display_name if found[code].winner else "",
        }
        for code in codes
        if code in found
    ]


def ledger(request: HttpRequest, tournament: Tournament) -> str:
    post = request.POST
    body = {k: post.get(k, "") for k in ("kind", "entrant", "amount", "reason")}
    if post.get("to"):
        body["to"] = post["to"]
    data = valid(LedgerInput, body)
    seasons.ledger_record(
        tournament=tournament,
        by=request.user,
        kind=data["kind"],
        entrant=selectors.entrant(tournament, data["entrant"]).pk,
        amount=data["amount"],
        reason=data["reason"],
        to=selectors.entrant(tournament, data["to"]).pk if data.get("to") else None,
    )
    return _("The ledger entry is recorded.")


def _current_episode(tournament: Tournament) -> Episode:
    episode = selectors.current_episode(tournament)
    if episode is None:
        raise UserError(_("The season has not started."))
    return episode


def sealed_open(request: HttpRequest, tournament: Tournament) -> str:
    data = valid(SealedOpenInput, request.POST.dict())
    seasons.sealed_open(
        episode=_current_episode(tournament),
        by=request.user,
        prompt=data["prompt"],
        deadline=data["deadline"],
    )
    return _("Sealed answers are open until the deadline.")


def sealed_reveal(request: HttpRequest, tournament: Tournament) -> str:
    seasons.sealed_reveal(episode=_current_episode(tournament), by=request.user)
    return _("The sealed answers are revealed.")


def main_match(request: HttpRequest, tournament: Tournament) -> str:
    episode = _current_episode(tournament)
    if request.POST.get("engine"):
        data = valid(MainMatchInput, _game_settings(request.POST, "mm-"))
        seasons.main_match_game(
            episode=episode,
            by=request.user,
            engine=data["engine"],
            config=data["config"],
            time_control=data["time_control"],
        )
        return _("The main match is being played.")
    winners = _ids(request.POST, "winners")
    losers = [e.pk for e in seasons_players(tournament) if e.pk not in winners]
    seasons.main_match_record(episode=episode, by=request.user, winners=winners, losers=losers)
    return _("The main match is recorded.")


def seasons_players(tournament: Tournament) -> list[Any]:
    ids = seasons.season_for(tournament).players
    return list(tournament.entrants.filter(pk__in=ids))


def candidates(request: HttpRequest, tournament: Tournament) -> str:
    seasons.candidates_choose(
        episode=_current_episode(tournament), by=request.user, chosen=_ids(request.POST, "chosen")
    )
    return _("The elimination candidate is named.")


def token(request: HttpRequest, tournament: Tournament) -> str:
    seasons.token_give(
        episode=_current_episode(tournament),
        by=request.user,
        giver=_entrant_id(request.POST, "giver"),
        receiver=_entrant_id(request.POST, "receiver"),
    )
    return _("The Token of Life is given.")


def _game_settings(post: Any, prefix: str) -> dict[str, Any]:
    """A hosted game's form (an MM or DM): the engine, its rules and clock as fields (the
    fields of the chosen engine, named ``<prefix><engine>__…``; a filled JSON box under
    "Advanced" overrides its part), reserve and increment in seconds."""
    body: dict[str, Any] = {"engine": post.get("engine", "").strip()}
    config, allowances = creation_fields.hosted_game_settings(post, prefix, body["engine"])
    parsed = {"config": config, "allowances": allowances}
    labels = {
        "config": _("The game's settings (JSON)"),
        "allowances": _("Allowance per phase in seconds (JSON)"),
    }
    for key in ("config", "allowances"):
        if not post.get(key, "").strip():
            continue
        try:
            parsed[key] = json.loads(post[key])
        except ValueError:
            raise ValidationError({str(labels[key]): [_("This is not valid JSON.")]}) from None
    body["config"] = parsed["config"]
    time_control: dict[str, Any] = {}
    if parsed["allowances"]:
        time_control["allowances"] = parsed["allowances"]
    for key in ("reserve", "increment"):
        if post.get(key, "").strip():
            try:
                time_control[key] = float(post[key])
            except ValueError:
                raise ValidationError({key: [_("A number of seconds.")]}) from None
    body["time_control"] = time_control
    return body


def death_match(request: HttpRequest, tournament: Tournament) -> str:
    """This episode's Death Match: engine, its config, the time control, the DMO deadline."""
    post = request.POST
    body = _game_settings(post, "dm-")
    if post.get("dmo_deadline", "").strip():
        body["dmo_deadline"] = post["dmo_deadline"].strip()
    data = valid(DeathMatchSetupInput, body)
    seasons.death_match_setup(episode=_current_episode(tournament), by=request.user, **data)
    return _("The Death Match settings are saved.")


def opponent(request: HttpRequest, tournament: Tournament) -> str:
    seasons.opponent_choose(
        episode=_current_episode(tournament),
        by=request.user,
        ec=_entrant_id(request.POST, "ec"),
        dmo=_entrant_id(request.POST, "dmo"),
    )
    return _("The Death Match opponent is chosen.")


ACTIONS: dict[str, Callable[[HttpRequest, Tournament], Any]] = {
    "open-registration": open_registration,
    "open-check-in": open_check_in,
    "seed": seed,
    "start": start,
    "next-round": next_round,
    "entrant": entrant,
    "result": result,
    "ledger": ledger,
    "sealed-open": sealed_open,
    "sealed-reveal": sealed_reveal,
    "main-match": main_match,
    "candidates": candidates,
    "token": token,
    "opponent": opponent,
    "death-match": death_match,
}


@login_required
@require_POST
def act(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    tournament = run_by(request, slug)
    if action not in ACTIONS:
        raise Http404
    try:
        done = ACTIONS[action](request, tournament)
    except ValidationError as error:
        refused, status = _errors(error), 400
    except UserError as error:
        refused, status = [error.message], error.status
    else:
        if isinstance(done, dict):  # a confirmation, shown on the console beside its form
            return console(request, slug, **done)
        if form_feedback.is_htmx(request):
            return console(request, slug, told=form_feedback.feedback(request, [done], ok=True))
        messages.success(request, done)
        return redirect("tournament-manage", slug=slug)
    if form_feedback.is_htmx(request):  # the refusal inside the form that was sent
        told = form_feedback.feedback(request, refused, ok=False)
        return form_feedback.answered(console(request, slug, told=told, status=status), told)
    for line in refused:
        messages.error(request, line)
    return redirect("tournament-manage", slug=slug)
