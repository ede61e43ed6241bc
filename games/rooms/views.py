"""The casual pages: ``/play/`` (make a room, practise, Quick match) and ``/r/<code>`` (join,
the lobby, then into the game). Forms post to the ``games.rooms.services`` services and come back;
the lobby refreshes itself by polling its own fragment (``games/static/games/rooms.js``)."""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST
from rest_framework import exceptions

from games.engines.color_clash import config as clash_config
from games.models import GameSession, Room, Seat
from games.rooms import codes as room_codes
from games.rooms import services as rooms
from games.rooms.api import person_of, room_by_code
from hosting.core.errors import UserError
from hosting.core.throttles import limit_posts, throttled_response

MODES = {"classic": gettext_lazy("Classic"), "family": gettext_lazy("Family night")}
MATCHES = {
    "to_500": gettext_lazy("First to 500 points"),
    "three_rounds": gettext_lazy("Three rounds"),
    "five_rounds": gettext_lazy("Five rounds"),
    "one_round": gettext_lazy("One round"),
}


def _choices() -> dict[str, Any]:
    return {
        "modes": list(MODES.items()),
        "matches": list(MATCHES.items()),
        "turn_choices": clash_config.TURN_SECONDS,
        "computer_choices": range(1, rooms.MAX_COMPUTERS + 1),
    }


@ensure_csrf_cookie
@limit_posts("room_create")
def play(request: HttpRequest) -> HttpResponse:
    """``/play/``: the three ways to play; posting makes a private room."""
    if request.method == "POST":
        try:
            room = rooms.room_create(
                person=person_of(request),
                mode=request.POST.get("mode", "classic"),
                match=request.POST.get("match") or None,
                turn_seconds=request.POST.get("turn_seconds") or None,
            )
        except UserError as error:
            messages.error(request, error.message)
            return redirect("play")
        return redirect("room-page", code=room.code)
    typed = request.GET.get("code", "")
    if typed:
        code = room_codes.normalise(typed)
        if code is not None:
            return redirect("room-page", code=code)
        messages.error(request, _("A room code is six letters, like KFXRTM."))
    return render(request, "rooms/play.html", _choices())


@require_POST
@limit_posts("room_create")
def practice(request: HttpRequest) -> HttpResponse:
    """Start a practice game against computers and go to its table."""
    try:
        room = rooms.practice_start(
            person=person_of(request),
            computers=request.POST.get("computers", 3),
            mode=request.POST.get("mode", "classic"),
            turn_seconds=request.POST.get("turn_seconds") or None,
        )
    except UserError as error:
        messages.error(request, error.message)
        return redirect("play")
    return redirect("game-page", game_id=room.game_id)


@ensure_csrf_cookie
@limit_posts("quick")
def quick(request: HttpRequest) -> HttpResponse:
    """``/play/quick``: join the queue (POST) and wait in the table's lobby."""
    if request.method == "POST":
        room = rooms.quick_enter(person=person_of(request))
        if room.status == Room.Status.PLAYING:
            return redirect("game-page", game_id=room.game_id)
        return redirect("room-page", code=room.code)
    return render(request, "rooms/quick.html", {})


def _lookup(request: HttpRequest, code: str) -> Room | HttpResponse:
    try:
        return room_by_code(request, code)
    except exceptions.Throttled as refusal:
        return throttled_page(request, int(refusal.wait or 60))
    except UserError:
        return render(request, "rooms/missing.html", {"code": code}, status=404)


def throttled_page(request: HttpRequest, wait: int) -> HttpResponse:
    if request.headers.get("Accept", "").startswith("application/json"):
        return throttled_response(wait)
    response = render(request, "rooms/throttled.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _context(request: HttpRequest, room: Room, person: rooms.Person) -> dict[str, Any]:
    payload = rooms.room_payload(room, person)
    link = request.build_absolute_uri(reverse("room-page", args=[room.code]))
    playing = room.status == Room.Status.PLAYING and room.game is not None
    return {
        "room": room,
        "room_data": payload,
        "mode_name": MODES.get(room.mode, room.mode),
        "match_name": MATCHES.get(room.match, room.match),
        "share_url": link,
        # The link as a QR code, drawn by the server: no script, no third party.
        "qr_svg": segno.make(link, error="m").svg_inline(scale=5, title=_("QR code of the link"))
        if room.kind == Room.Kind.PRIVATE
        else "",
        "game_url": reverse("game-page", args=[room.game_id]) if playing else "",
        "previous": [r for r in payload.get("rounds", []) if r["over"]],
    }


@ensure_csrf_cookie
def room_page(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>``: a member's lobby (or their game, while it runs: the same seat back);
    anyone else may join an open private room here."""
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    person = person_of(request, keep=False)
    member = person.membership(found)
    room = rooms.room_seen(room=found, person=person) if member is not None else found
    if member is not None and room.status == Room.Status.PLAYING and room.game_id:
        return redirect("game-page", game_id=room.game_id)  # back to the same seat
    context = _context(request, room, person)
    status = 200
    if member is None:
        full = room.members.count() >= rooms.MAX_PLAYERS
        closed = room.kind != Room.Kind.PRIVATE
        context["refusal"] = (
            _("This table is not open to others.")
            if closed
            else _("This room's game has already started; wait for the next round.")
            if room.status == Room.Status.PLAYING
            else _("This room is full: six players is the most.")
            if full
            else ""
        )
        status = 409 if context["refusal"] else 200
    return render(request, "rooms/room.html", context, status=status)


def room_lobby(request: HttpRequest, code: str) -> HttpResponse:
    """The lobby's fragment, which the page polls; it names the game once it has started."""
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    person = person_of(request, keep=False)
    if person.membership(found) is None:
        return HttpResponse(status=204)
    room = rooms.room_seen(room=found, person=person)
    return render(request, "rooms/_lobby.html", _context(request, room, person))


def room_presence(request: HttpRequest, code: str) -> HttpResponse:
    """``/r/<code>/presence``: the seats of the room's running game whose person is away and
    has not been replaced yet (their 90 s are running), for the game page's "reconnecting…"
    marks; polled, since a stream's close makes no new version of the game."""
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    away: list[int] = []
    if found.status == Room.Status.PLAYING and found.game_id:
        seats = Seat.objects.filter(
            game_id=found.game_id,
            game__status=GameSession.Status.RUNNING,
            kind=Seat.Kind.HUMAN,
            connected=False,
            disconnected_at__isnull=False,
        )
        away = sorted(seats.values_list("number", flat=True))
    return JsonResponse({"game": found.game_id, "reconnecting": away})


STEPS = {"join", "ready", "unready", "remove", "leave", "start"}


@require_POST
def room_step(request: HttpRequest, code: str, step: str) -> HttpResponse:
    """One lobby form: join, ready, unready, remove a player, leave, start."""
    if step not in STEPS:
        return render(request, "rooms/missing.html", {"code": code}, status=404)
    if step == "join":
        return _join(request, code)
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    person = person_of(request)
    try:
        if step in ("ready", "unready"):
            rooms.room_ready(code=found.code, person=person, ready=step == "ready")
        elif step == "remove":
            rooms.room_remove(code=found.code, person=person, member_id=request.POST.get("member"))
        elif step == "leave":
            rooms.room_leave(code=found.code, person=person)
            return redirect("play")
        else:
            game = rooms.room_start(code=found.code, person=person)
            return redirect("game-page", game_id=game.pk)
    except UserError as error:
        messages.error(request, error.message)
    return redirect("room-page", code=found.code)


@limit_posts("room_join")
def _join(request: HttpRequest, code: str) -> HttpResponse:
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    try:
        rooms.room_join(code=found.code, person=person_of(request))
    except UserError as error:
        messages.error(request, error.message)
    return redirect("room-page", code=found.code)
