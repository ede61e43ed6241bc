"""``/api/tournaments/<slug>/transfers|questions|rules|handouts|confessionals|lounge``: a Genius
season's garnet transfers, rule questions and versioned rules, private handouts,
confessionals and the viewing lounge, each write one service of ``tournaments.seasons``.

Reads answer only what the caller may see (each service's ``visible_to``): a private transfer,
a handout, a confessional or a question reach nobody but their owners and the hosts.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from hosting.core.openapi import READ_ERRORS, operation
from hosting.core.validation import Text, valid
from tournaments import selectors
from tournaments.api.common import TournamentAPIView
from tournaments.api.inputs import count_field, id_field
from tournaments.models import (
    ActivityCheck,
    Confessional,
    GarnetTransfer,
    Handout,
    RuleQuestion,
    RulesVersion,
    Tournament,
)
from tournaments.seasons import activity, confessionals, handouts, questions, transfers

# -- bodies -----------------------------------------------------------------------------------


class TransferOut(serializers.Serializer):
    id = serializers.IntegerField()
    sender = serializers.IntegerField()
    receiver = serializers.IntegerField()
    amount = serializers.IntegerField()
    reason = Text()
    private = serializers.BooleanField()
    status = Text()
    episode = serializers.IntegerField(allow_null=True)


def transfer_payload(t: GarnetTransfer) -> dict[str, Any]:
    return {
        "id": t.pk,
        "sender": t.sender_id,
        "receiver": t.receiver_id,
        "amount": t.amount,
        "reason": t.reason,
        "private": t.private,
        "status": t.status,
        "episode": t.episode,
    }


class QuestionOut(serializers.Serializer):
    id = serializers.IntegerField()
    asker = serializers.IntegerField()
    text = Text()
    answer = Text()
    status = Text()
    anonymous = serializers.BooleanField()


def question_payload(q: RuleQuestion) -> dict[str, Any]:
    return {
        "id": q.pk,
        "asker": q.asker_id,
        "text": q.text,
        "answer": q.answer,
        "status": q.status,
        "anonymous": q.anonymous,
    }


class VersionOut(serializers.Serializer):
    number = serializers.IntegerField()
    text = Text()
    change = Text()
    at = serializers.DateTimeField()


class ClarificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    question = Text()
    answer = Text()
    asker = Text(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField(allow_null=True)


class RulesOut(serializers.Serializer):
    versions = VersionOut(many=True)
    clarifications = ClarificationOut(many=True)


def version_payload(v: RulesVersion) -> dict[str, Any]:
    return {"number": v.number, "text": v.text, "change": v.change, "at": v.at}


class HandoutOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = Text()
    text = Text()
    recipients = serializers.ListField(child=serializers.IntegerField())
    episode = serializers.IntegerField(allow_null=True)
    file = Text(allow_null=True, help_text="The attachment's download path (its readers only)")


def handout_payload(h: Handout) -> dict[str, Any]:
    return {
        "id": h.pk,
        "title": h.title,
        "text": h.text,
        "recipients": sorted(r.pk for r in h.recipients.all()),
        "episode": h.episode,
        "file": reverse("season-handout-file", args=[h.tournament.slug, h.pk])
        if h.file_name
        else None,
    }


class ConfessionalOut(serializers.Serializer):
    id = serializers.IntegerField()
    entrant = serializers.IntegerField()
    episode = serializers.IntegerField(allow_null=True)
    text = Text()
    at = serializers.DateTimeField()


def confessional_payload(c: Confessional) -> dict[str, Any]:
    return {"id": c.pk, "entrant": c.entrant_id, "episode": c.episode, "text": c.text, "at": c.at}


class LoungeAnswer(serializers.Serializer):
    episode = serializers.IntegerField()
    entrant = serializers.IntegerField()
    text = Text()


class LoungeOut(serializers.Serializer):
    season_over = serializers.BooleanField()
    eliminated = serializers.ListField(child=serializers.IntegerField())
    answers = LoungeAnswer(many=True)
    handouts = HandoutOut(many=True)
    confessionals = ConfessionalOut(many=True)


# -- inputs -----------------------------------------------------------------------------------


class OfferInput(serializers.Serializer):
    to = id_field()
    amount = count_field(min_value=1)
    reason = Text(required=False, default="", allow_blank=True, max_length=200)
    private = serializers.BooleanField(required=False, allow_null=True, default=None)


class DecisionInput(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["accept", "approve", "decline"])


class AskInput(serializers.Serializer):
    text = Text(max_length=2000)
    anonymous = serializers.BooleanField(required=False, default=True)


class AnswerInput(serializers.Serializer):
    text = Text(max_length=5000)
    publish = serializers.BooleanField(required=False, default=False)


class RulesInput(serializers.Serializer):
    text = Text(max_length=50000)
    change = Text(max_length=300)


class HandoutInput(serializers.Serializer):
    recipients = serializers.ListField(child=id_field(), min_length=1, max_length=100)
    title = Text(max_length=120)
    text = Text(max_length=10000)


class ConfessionalInput(serializers.Serializer):
    text = Text(max_length=5000)


# -- views ------------------------------------------------------------------------------------


def _tournament(request: Request, slug: str) -> Tournament:
    return selectors.visible_tournament(slug, request.user)


@extend_schema_view(
    get=operation(
        TransferOut(many=True),
        summary="Garnet transfers you may see (public, yours, all for a host)",
        errors=READ_ERRORS,
    ),
    post=operation(TransferOut, request=OfferInput, status=201, summary="Offer garnets"),
)
class TransfersView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        rows = transfers.visible_to(_tournament(request, slug), request.user).order_by("pk")
        return Response([transfer_payload(t) for t in rows])

    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        data = valid(OfferInput, request.data)
        made = transfers.offer(
            tournament=tournament,
            by=request.user,
            sender=selectors.my_entrant(tournament, request.user),
            receiver=selectors.entrant(tournament, data["to"]),
            amount=data["amount"],
            reason=data["reason"],
            private=data["private"],
        )
        return Response(transfer_payload(made), status=201)


@extend_schema_view(
    post=operation(
        TransferOut,
        request=DecisionInput,
        summary="Accept, approve or decline a transfer",
        operation_id="tournaments_transfers_decide",
    )
)
class TransferDecisionView(TournamentAPIView):
    def post(self, request: Request, slug: str, transfer_id: int) -> Response:
        tournament = _tournament(request, slug)
        data = valid(DecisionInput, request.data)
        found = transfers.visible_to(tournament, request.user).filter(pk=transfer_id).first()
        if found is None:
            raise NotFound(_("no such transfer in this season"))
        act = {"accept": transfers.accept, "approve": transfers.approve}.get(
            data["decision"], transfers.decline
        )
        return Response(transfer_payload(act(transfer=found, by=request.user)))


@extend_schema_view(
    get=operation(
        QuestionOut(many=True),
        summary="Rule questions you may read (yours; all for a host)",
        errors=READ_ERRORS,
    ),
    post=operation(
        QuestionOut, request=AskInput, status=201, summary="Ask the hosts a rule question"
    ),
)
class QuestionsView(TournamentAPIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, slug: str) -> Response:
        rows = questions.visible_to(_tournament(request, slug), request.user).order_by("pk")
        return Response([question_payload(q) for q in rows])

    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        data = valid(AskInput, request.data)
        asked = questions.ask(
            tournament=tournament,
            by=request.user,
            entrant=selectors.my_entrant(tournament, request.user),
            text=data["text"],
            anonymous=data["anonymous"],
        )
        return Response(question_payload(asked), status=201)


@extend_schema_view(
    post=operation(
        QuestionOut,
        request=AnswerInput,
        summary="Answer a rule question (privately or as a published clarification)",
    )
)
class AnswerView(TournamentAPIView):
    def post(self, request: Request, slug: str, question_id: int) -> Response:
        tournament = _tournament(request, slug)
        data = valid(AnswerInput, request.data)
        found = questions.visible_to(tournament, request.user).filter(pk=question_id).first()
        if found is None:
            raise NotFound(_("no such question in this season"))
        answered = questions.answer(
            question=found, by=request.user, text=data["text"], publish=data["publish"]
        )
        return Response(question_payload(answered))


@extend_schema_view(
    get=operation(
        RulesOut, summary="The season's rules: versions and clarifications", errors=READ_ERRORS
    ),
    post=operation(
        VersionOut, request=RulesInput, status=201, summary="Publish a new rules version"
    ),
)
class RulesView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        versions = tournament.rules_versions.order_by("number")
        return Response(
            {
                "versions": [version_payload(v) for v in versions],
                "clarifications": questions.clarifications(tournament),
            }
        )

    def post(self, request: Request, slug: str) -> Response:
        data = valid(RulesInput, request.data)
        version = questions.rules_edit(
            tournament=_tournament(request, slug),
            by=request.user,
            text=data["text"],
            change=data["change"],
        )
        return Response(version_payload(version), status=201)


@extend_schema_view(
    get=operation(
        HandoutOut(many=True),
        summary="Handouts you may read (yours; all for a host)",
        errors=READ_ERRORS,
    ),
    post=operation(HandoutOut, request=HandoutInput, status=201, summary="Give a handout"),
)
class HandoutsView(TournamentAPIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, slug: str) -> Response:
        rows = handouts.visible_to(_tournament(request, slug), request.user)
        return Response([handout_payload(h) for h in rows])

    def post(self, request: Request, slug: str) -> Response:
        data = valid(HandoutInput, request.data)
        given = handouts.give(tournament=_tournament(request, slug), by=request.user, **data)
        return Response(handout_payload(given), status=201)


@extend_schema_view(
    get=operation(
        ConfessionalOut(many=True),
        summary="Confessional entries you may read (yours; all for a host or after the season)",
        errors=READ_ERRORS,
    ),
    post=operation(
        ConfessionalOut,
        request=ConfessionalInput,
        status=201,
        summary="Write a confessional entry",
    ),
)
class ConfessionalsView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        rows = confessionals.visible_to(_tournament(request, slug), request.user)
        return Response([confessional_payload(c) for c in rows])

    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        data = valid(ConfessionalInput, request.data)
        entry = confessionals.write(
            tournament=tournament,
            by=request.user,
            entrant=selectors.my_entrant(tournament, request.user),
            text=data["text"],
        )
        return Response(confessional_payload(entry), status=201)


@extend_schema_view(
    get=operation(
        LoungeOut, summary="The viewing lounge (eliminated players and hosts)", errors=READ_ERRORS
    )
)
class LoungeView(TournamentAPIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, slug: str) -> Response:
        shown = confessionals.lounge(_tournament(request, slug), request.user)
        return Response(
            {
                "season_over": shown["season_over"],
                "eliminated": [e.pk for e in shown["eliminated"]],
                "answers": [
                    {"episode": a.episode.number, "entrant": a.entrant_id, "text": a.text}
                    for a in shown["answers"]
                ],
                "handouts": [handout_payload(h) for h in shown["handouts"]],
                "confessionals": [confessional_payload(c) for c in shown["confessionals"]],
            }
        )


class ActivityCheckOut(serializers.Serializer):
    id = serializers.IntegerField()
    episode = serializers.IntegerField()
    cutoff = serializers.DateTimeField()
    policy = Text()
    status = Text()
    checked_in = serializers.ListField(child=serializers.IntegerField())
    outcome = serializers.DictField(child=Text())


def activity_payload(check: ActivityCheck) -> dict[str, Any]:
    return {
        "id": check.pk,
        "episode": check.episode,
        "cutoff": check.cutoff,
        "policy": check.policy,
        "status": check.status,
        "checked_in": sorted(check.check_ins.values_list("entrant_id", flat=True)),
        "outcome": check.outcome,
    }


class ActivityInput(serializers.Serializer):
    cutoff = serializers.DateTimeField()


@extend_schema_view(
    get=operation(
        ActivityCheckOut(many=True), summary="The season's activity checks", errors=READ_ERRORS
    ),
    post=operation(
        ActivityCheckOut,
        request=ActivityInput,
        status=201,
        summary="Open an activity check with its cut-off",
    ),
)
class ActivityChecksView(TournamentAPIView):
    def get(self, request: Request, slug: str) -> Response:
        checks = _tournament(request, slug).activity_checks.order_by("pk")
        return Response([activity_payload(c) for c in checks])

    def post(self, request: Request, slug: str) -> Response:
        data = valid(ActivityInput, request.data)
        opened = activity.open_check(
            tournament=_tournament(request, slug), by=request.user, cutoff=data["cutoff"]
        )
        return Response(activity_payload(opened), status=201)


@extend_schema_view(
    post=operation(
        ActivityCheckOut, request=None, summary="Check in for an activity check", status=200
    )
)
class ActivityCheckInView(TournamentAPIView):
    def post(self, request: Request, slug: str, check_id: int) -> Response:
        tournament = _tournament(request, slug)
        check = tournament.activity_checks.filter(pk=check_id).first()
        if check is None:
            raise NotFound(_("no such activity check in this season"))
        activity.check_in(
            check=check, by=request.user, entrant=selectors.my_entrant(tournament, request.user)
        )
        return Response(activity_payload(check))
