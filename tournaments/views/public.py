"""Public tournament pages: parse, read what the API computes, render.

The pages draw exactly the payloads the JSON API answers (``selectors.detail`` for the
tournament, ``services.standings`` for the table, both in ``selectors.board``): a bracket,
crosstable or standings row on a page is the one a bot reads. Player forms post here and call
the same services as the API after the same lookups (``tournaments.selectors``), so they meet
the same refusals, shown in the page instead of JSON.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

import redis
from csp.decorators import csp_replace
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_POST

from games import engines
from hosting.core.errors import UserError
from tournaments import adapters, form_feedback, live, selectors, services
from tournaments.api.inputs import MAX_ID, MAX_INT
from tournaments.core.permissions import runs
from tournaments.formats import genius
from tournaments.models import Entrant, Episode, Match, MatchSlot, SealedSubmission, Tournament
from tournaments.seasons import death_match_picks, transfers
from tournaments.seasons import services as seasons
from tournaments.selectors import or_404
from tournaments.templatetags.tournament_pages import FORMATS, TOURNAMENT_STATUS

PAGE_SIZE = 50


# -- the list ---------------------------------------------------------------------------------


class ListFilter(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    format = forms.ChoiceField(
        label=_("Format"), required=False, choices=[("", _("Any format")), *FORMATS.items()]
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("Any status"))]
        + [(k, v) for k, v in TOURNAMENT_STATUS.items() if k != "draft"],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = [(key, engines.get(key).name) for key in engines.ENGINE_MODULES]
        self.fields["game"].choices = [("", _("Any game")), *games]


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = ListFilter(request.GET or None)
    tournaments = (
        Tournament.objects.public()
        .select_related("organiser")
        .annotate(entrant_count=Count("entrants", filter=Q(entrants__status__in=adapters.ACTIVE)))
        .order_by("-created", "-pk")
    )
    if form.is_valid():
        chosen = {k: v for k, v in form.cleaned_data.items() if v}
        tournaments = tournaments.filter(**chosen)
    page = Paginator(tournaments, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/list.html",
        {"form": form, "page": page, "query": query.urlencode()},
    )


@login_required
@require_GET
def my_tournaments(request: HttpRequest) -> HttpResponse:
    """The signed-in user's entries, each with its next match, and what they organise."""
    entries = (
        Entrant.objects.filter(user=request.user)
        .select_related("tournament")
        .order_by("-tournament__created", "-pk")
    )
    waiting = Q(status__in=("ready", "live"))
    next_matches: dict[int, Match] = {}
    for match in (
        Match.objects.filter(waiting, Q(home__user=request.user) | Q(away__user=request.user))
        .select_related("home", "away", "stage")
        .prefetch_related("match_games")
        .order_by("pk")
    ):
        next_matches.setdefault(match.stage.tournament_id, match)
    rows = []
    for entry in entries:
        match = next_matches.get(entry.tournament_id)
        opponent = None
        if match is not None:
            opponent = match.away if match.home_id == entry.pk else match.home
        games = [link.game_id for link in match.match_games.all()] if match else []
        rows.append({"entry": entry, "match": match, "opponent": opponent, "games": games})
    organised = Tournament.objects.filter(organiser=request.user).order_by("-created")
    context = {"rows": rows, "organised": organised}
    return render(request, "tournaments/mine.html", context)


# -- one tournament ---------------------------------------------------------------------------


def my_entry(tournament: Tournament, user: Any) -> dict[str, Any]:
    """The signed-in player's entry, their place on the waitlist and their next match (the
    first ready or live one that has them on a side)."""
    if not user.is_authenticated:
        return {}
    entrant = selectors.entry_of(tournament, user)
    context: dict[str, Any] = {"entrant": entrant}
    if entrant is None:
        return context
    if entrant.status == Entrant.Status.WAITLISTED:
        order = list(services.waiting_list(tournament).values_list("pk", flat=True))
        context["waitlist_position"] = order.index(entrant.pk) + 1
    match = (
        Match.objects.filter(stage__tournament=tournament, status__in=("ready", "live"))
        .filter(Q(home=entrant) | Q(away=entrant))
        .select_related("home", "away")
        .order_by("pk")
        .first()
    )
    if match is not None:
        opponent = match.away if match.home_id == entrant.pk else match.home
        links = match.match_games.order_by("number").select_related("game")
        played = [link.game for link in links]
        current = played[-1] if played and match.status == Match.Status.LIVE else None
        context["next_match"] = {
            "code": match.code,
            "status": match.status,
            "games": [game.pk for game in played],
            # When it began (the game's start, else when it became ready) and the clock's
            # next deadline, both public on the game's own page.
            "since": (current.started if current else None) or match.updated,
            "deadline": current.next_deadline if current else None,
            # Scheduled by its players: its time is agreed on the match's own page.
            "scheduled": MatchSlot.objects.filter(match=match).exists(),
        }
        context["opponent"] = {"name": opponent.display_name if opponent else None}
        if tournament.players_report and not played:
            context["report"] = _report_state(match, entrant)
    return context


def _report_state(match: Match, entrant: Entrant) -> dict[str, Any]:
    """What the player's own match card offers where players report their results: the
    outcomes to report (nobody preselected), and what each side has said so far."""
    names = {side.pk: side.display_name for side in (match.home, match.away) if side}
    claim = match.extra.get("claim")
    contested = match.extra.get("contested")

    def said(found: dict[str, Any]) -> str:
        if found["winner"] is None:
            return str(_("a draw"))
        return str(_("%(name)s won") % {"name": names.get(found["winner"], "?")})

    return {
        "code": match.code,
        "sides": [(side.pk, side.display_name) for side in (match.home, match.away) if side],
        "draws": match.stage.format in ("swiss", "round_robin", "genius"),
        "mine": said(claim) if claim and claim["by"] == entrant.pk else None,
        "theirs": said(claim) if claim and claim["by"] != entrant.pk else None,
        "theirs_winner": (claim or {}).get("winner", "") if claim else None,
        "contested": [f"{names.get(c['by'], '?')}: {said(c)}" for c in contested or []],
    }


def receipt(submission: SealedSubmission) -> str:
    """The SHA-256 of a sealed answer as stored (season, episode, entrant, time, text): the
    player keeps it, and after the reveal anyone can check the answer shown is the one sent."""
    episode = submission.episode
    record = "\n".join(
        [
            episode.tournament.slug,
            str(episode.number),
            str(submission.entrant_id),
            submission.submitted_at.isoformat(),
            submission.text,
        ]
    )
    return hashlib.sha256(record.encode()).hexdigest()


def my_season(tournament: Tournament, entrant: Entrant | None) -> dict[str, Any]:
    """What the player may do in the current episode: send a sealed answer, name the EC,
    give a ToL, pick a DMO among the eligible (the rules' own list), transfer garnets."""
    episode = selectors.current_episode(tournament)
    if entrant is None or episode is None or entrant.status not in adapters.ACTIVE:
        return {}
    season = seasons.season_for(tournament, episode)
    names = dict(tournament.entrants.values_list("pk", "display_name"))
    context: dict[str, Any] = {"episode": episode, "still_in": entrant.pk in season.players}
    mine = episode.submissions.filter(entrant=entrant).select_related("episode__tournament")
    submission = mine.first()
    if submission is not None:
        context["submission"] = submission
        context["receipt"] = receipt(submission)
    context["can_submit"] = (
        context["still_in"]
        and episode.status == Episode.Status.MAIN_MATCH
        and episode.mm_deadline is not None
        and episode.mm_deadline > timezone.now()
        and (submission is None or seasons.rules_for(tournament).sealed_edits)
    )
    context["sealed_edits"] = seasons.rules_for(tournament).sealed_edits
    if episode.status == Episode.Status.CANDIDATES and entrant.pk in episode.winners:
        context["candidates"] = [(pk, names[pk]) for pk in episode.losers]
    if episode.status == Episode.Status.TOKENS and episode.tokens_to_give.get(str(entrant.pk)):
        context["receivers"] = [
            (pk, names[pk]) for pk in season.players if pk != entrant.pk and pk not in episode.ecs
        ]
    picking = episode.status == Episode.Status.OPPONENTS and entrant.pk in episode.ecs
    left = seasons.opponents_left(tournament, episode, entrant.pk) if picking else []
    if left:
        if seasons.dmo_pick_overdue(episode):
            context["pick_overdue"] = True  # the host picks for them now
        else:
            context["eligible"] = [(pk, names[pk]) for pk in left]
            context["dmo_deadline"] = episode.dmo_deadline
    pick = getattr(episode, "dm_pick", None) if episode.status == Episode.Status.DM_PICK else None
    if pick is not None and pick.banner == entrant.pk:
        context["ban_pool"] = [(key, engines.get(key).name) for key in pick.remaining]
        context["ban_deadline"] = pick.step_deadline
    others = [(pk, names[pk]) for pk in season.players if pk != entrant.pk]
    context["transfer_to"] = others if context["still_in"] else []
    context["transfer_choice"] = seasons.rules_for(tournament).transfer_visibility == "choice"
    return context


BOARD_SECONDS = 600  # a bound on any staleness, should a version bump ever be lost


def board_html(request: HttpRequest, tournament: Tournament) -> str:
    """The board as HTML, rendered once per version of the tournament and language: the
    board is the same for every viewer, and after each result every open page fetches it."""
    version = live.current_version(tournament.pk)
    key = (
        f"tournaments:board:{tournament.pk}:{tournament.created.timestamp()}:"
        f"{version}:{get_language()}"
    )
    html = None
    if version is not None:
        try:
            html = cache.get(key)
        except (redis.RedisError, OSError):
            version = None
    if html is None:
        context = {"tournament": tournament, "board": selectors.board(tournament)}
        html = render_to_string("tournaments/board.html", context, request)
        if version is not None:
            with contextlib.suppress(redis.RedisError, OSError):
                cache.set(key, html, BOARD_SECONDS)
    return html


def entrants_list(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"name": e.display_name, "seed": e.seed, "status": e.status}
        for e in tournament.entrants.all()
    ]


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return _detail(request, or_404(selectors.visible_tournament, slug, request.user))


def _detail(
    request: HttpRequest,
    tournament: Tournament,
    told: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The tournament page; ``told`` is the feedback of a player's htmx-posted form."""
    slug = tournament.slug
    entry = my_entry(tournament, request.user)
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    season = tournament.format == genius.KEY and started
    context = {
        "tournament": tournament,
        "board_html": board_html(request, tournament),
        "entrants": entrants_list(tournament),
        "me": entry,
        "runs": runs(tournament, request.user),
        "my_season": my_season(tournament, entry.get("entrant")) if season else {},
        "embed_url": request.build_absolute_uri(reverse("tournament-embed", args=[slug])),
        "feedback": told,
    }
    return render(request, "tournaments/detail.html", context, status=status)


@require_GET
def tournament_board(request: HttpRequest, slug: str) -> HttpResponse:
    """The board alone: what the live stream's listeners fetch when a result lands."""
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    return HttpResponse(board_html(request, tournament))


@require_GET
def tournament_entrants(request: HttpRequest, slug: str) -> HttpResponse:
    """The entrants list alone: the page fetches it with its board when the tournament
    changes, so registrations, check-ins and withdrawals show live."""
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    context = {"tournament": tournament, "entrants": entrants_list(tournament)}
    return render(request, "tournaments/_entrants.html", context)


@require_GET
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
def tournament_embed(request: HttpRequest, slug: str) -> HttpResponse:
    """Bracket or standings only, for other sites' iframes (any origin may frame it; the rest
    of the site's policy holds)."""
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    context = {"tournament": tournament, "board_html": board_html(request, tournament)}
    return render(request, "tournaments/embed.html", context)


# -- a player's own entry ---------------------------------------------------------------------


def _acted(request: HttpRequest, slug: str, action: Any, done: Any) -> HttpResponse:
    """Run one service call for the signed-in player; its refusal is shown, not raised.
    ``done`` is what they are told, or a callable saying it once the call has run."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('tournament-detail', args=[slug])}")
    tournament = or_404(selectors.visible_tournament, slug, request.user)
    try:
        action(tournament)
    except UserError as error:
        if form_feedback.is_htmx(request):  # shown inside the form that was sent
            told = form_feedback.feedback(request, [error.message], ok=False)
            return form_feedback.answered(_detail(request, tournament, told, error.status), told)
        messages.error(request, error.message)
    else:
        done = done() if callable(done) else done
        if form_feedback.is_htmx(request):
            return _detail(request, tournament, form_feedback.feedback(request, [done], ok=True))
        messages.success(request, done)
    return redirect("tournament-detail", slug=slug)


def _mine(tournament: Tournament, user: Any) -> Entrant:
    entrant = selectors.entry_of(tournament, user)
    if entrant is None:
        raise UserError(str(_("You have no entry in this tournament.")))
    return entrant


class RegisterForm(forms.Form):
    display_name = forms.CharField(label=_("Name shown to others"), max_length=80, required=False)


@require_POST
def register(request: HttpRequest, slug: str) -> HttpResponse:
    """Register; when the tournament is full the service puts the entry on the waitlist and
    the page shows its place there."""
    form = RegisterForm(request.POST)
    name = form.cleaned_data["display_name"] if form.is_valid() else ""
    said: list[str] = []

    def registered(tournament: Tournament) -> None:
        entry = services.entrant_register(
            tournament=tournament, user=request.user, display_name=name
        )
        if entry.status == Entrant.Status.WAITLISTED:  # not a place yet: say so, not "recorded"
            place = list(services.waiting_list(tournament).values_list("pk", flat=True))
            said.append(
                _("The tournament is full: you are number %(place)s on the waitlist.")
                % {"place": place.index(entry.pk) + 1}
            )

    return _acted(
        request, slug, registered, lambda: said[0] if said else _("Your registration is recorded.")
    )


@require_POST
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    return _acted(
        request,
        slug,
        lambda t: services.entrant_withdraw(entrant=_mine(t, request.user), by=request.user),
        _("You have withdrawn."),
    )


@require_POST
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    return _acted(
        request,
        slug,
        lambda t: services.entrant_check_in(entrant=_mine(t, request.user), by=request.user),
        _("You are checked in."),
    )


@require_POST
def report(request: HttpRequest, slug: str) -> HttpResponse:
    """A player reports their match's result, or confirms the opponent's report
    (``services.match_claim_result``); the answer is shown on their match card."""
    said: list[str] = []

    def reported(tournament: Tournament) -> None:
        match = selectors.match(tournament, request.POST.get("match", ""))
        chosen = request.POST.get("winner", "")
        if not chosen:
            raise UserError(str(_("Choose who won %(code)s.") % {"code": match.code}))
        winner = None if chosen == "draw" else selectors.entrant(tournament, _posted_id(chosen))
        outcome = services.match_claim_result(match=match, by=request.user, winner=winner)
        said.append(
            {
                "claimed": _("Reported: %(code)s waits for your opponent to confirm it."),
                "confirmed": _("The result of %(code)s is recorded."),
                "contested": _(
                    "Your opponent reported %(code)s differently: the organiser decides."
                ),
            }[outcome]
            % {"code": match.code}
        )

    return _acted(request, slug, reported, lambda: said[0])


def _posted_id(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 0 < number <= MAX_ID:
        raise UserError(str(_("Choose a player from the list.")))
    return number


# -- a player's part in a Genius season -------------------------------------------------------


class SealedForm(forms.Form):
    text = forms.CharField(max_length=2000, strip=False)


@require_POST
def sealed_submit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    form = SealedForm(request.POST)
    text = form.cleaned_data["text"] if form.is_valid() else ""

    def send(tournament: Tournament) -> None:
        seasons.sealed_submit(
            episode=or_404(selectors.episode, tournament, number),
            entrant=_mine(tournament, request.user),
            by=request.user,
            text=text,
        )

    return _acted(request, slug, send, _("Your sealed answer is saved."))


def _picked(request: HttpRequest, key: str) -> int:
    try:
        return int(request.POST.get(key, ""))
    except ValueError:
        raise UserError(str(_("Choose a player from the list."))) from None


@require_POST
def candidates(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def name(tournament: Tournament) -> None:
        seasons.candidates_choose(
            episode=or_404(selectors.episode, tournament, number),
            by=request.user,
            chosen=[_picked(request, "chosen")],
        )

    return _acted(request, slug, name, _("The elimination candidate is named."))


@require_POST
def token(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def give(tournament: Tournament) -> None:
        seasons.token_give(
            episode=or_404(selectors.episode, tournament, number),
            by=request.user,
            giver=_mine(tournament, request.user).pk,
            receiver=_picked(request, "receiver"),
        )

    return _acted(request, slug, give, _("Your Token of Life is given."))


@require_POST
def ban(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The EC or DMO whose turn it is bans a game from the Death Match pool."""

    def strike(tournament: Tournament) -> None:
        death_match_picks.ban(
            episode=or_404(selectors.episode, tournament, number),
            by=request.user,
            entrant=_mine(tournament, request.user).pk,
            game=request.POST.get("game", ""),
        )

    return _acted(request, slug, strike, _("The game is banned."))


@require_POST
def opponent(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def pick(tournament: Tournament) -> None:
        seasons.opponent_choose(
            episode=or_404(selectors.episode, tournament, number),
            by=request.user,
            ec=_mine(tournament, request.user).pk,
            dmo=_picked(request, "dmo"),
        )

    return _acted(request, slug, pick, _("Your Death Match opponent is picked."))


class TransferForm(forms.Form):
    to = forms.IntegerField(min_value=1, max_value=MAX_ID)
    amount = forms.IntegerField(min_value=1, max_value=MAX_INT)
    reason = forms.CharField(max_length=200, required=False)
    private = forms.BooleanField(required=False)


@require_POST
def transfer(request: HttpRequest, slug: str) -> HttpResponse:
    """A player's garnet transfer: an offer by the season's rule (``seasons.transfers``)."""
    form = TransferForm(request.POST)
    made: list[Any] = []

    def pay(tournament: Tournament) -> None:
        if not form.is_valid():
            raise UserError(str(_("A transfer names who receives it and an amount.")))
        rules = seasons.rules_for(tournament)
        made.append(
            transfers.offer(
                tournament=tournament,
                by=request.user,
                sender=_mine(tournament, request.user),
                receiver=selectors.entrant(tournament, form.cleaned_data["to"]),
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                private=form.cleaned_data["private"]
                if rules.transfer_visibility == "choice"
                else None,
            )
        )

    def done() -> Any:
        if made and made[0].status != "done":
            return _("The transfer is offered; it is done once accepted or approved.")
        return _("The garnets are transferred.")

    return _acted(request, slug, pay, done)
