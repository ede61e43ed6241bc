"""The tournaments HTTP API: parse, call one service, render. Errors: hosting.core.errors.

Reads are public (spectators need no account) but never show anything private: entrants
appear by display name and seed, sealed answers only to their author until the reveal. The
entrant acting is always the one belonging to ``request.user``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.errors import Forbidden, NotFound, UserError
from tournaments import adapters, services
from tournaments.formats import genius
from tournaments.models import (
    AuditEntry,
    Entrant,
    Episode,
    Match,
    MatchGame,
    Round,
    SealedSubmission,
    Stage,
    Tournament,
)
from tournaments.seasons import services as seasons

# -- input ------------------------------------------------------------------------------------

# Larger whole numbers would overflow their columns (a 500); they are refused as input instead.
MAX_INT = 2**31 - 1
MAX_ID = 2**63 - 1


def _count(**options: Any) -> serializers.IntegerField:
    return serializers.IntegerField(max_value=MAX_INT, **options)


def _id(**options: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **options)


def _ids(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=_id(), **options)


class TournamentCreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=140)
    description = serializers.CharField(required=False, default="", allow_blank=True)
    game = serializers.CharField(max_length=40)
    ruleset = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    format = serializers.CharField(max_length=40)
    format_options = serializers.DictField(required=False, default=dict)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list
    )
    # The version's name is checked by the service, which says which names exist.
    tiebreak_regulations = serializers.CharField(required=False, max_length=40)
    capacity = _count(required=False, allow_null=True, min_value=2)
    best_of = serializers.IntegerField(required=False, default=1, min_value=1, max_value=99)
    play_online = serializers.BooleanField(required=False, default=True)
    # How long each match game waits for its players' client seeds (games.fairness).
    seed_window_seconds = serializers.IntegerField(
        required=False,
        default=Tournament._meta.get_field("seed_window_seconds").default,
        min_value=0,
        max_value=services.MAX_SEED_WINDOW_SECONDS,
    )
    registration_opens = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes = serializers.DateTimeField(required=False, allow_null=True)
    visibility = serializers.ChoiceField(
        choices=Tournament.Visibility.choices, required=False, default="public"
    )

    def validate_slug(self, slug: str) -> str:
        # A read-side courtesy; the unique constraint remains the guarantee.
        if Tournament.objects.filter(slug=slug).exists():
            raise serializers.ValidationError(_("the slug %(slug)r is taken") % {"slug": slug})
        return slug

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        opens, closes = data.get("registration_opens"), data.get("registration_closes")
        if opens and closes and closes <= opens:
            raise serializers.ValidationError(_("registration must close after it opens"))
        return data


class RegisterInput(serializers.Serializer):
    display_name = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=80
    )
    rating = _count(required=False, allow_null=True, min_value=0)


class WithdrawInput(serializers.Serializer):
    entrant = _id(required=False, allow_null=True)


class SeedingInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=services.SEEDING_METHODS)
    order = _ids(required=False)


class ResultInput(serializers.Serializer):
    winner = _id(allow_null=True)
    home_score = serializers.FloatField(required=False, allow_null=True, min_value=0)
    away_score = serializers.FloatField(required=False, allow_null=True, min_value=0)
    forfeit = serializers.BooleanField(required=False, default=False)
    force = serializers.BooleanField(required=False, default=False)
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=500)
    # A forced correction: first a dry run that lists what it resets, then that same list.
    dry_run = serializers.BooleanField(required=False, default=False)
    resets = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, max_length=1000
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["dry_run"] and not data["force"]:
            raise serializers.ValidationError(
                _('a dry run previews a forced correction: send it with "force": true')
            )
        return data


class SealedOpenInput(serializers.Serializer):
    prompt = serializers.CharField(max_length=2000)
    deadline = serializers.DateTimeField()


class SealedSubmitInput(serializers.Serializer):
    text = serializers.CharField(max_length=2000, trim_whitespace=False)


class MainMatchInput(serializers.Serializer):
    """Either the result (``winners`` and ``losers``) or a hosted game to play it (``engine``)."""

    winners = _ids(required=False)
    losers = _ids(required=False)
    engine = serializers.CharField(required=False, max_length=40)
    config = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        result = "winners" in data or "losers" in data
        if result == ("engine" in data):
            raise serializers.ValidationError(
                _('send either "winners" and "losers", or an "engine" to play the main match')
            )
        if result and not ("winners" in data and "losers" in data):
            raise serializers.ValidationError(_('a main match result lists "winners" and "losers"'))
        return data


class DeathMatchSetupInput(serializers.Serializer):
    """How this episode's Death Match is played, and until when the EC may pick the DMO."""

    engine = serializers.CharField(required=False, allow_blank=True, max_length=40, default="")
    config = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    dmo_deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)


class CandidatesInput(serializers.Serializer):
    chosen = _ids(min_length=1)


class TokenInput(serializers.Serializer):
    giver = _id()
    receiver = _id()


class OpponentInput(serializers.Serializer):
    ec = _id()
    dmo = _id()


class LedgerInput(serializers.Serializer):
    kind = serializers.CharField(max_length=20)
    entrant = _id()
    amount = _count(min_value=1)
    reason = serializers.CharField(max_length=200)
    to = _id(required=False, allow_null=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["kind"] == "transfer" and data.get("to") is None:
            raise serializers.ValidationError(_('a transfer names who receives it in "to"'))
        return data


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- lookups ----------------------------------------------------------------------------------


def _runs(tournament: Tournament, user: Any) -> bool:
    try:
        services.check_runs(tournament, user)
    except Forbidden:
        return False
    return True


def _tournament(slug: str, user: Any) -> Tournament:
    """Any tournament by slug, unlisted ones included; a draft only to those who run it."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or (
        tournament.status == Tournament.Status.DRAFT and not _runs(tournament, user)
    ):
        raise NotFound(_("no tournament %(slug)r") % {"slug": slug})
    return tournament


def _entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    entrant = tournament.entrants.filter(pk=entrant_id).first()
    if entrant is None:
        raise UserError(_("no entrant %(id)s in this tournament") % {"id": entrant_id})
    return entrant


def _my_entrant(tournament: Tournament, user: Any) -> Entrant:
    entrant = tournament.entrants.filter(user=user).first()
    if entrant is None:
        raise Forbidden(_("you have no entry in this tournament"))
    return entrant


def _match(tournament: Tournament, code: str) -> Match:
    match = (
        Match.objects.filter(stage__tournament=tournament, code=code)
        .order_by("-stage__number")
        .first()
    )
    if match is None:
        raise NotFound(_("no match %(code)r in this tournament") % {"code": code})
    return match


def _episode(tournament: Tournament, number: int) -> Episode:
    episode = tournament.episodes.filter(number=number).first()
    if episode is None:
        raise NotFound(_("no episode %(number)s in this tournament") % {"number": number})
    return episode


# -- output -----------------------------------------------------------------------------------


def _entrant_payload(entrant: Entrant) -> dict[str, Any]:
    return {
        "id": entrant.pk,
        "name": entrant.display_name,
        "status": entrant.status,
        "seed": entrant.seed,
        "eliminated_in": entrant.eliminated_in,
    }


def _side(entrant_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    return None if entrant_id is None else {"id": entrant_id, "name": names.get(entrant_id)}


def _match_payload(match: Match, round_: Round, names: dict[int, str]) -> dict[str, Any]:
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


def _episode_payload(episode: Episode) -> dict[str, Any]:
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
    }


def _submission_payload(submission: SealedSubmission) -> dict[str, Any]:
    return {
        "entrant": submission.entrant_id,
        "name": submission.entrant.display_name,
        "text": submission.text,
        "submitted_at": submission.submitted_at,
    }


def _summary(tournament: Tournament) -> dict[str, Any]:
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


def _detail(slug: str) -> dict[str, Any]:
    """The whole public picture in a fixed number of queries, however many matches."""
    # Creation order is bracket order ("W1.10" sorts before "W1.2" by code).
    matches = Match.objects.order_by("pk").prefetch_related(
        Prefetch("match_games", queryset=MatchGame.objects.order_by("number"))
    )
    tournament = (
        Tournament.objects.select_related("organiser")
        .prefetch_related(
            "entrants",
            Prefetch(
                "stages",
                queryset=Stage.objects.prefetch_related(
                    Prefetch(
                        "rounds",
                        queryset=Round.objects.order_by("bracket", "number").prefetch_related(
                            Prefetch("matches", queryset=matches)
                        ),
                    )
                ),
            ),
            "episodes",
        )
        .get(slug=slug)
    )
    entrants = list(tournament.entrants.all())
    names = {e.pk: e.display_name for e in entrants}
    payload = _summary(tournament) | {
        "description": tournament.description,
        "ruleset": tournament.ruleset,
        "time_control": tournament.time_control,
        "format_options": tournament.format_options,
        "tiebreaks": tournament.tiebreaks,
        "tiebreak_regulations": tournament.tiebreak_regulations,
        "best_of": tournament.best_of,
        "play_online": tournament.play_online,
        "seed_window_seconds": tournament.seed_window_seconds,
        "check_in_opens": tournament.check_in_opens,
        "check_in_closes": tournament.check_in_closes,
        "entrants": [_entrant_payload(e) for e in entrants],
        "stages": [
            {
                "number": stage.number,
                "format": stage.format,
                "status": stage.status,
                "total_rounds": stage.total_rounds,
                "rounds": [
                    {
                        "bracket": round_.bracket,
                        "number": round_.number,
                        "status": round_.status,
                        "matches": [_match_payload(m, round_, names) for m in round_.matches.all()],
                    }
                    for round_ in stage.rounds.all()
                ],
            }
            for stage in tournament.stages.all()
        ],
    }
    if tournament.format == genius.KEY:
        payload["episodes"] = [_episode_payload(e) for e in tournament.episodes.all()]
        # The season rules (and so the currency) are checked when the season starts.
        started = bool(tournament.stages.all())
        payload["balances"] = seasons.balances(tournament) if started else {}
    return payload


class Page(PageNumberPagination):
    page_size = 50


class TournamentAPIView(APIView):
    # Spectators read without an account; every write acts as a signed-in user.
    permission_classes = [IsAuthenticatedOrReadOnly]


# -- tournaments ------------------------------------------------------------------------------


class TournamentListView(TournamentAPIView):
    def get(self, request: Request) -> Response:
        active = Q(entrants__status__in=adapters.ACTIVE)
        tournaments = (
            Tournament.objects.public()
            .select_related("organiser")
            .annotate(entrant_count=Count("entrants", filter=active))
            .order_by("-created", "-pk")
        )
        paginator = Page()
        page = paginator.paginate_queryset(tournaments, request, view=self)
        rows = [_summary(t) | {"entrant_count": t.entrant_count} for t in page]
        return paginator.get_paginated_response(rows)

    def post(self, request: Request) -> Response:
        data = _valid(TournamentCreateInput, request.data)
        tournament = services.tournament_create(organiser=request.user, **data)
        return Response(_detail(tournament.slug), status=201)


class TournamentDetailView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        return Response(_detail(_tournament(slug, request.user).slug))


class RegistrationOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        services.registration_open(tournament=tournament, by=request.user)
        return Response(_detail(slug))


class CheckInOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        services.check_in_open(tournament=tournament, by=request.user)
        return Response(_detail(slug))


class SeedingView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        data = _valid(SeedingInput, request.data)
        seeded = services.seeding_apply(
            tournament=tournament, by=request.user, method=data["method"], order=data.get("order")
        )
        return Response({"entrants": [_entrant_payload(e) for e in seeded]})


class StartView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        # A Genius season runs as episodes; every other format as a stage of matches.
        start = seasons.season_start if tournament.format == genius.KEY else services.stage_start
        start(tournament=tournament, by=request.user)
        return Response(_detail(slug))


class NextRoundView(TournamentAPIView):
    """A Swiss whose organiser starts each round (``"pairing": "organiser"``): pair the next."""

    def post(self, request: Request, slug: str) -> Response:
        services.swiss_round_start(tournament=_tournament(slug, request.user), by=request.user)
        return Response(_detail(slug))


# -- entrants ---------------------------------------------------------------------------------


class RegisterView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        data = _valid(RegisterInput, request.data)
        entrant = services.entrant_register(
            tournament=tournament,
            user=request.user,
            display_name=data["display_name"],
            rating=data.get("rating"),
        )
        return Response(_entrant_payload(entrant), status=201)


class WithdrawView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        data = _valid(WithdrawInput, request.data)
        if data.get("entrant") is None:
            entrant = _my_entrant(tournament, request.user)
        else:
            entrant = _entrant(tournament, data["entrant"])
        services.entrant_withdraw(entrant=entrant, by=request.user)
        entrant.refresh_from_db()
        return Response(_entrant_payload(entrant))


class CheckInView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        entrant = _my_entrant(_tournament(slug, request.user), request.user)
        services.entrant_check_in(entrant=entrant, by=request.user)
        entrant.refresh_from_db()
        return Response(_entrant_payload(entrant))


# -- matches, standings, audit ----------------------------------------------------------------


class MatchResultView(TournamentAPIView):
    def post(self, request: Request, slug: str, code: str) -> Response:
        tournament = _tournament(slug, request.user)
        match = _match(tournament, code)
        data = _valid(ResultInput, request.data)
        winner = None if data["winner"] is None else _entrant(tournament, data["winner"])
        if data["dry_run"]:
            plan = services.correction_preview(
                match=match,
                by=request.user,
                winner=winner,
                home_score=data.get("home_score"),
                away_score=data.get("away_score"),
                reason=data["reason"],
            )
            return Response(
                {
                    "dry_run": True,
                    "match": match.code,
                    "resets": list(plan.resets),
                    "refills": list(plan.refills),
                    "later_rounds_kept": list(plan.later_swiss),
                }
            )
        match = services.match_report_result(
            match=match,
            by=request.user,
            winner=winner,
            home_score=data.get("home_score"),
            away_score=data.get("away_score"),
            forfeit=data["forfeit"],
            force=data["force"],
            reason=data["reason"],
            resets=data.get("resets"),
        )
        names = {e.pk: e.display_name for e in (match.home, match.away) if e is not None}
        return Response(_match_payload(match, match.round, names))


class StandingsView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        regulations = request.query_params.get("regulations")  # another version, to compare
        return Response(services.standings_table(tournament=tournament, regulations=regulations))


class AuditView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        if not _runs(tournament, request.user):
            raise Forbidden(_("only the organiser and staff admins read the audit trail"))
        entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
        paginator = Page()
        page = paginator.paginate_queryset(entries.order_by("-at", "-pk"), request, view=self)
        rows = [
            {
                "action": entry.action,
                "actor": entry.actor.get_username() if entry.actor else None,
                "target": entry.target,
                "before": entry.before,
                "after": entry.after,
                "data": entry.data,
                "reason": entry.reason,
                "at": entry.at,
            }
            for entry in page
        ]
        return paginator.get_paginated_response(rows)


# -- Genius seasons ---------------------------------------------------------------------------


class SealedOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(SealedOpenInput, request.data)
        seasons.sealed_open(
            episode=episode, by=request.user, prompt=data["prompt"], deadline=data["deadline"]
        )
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class SealedSubmitView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug, request.user)
        episode = _episode(tournament, number)
        entrant = _my_entrant(tournament, request.user)
        data = _valid(SealedSubmitInput, request.data)
        submission = seasons.sealed_submit(
            episode=episode, entrant=entrant, by=request.user, text=data["text"]
        )
        return Response(_submission_payload(submission), status=201)


class SubmissionsView(TournamentAPIView):
    """Sealed answers: before the reveal each player sees only their own (the host included:
    nobody reads an answer early); after it, everyone sees them all."""

    def get(self, request: Request, slug: str, number: int) -> Response:
        tournament = _tournament(slug, request.user)
        episode = _episode(tournament, number)
        submissions = episode.submissions.select_related("entrant")
        if not episode.mm_revealed and request.user.is_authenticated:
            submissions = submissions.filter(entrant__user=request.user)
        elif not episode.mm_revealed:
            submissions = submissions.none()
        return Response(
            {
                "revealed": episode.mm_revealed,
                "submissions": [_submission_payload(s) for s in submissions],
            }
        )


class SealedRevealView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        revealed = seasons.sealed_reveal(episode=episode, by=request.user)
        return Response(
            {"revealed": True, "submissions": [_submission_payload(s) for s in revealed]}
        )


class MainMatchView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(MainMatchInput, request.data)
        if "engine" in data:
            seasons.main_match_game(
                episode=episode,
                by=request.user,
                engine=data["engine"],
                config=data["config"],
                time_control=data["time_control"],
            )
        else:
            seasons.main_match_record(
                episode=episode, by=request.user, winners=data["winners"], losers=data["losers"]
            )
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class DeathMatchSetupView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(DeathMatchSetupInput, request.data)
        seasons.death_match_setup(episode=episode, by=request.user, **data)
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class CandidatesView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(CandidatesInput, request.data)
        seasons.candidates_choose(episode=episode, by=request.user, chosen=data["chosen"])
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class TokenView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(TokenInput, request.data)
        seasons.token_give(
            episode=episode, by=request.user, giver=data["giver"], receiver=data["receiver"]
        )
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class OpponentView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(_tournament(slug, request.user), number)
        data = _valid(OpponentInput, request.data)
        seasons.opponent_choose(episode=episode, by=request.user, ec=data["ec"], dmo=data["dmo"])
        episode.refresh_from_db()
        return Response(_episode_payload(episode))


class LedgerView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(slug, request.user)
        data = _valid(LedgerInput, request.data)
        # Ledger rows point at entrants: ids from another tournament are refused here.
        entrant = _entrant(tournament, data["entrant"])
        to = None if data.get("to") is None else _entrant(tournament, data["to"])
        seasons.ledger_record(
            tournament=tournament,
            by=request.user,
            kind=data["kind"],
            entrant=entrant.pk,
            amount=data["amount"],
            reason=data["reason"],
            to=to.pk if to else None,
        )
        return Response({"balances": seasons.balances(tournament)}, status=201)
