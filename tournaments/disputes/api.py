"""The disputes API (``/api/disputes/``): parse, call one ``tournaments.disputes.services`` service,
render. Parties read their own disputes, organisers their tournaments', staff admins all;
only staff admins take, resume and rule. A dispute nobody may read is a 404, as if absent.
Each view carries its OpenAPI description, beside the serializers of what it answers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import GameSession
from hosting.core.errors import Forbidden, UserError
from hosting.core.openapi import PAGE, READ_ERRORS, json_object, operation
from hosting.core.roles import is_staff_admin
from hosting.core.validation import Slug, Text, valid
from tournaments import selectors
from tournaments.api.common import Page
from tournaments.api.inputs import MAX_ID, id_field
from tournaments.api.outputs import TournamentPage
from tournaments.disputes import services as disputes
from tournaments.disputes import steps as dispute_steps
from tournaments.models import Dispute

# -- input ------------------------------------------------------------------------------------


class FileInput(serializers.Serializer):
    tournament = Slug(max_length=140)
    match = Text(max_length=20)
    game = id_field(required=False, allow_null=True)
    reason = Text(max_length=2000)
    moves = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=2**31 - 1),
        required=False,
        default=list,
        max_length=500,
    )
    evidence = Text(required=False, default="", allow_blank=True, max_length=5000)
    pause = serializers.BooleanField(required=False, default=False)


class AssignInput(serializers.Serializer):
    assignee = Text(required=False, allow_blank=True, max_length=150)


class CommentInput(serializers.Serializer):
    text = Text(max_length=5000)


class RulingInput(serializers.Serializer):
    ruling = serializers.ChoiceField(choices=Dispute.Ruling.values)
    reason = Text(required=False, default="", allow_blank=True, max_length=2000)
    winner = id_field(required=False, allow_null=True)
    entrant = id_field(required=False, allow_null=True)
    home_score = serializers.FloatField(required=False, allow_null=True, min_value=0, max_value=1e6)
    away_score = serializers.FloatField(required=False, allow_null=True, min_value=0, max_value=1e6)
    seq = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1
    )
    # First a dry run lists what the ruling resets; then the ruling, with that same list.
    dry_run = serializers.BooleanField(required=False, default=False)
    resets = serializers.ListField(child=Text(max_length=20), required=False, max_length=1000)


# -- output -----------------------------------------------------------------------------------


class DisputeComment(serializers.Serializer):
    author = Text()
    role = Text(help_text="party, organiser or staff")
    text = Text()
    at = serializers.DateTimeField()


class DisputeOut(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = Text(help_text="the tournament's slug")
    match = Text(help_text="the match's code")
    home = Text(allow_null=True)
    away = Text(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    filed_by = Text()
    filed_at = serializers.DateTimeField()
    reason = Text()
    moves = serializers.ListField(child=serializers.IntegerField(), help_text="log seq numbers")
    evidence = Text()
    status = Text(help_text="open, assigned, ruled or withdrawn")
    assignee = Text(allow_null=True)
    paused_game = serializers.BooleanField()
    ruling = Text(allow_null=True)
    ruling_reason = Text()
    ruling_data = json_object("ruling_data", "winner, resets, new_game, ... as the ruling applied")
    ruled_by = Text(allow_null=True)
    ruled_at = serializers.DateTimeField(allow_null=True)
    comments = DisputeComment(many=True)


class DisputePage(TournamentPage):
    results = DisputeOut(many=True)


class DisputeResumed(DisputeOut):
    paused_seconds = serializers.FloatField()


class RulingDryRun(serializers.Serializer):
    dry_run = serializers.BooleanField()
    ruling = Text()
    resets = serializers.ListField(child=Text())
    refills = serializers.ListField(child=Text())


class DisputeSteps(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    engine = Text(required=False)
    status = Text(required=False)
    paused = serializers.BooleanField(required=False)
    origin = json_object("origin", "a continued game: the game and event it started from")
    seats = serializers.ListField(child=json_object("seat", "number, name, kind, role"))
    steps = serializers.ListField(
        child=json_object("step", "number, seat, action, at, thought, view, own, clocks, state")
    )
    fairness = json_object("fairness", "seed_sha256; after the end the seed and verified")


def _user(person: Any) -> str | None:
    return person.get_username() if person is not None else None


def payload(dispute: Dispute, user: Any) -> dict[str, Any]:
    """A dispute as its readers see it; the comments are those of the parties, the
    organiser and the admins, visible to all of them."""
    match = dispute.match
    return {
        "id": dispute.pk,
        "tournament": dispute.tournament.slug,
        "match": match.code,
        "home": match.home.display_name if match.home else None,
        "away": match.away.display_name if match.away else None,
        "game": dispute.game_id,
        "filed_by": _user(dispute.filed_by),
        "filed_at": dispute.filed_at,
        "reason": dispute.reason,
        "moves": dispute.moves,
        "evidence": dispute.evidence,
        "status": dispute.status,
        "assignee": _user(dispute.assignee),
        "paused_game": dispute.paused_game,
        "ruling": dispute.ruling or None,
        "ruling_reason": dispute.ruling_reason,
        "ruling_data": dispute.ruling_data,
        "ruled_by": _user(dispute.ruled_by),
        "ruled_at": dispute.ruled_at,
        "comments": [
            {"author": _user(c.author), "role": c.role, "text": c.text, "at": c.at}
            for c in dispute.comments.select_related("author")
        ],
    }


def _dispute(dispute_id: int, user: Any) -> Dispute:
    if dispute_id > MAX_ID:
        raise UserError(_("no dispute %(id)s") % {"id": dispute_id})
    return disputes.get_visible(dispute_id, user)


class DisputeAPIView(APIView):
    permission_classes = [IsAuthenticated]


FILTERS = [
    PAGE,
    # Empty is every status, as the disputes page's filter form sends it.
    OpenApiParameter(
        "status",
        str,
        enum=["", "pending", "open", "assigned", "ruled", "withdrawn"],
        description="empty: any",
    ),
    OpenApiParameter("tournament", str, description="a tournament's slug"),
    OpenApiParameter("assignee", str, description="a staff admin's username, or none"),
]


@extend_schema_view(
    get=operation(
        DisputePage,
        summary="Disputes you may read (yours, your tournaments', or all for staff admins)",
        parameters=FILTERS,
        operation_id="disputes_list",
        errors=(400, *READ_ERRORS),
    ),
    post=operation(
        DisputeOut,
        request=FileInput,
        status=201,
        summary="File a dispute on a match or one of its games (a party or the organiser)",
    ),
)
class DisputeListView(DisputeAPIView):
    def get(self, request: Request) -> Response:
        found = disputes.filtered(disputes.visible_to(request.user), request.query_params)
        paginator = Page()
        rows = paginator.paginate_queryset(found.order_by("-filed_at", "-pk"), request, view=self)
        return paginator.get_paginated_response([payload(d, request.user) for d in rows])

    def post(self, request: Request) -> Response:
        data = valid(FileInput, request.data)
        tournament = selectors.visible_tournament(data["tournament"], request.user)
        match = selectors.match(tournament, data["match"])
        game = None
        if data.get("game") is not None:
            game = GameSession.objects.filter(pk=data["game"]).first()
            if game is None:
                raise UserError(
                    _("game %(game)s is not one of this match's") % {"game": data["game"]}
                )
        dispute = disputes.dispute_file(
            match=match,
            by=request.user,
            reason=data["reason"],
            game=game,
            moves=data["moves"],
            evidence=data["evidence"],
            pause=data["pause"],
        )
        return Response(payload(dispute, request.user), status=201)


@extend_schema_view(get=operation(DisputeOut, summary="A dispute", errors=READ_ERRORS))
class DisputeDetailView(DisputeAPIView):
    def get(self, request: Request, dispute_id: int) -> Response:
        return Response(payload(_dispute(dispute_id, request.user), request.user))


@extend_schema_view(
    post=operation(DisputeOut, summary="Withdraw your dispute (until an admin takes it)")
)
class WithdrawView(DisputeAPIView):
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = disputes.dispute_withdraw(
            dispute=_dispute(dispute_id, request.user), by=request.user
        )
        return Response(payload(dispute, request.user))


@extend_schema_view(
    post=operation(DisputeOut, request=AssignInput, summary="Take or assign (staff admins)")
)
class AssignView(DisputeAPIView):
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = _dispute(dispute_id, request.user)
        # Before the body: who is a staff admin is not for others to probe by name.
        if not is_staff_admin(request.user):
            raise Forbidden(_("only staff admins do that"))
        data = valid(AssignInput, request.data)
        assignee = disputes.staff_named(data.get("assignee", ""))
        dispute = disputes.dispute_assign(dispute=dispute, by=request.user, assignee=assignee)
        return Response(payload(dispute, request.user))


@extend_schema_view(
    post=operation(
        DisputeOut,
        request=CommentInput,
        status=201,
        summary="A statement (parties) or a comment (organiser, staff admins)",
    )
)
class CommentView(DisputeAPIView):
    def post(self, request: Request, dispute_id: int) -> Response:
        data = valid(CommentInput, request.data)
        dispute = _dispute(dispute_id, request.user)
        disputes.dispute_comment(dispute=dispute, by=request.user, text=data["text"])
        return Response(payload(dispute, request.user), status=201)


@extend_schema_view(
    post=operation(DisputeResumed, summary="Resume the paused game's clocks (staff admins)")
)
class ResumeView(DisputeAPIView):
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = _dispute(dispute_id, request.user)
        seconds = disputes.dispute_resume(dispute=dispute, by=request.user)
        return Response({**payload(dispute, request.user), "paused_seconds": seconds})


@extend_schema_view(
    post=operation(
        PolymorphicProxySerializer(
            component_name="RulingOutcome",
            serializers=[DisputeOut, RulingDryRun],
            resource_type_field_name=None,
            help_text="the ruled dispute; a dry run answers what the ruling would reset",
        ),
        request=RulingInput,
        summary="Rule on a dispute (staff admins), after a dry run listing its resets",
    )
)
class RulingView(DisputeAPIView):
    def post(self, request: Request, dispute_id: int) -> Response:
        dispute = _dispute(dispute_id, request.user)
        if not is_staff_admin(request.user):  # before reading the body: one answer, a 403
            raise Forbidden(_("only staff admins do that"))
        data = valid(RulingInput, request.data)
        winner = (
            selectors.entrant(dispute.tournament, data["winner"]) if data.get("winner") else None
        )
        if data["dry_run"]:
            preview = disputes.dispute_preview(
                dispute=dispute, by=request.user, ruling=data["ruling"], winner=winner
            )
            return Response(
                {
                    "dry_run": True,
                    "ruling": preview.ruling,
                    "resets": list(preview.resets),
                    "refills": list(preview.refills),
                }
            )
        entrant = (
            selectors.entrant(dispute.tournament, data["entrant"]) if data.get("entrant") else None
        )
        dispute = disputes.dispute_rule(
            dispute=dispute,
            by=request.user,
            ruling=data["ruling"],
            reason=data["reason"],
            winner=winner,
            resets=data.get("resets"),
            home_score=data.get("home_score"),
            away_score=data.get("away_score"),
            entrant=entrant,
            seq=data.get("seq"),
        )
        return Response(payload(dispute, request.user))


@extend_schema_view(
    get=operation(
        DisputeSteps,
        summary="The disputed game step by step with its full state (staff admins)",
        errors=READ_ERRORS,
    )
)
class StepsView(DisputeAPIView):
    """The disputed game step by step with the full state: staff admins only."""

    def get(self, request: Request, dispute_id: int) -> Response:
        dispute = _dispute(dispute_id, request.user)
        if not is_staff_admin(request.user):
            raise Forbidden(_("only staff admins step through the full state"))
        return Response(dispute_steps.log(dispute))
