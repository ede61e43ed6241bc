"""``/api/tournaments/<slug>/episodes/<number>/…`` and ``/ledger``: a Genius season's steps,
each the call of one ``tournaments.seasons.services`` service."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from hosting.core.openapi import READ_ERRORS, json_object, operation
from hosting.core.validation import Text, valid
from tournaments import selectors
from tournaments.api import outputs
from tournaments.api.common import TournamentAPIView
from tournaments.api.inputs import (
    CandidatesInput,
    DeathMatchSetupInput,
    LedgerInput,
    MainMatchInput,
    OpponentInput,
    SealedOpenInput,
    SealedSubmitInput,
    TokenInput,
)
from tournaments.models import DeathMatchPick, Episode
from tournaments.payloads import episode_payload, submission_payload
from tournaments.seasons import death_match_picks
from tournaments.seasons import services as seasons


class Submission(serializers.Serializer):
    entrant = serializers.IntegerField()
    name = Text()
    text = Text()
    submitted_at = serializers.DateTimeField()


class Submissions(serializers.Serializer):
    revealed = serializers.BooleanField()
    submissions = Submission(many=True)


class Balances(serializers.Serializer):
    balances = json_object("balances", "each entrant's currency")


def _episode(request: Request, slug: str, number: int) -> Episode:
    return selectors.episode(selectors.visible_tournament(slug, request.user), number)


def _changed(episode: Episode) -> Response:
    episode.refresh_from_db()
    return Response(episode_payload(episode))


@extend_schema_view(
    post=operation(outputs.Episode, request=SealedOpenInput, summary="Open a sealed main match")
)
class SealedOpenView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(SealedOpenInput, request.data)
        seasons.sealed_open(
            episode=episode, by=request.user, prompt=data["prompt"], deadline=data["deadline"]
        )
        return _changed(episode)


@extend_schema_view(
    post=operation(
        Submission, request=SealedSubmitInput, status=201, summary="Submit a sealed answer"
    )
)
class SealedSubmitView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        episode = selectors.episode(tournament, number)
        entrant = selectors.my_entrant(tournament, request.user)
        data = valid(SealedSubmitInput, request.data)
        submission = seasons.sealed_submit(
            episode=episode, entrant=entrant, by=request.user, text=data["text"]
        )
        return Response(submission_payload(submission), status=201)


@extend_schema_view(
    get=operation(
        Submissions, summary="Sealed answers (yours until the reveal)", errors=READ_ERRORS
    )
)
class SubmissionsView(TournamentAPIView):
    """Sealed answers: before the reveal each player sees only their own (the host included:
    nobody reads an answer early); after it, everyone sees them all."""

    def get(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        submissions = episode.submissions.select_related("entrant")
        if not episode.mm_revealed and request.user.is_authenticated:
            submissions = submissions.filter(entrant__user=request.user)
        elif not episode.mm_revealed:
            submissions = submissions.none()
        return Response(
            {
                "revealed": episode.mm_revealed,
                "submissions": [submission_payload(s) for s in submissions],
            }
        )


@extend_schema_view(post=operation(Submissions, summary="Reveal the sealed answers"))
class SealedRevealView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        revealed = seasons.sealed_reveal(episode=episode, by=request.user)
        return Response(
            {"revealed": True, "submissions": [submission_payload(s) for s in revealed]}
        )


@extend_schema_view(
    post=operation(outputs.Episode, request=MainMatchInput, summary="Main match: result or game")
)
class MainMatchView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(MainMatchInput, request.data)
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
        return _changed(episode)


@extend_schema_view(
    post=operation(
        outputs.Episode,
        request=DeathMatchSetupInput,
        summary="Set the Death Match's game, time control and DMO-pick deadline",
    )
)
class DeathMatchSetupView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(DeathMatchSetupInput, request.data)
        seasons.death_match_setup(episode=episode, by=request.user, **data)
        return _changed(episode)


@extend_schema_view(
    post=operation(
        outputs.Episode, request=CandidatesInput, summary="Choose elimination candidates"
    )
)
class CandidatesView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(CandidatesInput, request.data)
        seasons.candidates_choose(episode=episode, by=request.user, chosen=data["chosen"])
        return _changed(episode)


@extend_schema_view(post=operation(outputs.Episode, request=TokenInput, summary="Give a token"))
class TokenView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(TokenInput, request.data)
        seasons.token_give(
            episode=episode, by=request.user, giver=data["giver"], receiver=data["receiver"]
        )
        return _changed(episode)


@extend_schema_view(
    post=operation(
        outputs.Episode, request=OpponentInput, summary="Choose the Death Match opponent"
    )
)
class OpponentView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(OpponentInput, request.data)
        seasons.opponent_choose(episode=episode, by=request.user, ec=data["ec"], dmo=data["dmo"])
        return _changed(episode)


@extend_schema_view(
    post=operation(
        Balances, request=LedgerInput, status=201, summary="Record a season ledger entry"
    )
)
class LedgerView(TournamentAPIView):
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        data = valid(LedgerInput, request.data)
        # Ledger rows point at entrants: ids from another tournament are refused here.
        entrant = selectors.entrant(tournament, data["entrant"])
        to = None if data.get("to") is None else selectors.entrant(tournament, data["to"])
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


class DeathMatchPickInput(serializers.Serializer):
    chosen_by = serializers.ChoiceField(
        choices=DeathMatchPick.Mode.choices, help_text="lottery, or bans by the EC and DMO"
    )
    pool = serializers.ListField(child=Text(max_length=40), min_length=2, max_length=20)
    step_seconds = serializers.IntegerField(required=False, default=300, min_value=10)


class BanInput(serializers.Serializer):
    game = Text(max_length=40)
    entrant = serializers.IntegerField(
        required=False, min_value=1, help_text="For a host banning for a player"
    )


class AdvantageInput(serializers.Serializer):
    entrant = serializers.IntegerField(allow_null=True, min_value=1)


@extend_schema_view(
    post=operation(
        outputs.Episode,
        request=DeathMatchPickInput,
        summary="Choose the DM game by lottery or by bans from a pool",
    )
)
class DeathMatchPickView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        episode = _episode(request, slug, number)
        data = valid(DeathMatchPickInput, request.data)
        death_match_picks.pick_open(
            episode=episode,
            by=request.user,
            mode=data["chosen_by"],
            pool=data["pool"],
            step_seconds=data["step_seconds"],
        )
        return _changed(episode)


@extend_schema_view(
    post=operation(outputs.Episode, request=BanInput, summary="Ban a game from the DM pool")
)
class DeathMatchBanView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        episode = selectors.episode(tournament, number)
        data = valid(BanInput, request.data)
        entrant = (
            selectors.entrant(tournament, data["entrant"])
            if "entrant" in data
            else selectors.my_entrant(tournament, request.user)
        )
        death_match_picks.ban(
            episode=episode, by=request.user, entrant=entrant.pk, game=data["game"]
        )
        return _changed(episode)


@extend_schema_view(
    post=operation(
        outputs.Episode, request=AdvantageInput, summary="Give the DM Advantage (first seat)"
    )
)
class DeathMatchAdvantageView(TournamentAPIView):
    def post(self, request: Request, slug: str, number: int) -> Response:
        tournament = selectors.visible_tournament(slug, request.user)
        episode = selectors.episode(tournament, number)
        data = valid(AdvantageInput, request.data)
        holder = None if data["entrant"] is None else selectors.entrant(tournament, data["entrant"])
        death_match_picks.advantage_give(
            episode=episode, by=request.user, entrant=holder.pk if holder else None
        )
        return _changed(episode)
