"""The games HTTP API: parse, call one service, render. Errors are mapped by hosting.core.errors.

Each view carries its OpenAPI description (``operation``), its bodies in ``games.serializers``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import fairness, invites, services, store
from games import serializers as bodies
from games.access import seat_for, seat_key
from games.models import GameSession, Seat
from games.payloads import audience_key, game_payload, log_payload
from games.public_log import history
from games.verification import verify_game
from hosting.core.bearer import enforce_csrf
from hosting.core.errors import Conflict, Forbidden, NotFound
from hosting.core.identity import guest_for, remember_guest
from hosting.core.openapi import READ_ERRORS, THROTTLED, operation
from hosting.core.roles import is_organiser
from hosting.core.throttles import CreateLimit, Limit
from hosting.core.validation import Text, valid

MAX_GRACE_SECONDS = 7 * 24 * 3600  # a week: any longer is an abandoned seat
MAX_ACTION_BYTES = 16 * 1024  # the largest legal action is a few hundred bytes


class SeatInput(serializers.Serializer):
    # A substitute is what a seat becomes when its person leaves, not a seat one creates.
    kind = serializers.ChoiceField(
        choices=[Seat.Kind.HUMAN, Seat.Kind.COMPUTER], default=Seat.Kind.HUMAN
    )
    bot = Text(required=False, default="", allow_blank=True, max_length=40)
    role = Text(required=False, default="", allow_blank=True, max_length=20)
    name = Text(required=False, default="", allow_blank=True, max_length=80)
    # The account the seat is reserved for: nobody else may take it.
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.filter(is_active=True),
        required=False,
        default=None,
    )


class GameCreateInput(serializers.Serializer):
    engine = Text(max_length=40)
    config = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    seats = SeatInput(many=True)
    grace_seconds = serializers.IntegerField(
        required=False, default=90, min_value=0, max_value=MAX_GRACE_SECONDS
    )


class ClaimLimit(Limit):
    scope = "claim"

    def account(self, request: Request) -> str | None:
        key = seat_key(request)  # the user, or the guest this browser already is
        return None if key is None else f"{key.column}:{key.value}"


class ActionLimit(ClaimLimit):
    scope = "action"  # the account is the seat's credential: token, user or guest


def _action_input(data: Any) -> tuple[Any, str | None, int | None]:
    """``POST /actions``' body: (action, client_action_id, expected_version). Checked by hand
    rather than by a serializer (whose per-request field copies cost the busiest endpoint
    0.3 ms); errors have the serializers' shape. The action itself is checked by ``act``."""
    if not isinstance(data, dict):
        raise serializers.ValidationError({"non_field_errors": ["Expected a JSON object."]})
    errors: dict[str, list[str]] = {}
    if "action" not in data:
        errors["action"] = ["This field is required."]
    client_action_id = data.get("client_action_id")
    if client_action_id is not None and (
        not isinstance(client_action_id, str) or not 1 <= len(client_action_id) <= 64
    ):
        errors["client_action_id"] = ["A string of 1 to 64 characters."]
    expected_version = data.get("expected_version")
    if expected_version is not None and (type(expected_version) is not int or expected_version < 0):
        errors["expected_version"] = ["A whole number, 0 or more."]
    if errors:
        raise serializers.ValidationError(errors)
    return data["action"], client_action_id, expected_version


def _keeps_session(data: Any) -> bool:
    """A claim's optional ``{"credential": "session" | "token"}``: with "token" (bots) a
    guest's identity is not stored in a session, which would be a database row per claim
    that the bot never sends back; the seat token is its only credential."""
    credential = data.get("credential", "session") if isinstance(data, dict) else "session"
    if credential not in ("session", "token"):
        raise serializers.ValidationError({"credential": ['Either "session" or "token".']})
    return credential == "session"


def _invite(data: Any) -> str | None:
    """A claim's ``{"invite": "<secret>"}``, the game's invite (see games.invites)."""
    invite = data.get("invite") if isinstance(data, dict) else None
    if invite is not None and not isinstance(invite, str):
        raise serializers.ValidationError({"invite": ["The invite is a string."]})
    return invite


def _client_seed(data: Any) -> str | None:
    """A claim's optional ``{"client_seed": "<1 to 64 of A-Za-z0-9-_.:+/=>"}`` (games.fairness)."""
    seed = data.get("client_seed") if isinstance(data, dict) else None
    if seed is not None:
        try:
            fairness.check_client_seed(seed)
        except fairness.ClientSeedError as error:
            raise serializers.ValidationError({"client_seed": [str(error)]}) from None
    return seed


def _game(game_id: int) -> GameSession:
    game = store.game(game_id)
    if game is None:
        raise NotFound(_("no game %(id)s") % {"id": game_id})
    return game


def _fresh_game(game_id: int) -> GameSession:
    """Reads apply any overdue timeout first, so nobody sees a clock past its deadline."""
    game = services.fresh_game(game_id=game_id)
    if game is None:
        raise NotFound(_("no game %(id)s") % {"id": game_id})
    return game


class GameAPIView(APIView):
    # The OpenAPI document lists the seat token among the credentials (hosting.core.openapi).
    accepts_seat_token = True


def _my_seat(request: Request, game: GameSession, *, writing: bool) -> Seat:
    seat, by_token = seat_for(request, game)
    if seat is None:
        raise Forbidden(_("you hold no seat in this game"))
    if writing and not by_token:
        enforce_csrf(request)
    return seat


@extend_schema_view(
    post=operation(
        bodies.Game,
        request=GameCreateInput,
        status=201,
        errors=(*THROTTLED, 413),
        summary="Create a game (organisers)",
    )
)
class GameCreateView(GameAPIView):
    throttle_classes = [CreateLimit]

    def post(self, request: Request) -> Response:
        if not is_organiser(request.user):
            raise Forbidden(_("only organisers can create games"))
        data = valid(GameCreateInput, request.data)
        specs = [
            services.SeatSpec(
                kind=s["kind"], bot=s["bot"], role=s["role"], display_name=s["name"], user=s["user"]
            )
            for s in data["seats"]
        ]
        game = services.game_create(
            engine_key=data["engine"],
            seats=specs,
            config=data["config"],
            time_control=data["time_control"],
            created_by=request.user,
            grace_seconds=data["grace_seconds"],
        )
        body = {**game_payload(game, None, services.now()), **invites.invite_fields(request, game)}
        return Response(body, status=201)


@extend_schema_view(
    get=operation(bodies.Game, summary="A game as your seat sees it", errors=READ_ERRORS)
)
class GameDetailView(GameAPIView):
    def get(self, request: Request, game_id: int) -> Response:
        game = _fresh_game(game_id)
        seat, _how = seat_for(request, game)
        body = game_payload(game, seat, services.now())
        if request.user.is_authenticated and request.user.pk == game.created_by_id:
            body.update(invites.invite_fields(request, game))  # the creator may share it again
        return Response(body)


@extend_schema_view(
    post=operation(
        bodies.Claim,
        request=bodies.ClaimInput,
        status=201,
        errors=THROTTLED,
        summary="Claim a seat",
    )
)
class SeatClaimView(GameAPIView):
    throttle_classes = [ClaimLimit]

    def post(self, request: Request, game_id: int, number: int) -> Response:
        user = request.user if request.user.is_authenticated else None
        keep = _keeps_session(request.data)
        # A guest's identity goes into the session only once the claim succeeds: a refused
        # claim leaves no session row behind.
        guest = None if user else guest_for(request, keep=False)
        if user:
            enforce_csrf(request)
        invite = _invite(request.data)
        client_seed = _client_seed(request.data)
        claim = services.seat_claim(
            game_id=game_id,
            number=number,
            user=user,
            guest=guest,
            invite=invite,
            client_seed=client_seed,
        )
        if keep:
            if guest is not None:
                remember_guest(request, guest)
            # The browser's next moves are session writes: they need the CSRF cookie.
            get_token(request)
        body = {
            "seat": claim.seat.number,
            "token": claim.token,
            "state": game_payload(claim.game, claim.seat, 0, claim.seats),
        }
        return Response(body, status=201)


@extend_schema_view(
    post=operation(
        bodies.Game,
        summary="Deal and start the clocks",
        description="For the game's creator, the organisers of its tournament or a staff "
        "admin (else 403). 409 `seed_window`: a tournament game waits for its players' "
        "client seeds and deals itself.",
    )
)
class GameStartView(GameAPIView):
    def post(self, request: Request, game_id: int) -> Response:
        game = services.game_start(game_id=game_id, by=request.user)
        seats = store.seats_of(game_id)
        seat, _how = seat_for(request, game, seats)
        return Response(game_payload(game, seat, services.now(), seats))


@extend_schema_view(
    post=operation(
        bodies.Game,
        request=bodies.ClientSeedInput,
        errors=THROTTLED,
        summary="Send your seat's client seed (before the start)",
        description="For a seat you already hold, e.g. a tournament's: in a seed window the "
        "last seed awaited deals at once. After the start: 409 `deal_fixed`.",
    )
)
class ClientSeedView(GameAPIView):
    """A seat's client seed, sent by the player who holds it (a tournament's reserved seat)
    without claiming it again; before the start only (then 409 ``deal_fixed``)."""

    throttle_classes = [ClaimLimit]

    def post(self, request: Request, game_id: int) -> Response:
        key = seat_key(request)
        if key is None:
            _game(game_id)  # an unknown game is a 404 rather than "no seat"
            raise Forbidden(_("you hold no seat in this game"))
        if not key.by_token:
            enforce_csrf(request)
        client_seed = _client_seed(request.data)
        if client_seed is None:
            raise serializers.ValidationError({"client_seed": ["This field is required."]})
        game, seat = services.client_seed_send(game_id=game_id, seat=key, client_seed=client_seed)
        return Response(game_payload(game, seat, services.now()))


@extend_schema_view(
    post=operation(
        bodies.ActionResult,
        request=bodies.ActionInput,
        errors=(*THROTTLED, 413),
        summary="Act in your seat",
    )
)
class GameActionView(GameAPIView):
    throttle_classes = [ActionLimit]
    max_body_bytes = MAX_ACTION_BYTES  # hosting.core.parsers: a larger body is a 413

    def post(self, request: Request, game_id: int) -> HttpResponse:
        # The seat is found among those the move locks: no query of its own.
        key = seat_key(request)
        if key is None:
            _game(game_id)  # an unknown game is a 404 rather than "no seat"
            raise Forbidden(_("you hold no seat in this game"))
        if not key.by_token:
            enforce_csrf(request)
        action, client_action_id, expected_version = _action_input(request.data)
        result = services.act(
            game_id=game_id,
            seat=key,
            action=action,
            client_action_id=client_action_id,
            expected_version=expected_version,
        )
        # The payload the commit rendered for the seat's stream: not rendered twice.
        state = result.payloads[audience_key(result.seat)]
        repeated = "true" if result.repeated else "false"
        body = f'{{"version":{result.version},"repeated":{repeated},"state":{state}}}'
        return HttpResponse(body, content_type="application/json")


@extend_schema_view(
    post=operation(bodies.SeatToken, summary="A fresh bot token for the seat you hold")
)
class SeatTokenView(GameAPIView):
    """A bot's credential for a seat held through the browser session (tournament players)."""

    def post(self, request: Request, game_id: int) -> Response:
        seat = _my_seat(request, _game(game_id), writing=True)
        return Response({"seat": seat.number, "token": services.seat_token_issue(seat=seat)})


@extend_schema_view(post=operation(bodies.Game, summary="Leave; a substitute takes over"))
class SeatLeaveView(GameAPIView):
    def post(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        seat = _my_seat(request, game, writing=True)
        if not game.is_running:
            raise Conflict(_("only a running game can be left"))
        services.seat_leave(game_id=game_id, seat=seat.number)
        return Response(game_payload(_game(game_id), None, services.now()))


@extend_schema_view(
    get=operation(bodies.Legal, summary="Your legal actions now", errors=READ_ERRORS)
)
class LegalActionsView(GameAPIView):
    def get(self, request: Request, game_id: int) -> Response:
        game = _fresh_game(game_id)
        seat = _my_seat(request, game, writing=False)
        actions = services.legal_actions(game, seat.number)
        return Response({"seat": seat.number, "version": game.version, "actions": actions})


@extend_schema_view(
    get=operation(
        bodies.GameLog,
        summary="The full log and seed, once ended",
        errors=(*READ_ERRORS, 409),
    )
)
class GameLogView(GameAPIView):
    def get(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        if not game.is_over:
            raise Conflict(_("the full log is public once the game has ended"))
        return Response(log_payload(game))


@extend_schema_view(
    get=operation(
        bodies.PublicLog,
        summary="What anyone may read of every move so far",
        errors=READ_ERRORS,
    )
)
class PublicLogView(GameAPIView):
    """What anyone may read of every action so far, while the game runs and after."""

    def get(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        return Response({"game": game.pk, "version": game.version, "log": history(game)})


@extend_schema_view(
    get=operation(
        bodies.Verification,
        summary="Replay and check an ended game",
        errors=(*READ_ERRORS, 409),
    )
)
class GameVerifyView(GameAPIView):
    def get(self, request: Request, game_id: int) -> Response:
        return Response(verify_game(_game(game_id)))
