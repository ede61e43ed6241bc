"""The rooms' JSON API: parse, call one rooms service, answer the room as the asker
sees it. Browsers hold their guest identity in the session; a signed-in user writes with CSRF.
Each view carries its OpenAPI description; ``RoomOut`` describes the room it answers.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_view
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engines.color_clash import config as clash_config
from games.models import Room
from games.rooms import choices
from games.rooms import services as rooms
from hosting.core.bearer import enforce_csrf
from hosting.core.errors import NotFound
from hosting.core.identity import guest_for
from hosting.core.openapi import READ_ERRORS, THROTTLED, json_object, operation
from hosting.core.throttles import Limit, count_failure, failures_wait
from hosting.core.validation import Text, Url, valid

WRONG_CODE_SCOPE = "room_code"


class RoomCreateLimit(Limit):
    scope = "room_create"


class RoomJoinLimit(Limit):
    scope = "room_join"


class QuickLimit(Limit):
    scope = "quick"


TURN_SECONDS = {
    choices.COLOR_CLASH: clash_config.TURN_SECONDS,
    choices.DROPMIX: choices.DROPMIX_TURN_SECONDS,
}


class RoomInput(serializers.Serializer):
    engine = serializers.ChoiceField(
        choices=list(choices.GAMES), default=choices.COLOR_CLASH, help_text="the game"
    )
    mode = serializers.ChoiceField(
        choices=clash_config.MODES, default="classic", help_text="Color Clash"
    )
    match = serializers.ChoiceField(
        choices=list(clash_config.MATCHES), required=False, help_text="Color Clash"
    )
    turn_seconds = serializers.IntegerField(
        required=False,
        help_text="Color Clash: 30, 45, 60 or 90; DropMix Clash: 15, 30 or 60",
    )
    format = serializers.ChoiceField(
        choices=list(choices.DROPMIX_FORMATS), required=False, help_text="DropMix Clash"
    )
    target = serializers.ChoiceField(
        choices=choices.DROPMIX_TARGETS, required=False, help_text="DropMix Clash"
    )

    def validate(self, attrs: dict) -> dict:
        allowed = TURN_SECONDS.get(attrs.get("engine", choices.COLOR_CLASH), ())
        seconds = attrs.get("turn_seconds")
        if seconds is not None and seconds not in allowed:
            raise serializers.ValidationError(
                {
                    "turn_seconds": _("turn_seconds must be one of %(allowed)s for this game")
                    % {"allowed": ", ".join(map(str, allowed)) or _("none (its own clocks)")}
                }
            )
        return attrs


class PracticeInput(RoomInput):
    computers = serializers.IntegerField(
        min_value=1,
        max_value=rooms.MAX_COMPUTERS,
        default=3,
        help_text="Color Clash (Drafting Trios: one; DropMix Clash: as its format needs)",
    )


class SideInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=[0, 1], help_text="DropMix Clash: 0 or 1")


class ReadyInput(serializers.Serializer):
    ready = serializers.BooleanField(default=True)


class RemoveInput(serializers.Serializer):
    member = serializers.IntegerField(min_value=1)


class RoomMemberOut(serializers.Serializer):
    name = Text(help_text="the room name: the account's, a guest's animal name")
    ready = serializers.BooleanField()
    host = serializers.BooleanField()
    you = serializers.BooleanField()
    side = serializers.IntegerField(required=False, help_text="DropMix Clash: 0 or 1")
    id = serializers.IntegerField(required=False, help_text="the host's view only: to remove")


class RoomTotal(serializers.Serializer):
    name = Text()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()


class RoomOut(serializers.Serializer):
    code = Text(help_text="six letters")
    engine = serializers.ChoiceField(choices=list(choices.GAMES), help_text="the game")
    options = json_object("options", "the game's own options (DropMix Clash: format, target)")
    kind = serializers.ChoiceField(choices=["private", "quick", "practice"])
    status = serializers.ChoiceField(choices=["open", "playing", "closed"])
    mode = Text()
    match = Text()
    turn_seconds = serializers.IntegerField()
    computers = serializers.IntegerField()
    players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    member = serializers.BooleanField(help_text="whether you are in the room (else: no names)")
    url = Url(help_text="the share link")
    members = RoomMemberOut(many=True, required=False)
    host = serializers.BooleanField(required=False)
    game = serializers.IntegerField(required=False, allow_null=True, help_text="the current game")
    game_url = Url(required=False)
    rounds = serializers.ListField(child=json_object("round"), required=False)
    totals = RoomTotal(many=True, required=False, help_text="match totals over finished games")


def person_of(request: HttpRequest, *, keep: bool = True) -> rooms.Person:
    """The asker: their account, else this browser's guest, made on first use and kept in
    the session when ``keep`` (a write; a read by a stranger leaves no session behind)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return rooms.Person(user=user)
    return rooms.Person(guest=guest_for(request, keep=keep))


def room_by_code(request: HttpRequest, code: str) -> Room:
    """The room a code names. Wrong codes are counted per client, and once too many were
    tried every lookup is refused for a while, right or wrong, so codes cannot be found
    by trying."""
    wait = failures_wait(request, WRONG_CODE_SCOPE)
    if wait is not None:
        raise exceptions.Throttled(
            wait, detail=_("too many wrong room codes; try again in %(wait)s s") % {"wait": wait}
        )
    room = rooms.find_room(code)
    if room is None or room.status == Room.Status.CLOSED:
        count_failure(request, WRONG_CODE_SCOPE)
        raise NotFound(_("no room has that code"))
    return room


def _writing(request: Request) -> rooms.Person:
    person = person_of(request)
    if person.signed_in:
        enforce_csrf(request)
    return person


def _answer(request: Request, room: Room, person: rooms.Person, status: int = 200) -> Response:
    fresh = rooms.find_room(room.code) or room
    body = rooms.room_payload(fresh, person)
    body["url"] = request.build_absolute_uri(f"/r/{fresh.code}")
    if fresh.game_id:
        body["game_url"] = request.build_absolute_uri(f"/games/{fresh.game_id}/")
    return Response(body, status=status)


@extend_schema_view(
    post=operation(
        RoomOut, request=RoomInput, status=201, errors=THROTTLED, summary="Make a private room"
    )
)
class RoomCreateView(APIView):
    throttle_classes = [RoomCreateLimit]

    def post(self, request: Request) -> Response:
        person = _writing(request)
        data = valid(RoomInput, request.data)
        room = rooms.room_create(person=person, **data)
        return _answer(request, room, person, status=201)


@extend_schema_view(
    get=operation(
        RoomOut,
        summary="A room by its code (wrong codes are throttled)",
        errors=(*READ_ERRORS, 429),
    )
)
class RoomDetailView(APIView):
    def get(self, request: Request, code: str) -> Response:
        person = person_of(request, keep=False)
        room = room_by_code(request, code)
        if person.membership(room) is not None:
            room = rooms.room_seen(room=room, person=person)
        return _answer(request, room, person)


@extend_schema_view(post=operation(RoomOut, errors=THROTTLED, summary="Join a room by its code"))
class RoomJoinView(APIView):
    throttle_classes = [RoomJoinLimit]

    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        rooms.room_join(code=room.code, person=person)
        return _answer(request, room, person)


@extend_schema_view(
    post=operation(RoomOut, request=ReadyInput, errors=THROTTLED, summary="Mark yourself ready")
)
class RoomReadyView(APIView):
    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        rooms.room_ready(code=room.code, person=person, **valid(ReadyInput, request.data))
        return _answer(request, room, person)


@extend_schema_view(
    post=operation(
        RoomOut, request=RemoveInput, errors=THROTTLED, summary="Remove a player (the host)"
    )
)
class RoomRemoveView(APIView):
    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        member = valid(RemoveInput, request.data)["member"]
        rooms.room_remove(code=room.code, person=person, member_id=member)
        return _answer(request, room, person)


@extend_schema_view(
    post=operation(
        RoomOut, request=SideInput, errors=THROTTLED, summary="Choose a side (DropMix Clash)"
    )
)
class RoomSideView(APIView):
    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        side = valid(SideInput, request.data)["side"]
        rooms.room_side(code=room.code, person=person, side=side)
        return _answer(request, room, person)


@extend_schema_view(post=operation(RoomOut, errors=THROTTLED, summary="Leave the room"))
class RoomLeaveView(APIView):
    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        rooms.room_leave(code=room.code, person=person)
        return _answer(request, room, person)


@extend_schema_view(post=operation(RoomOut, errors=THROTTLED, summary="Start a game (the host)"))
class RoomStartView(APIView):
    def post(self, request: Request, code: str) -> Response:
        person = _writing(request)
        room = room_by_code(request, code)
        rooms.room_start(code=room.code, person=person)
        return _answer(request, room, person)


@extend_schema_view(
    post=operation(
        RoomOut,
        request=PracticeInput,
        status=201,
        errors=THROTTLED,
        summary="Practice against computers (Color Clash: 1 to 5)",
    )
)
class PracticeView(APIView):
    throttle_classes = [RoomCreateLimit]

    def post(self, request: Request) -> Response:
        person = _writing(request)
        room = rooms.practice_start(person=person, **valid(PracticeInput, request.data))
        return _answer(request, room, person, status=201)


@extend_schema_view(
    post=operation(RoomOut, status=201, errors=THROTTLED, summary="Join the Quick match queue")
)
class QuickMatchView(APIView):
    throttle_classes = [QuickLimit]

    def post(self, request: Request) -> Response:
        person = _writing(request)
        room = rooms.quick_enter(person=person)
        return _answer(request, room, person, status=201)
