"""The casual pages: ``/play/`` (the three games, each with its ways in: make a room, practise
against the computer, Color Clash's Quick match; ``?game=<key>`` puts that game first) and
``/r/<code>`` (join, the lobby, DropMix's sides, then into the game). Forms post to the
``games.rooms.services`` services and come back; the lobby refreshes itself by polling its own
fragment (``games/static/games/rooms.js``)."""

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
from games.rooms import choices
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


# What each game is, in one line, on /play/ and in its rooms.
GAME_LINES = {
    choices.COLOR_CLASH: gettext_lazy(
        "Match a card by colour or by number and be first to empty your hand: 2 to 6 players."
    ),
    choices.DRAFTING_TRIOS: gettext_lazy(
        "Draft cards in secret, then score trios in your categories: a duel of two."
    ),
    choices.DROPMIX: gettext_lazy(
        "Drop music cards on the board to build the mix and score first: 1v1, 1v2 or 2v2."
    ),
}
DROPMIX_FORMATS = {
    "1v1": gettext_lazy("1 against 1"),
    "1v2": gettext_lazy("1 against 2"),
    "2v2": gettext_lazy("2 against 2"),
}
DROPMIX_PRACTICE = {
    "1v1": gettext_lazy("You against 1 computer"),
    "1v2": gettext_lazy("You against 2 computers"),
    "2v2": gettext_lazy("You and a computer against 2 computers"),
}


def _choices(selected: str) -> dict[str, Any]:
    order = sorted(choices.GAMES, key=lambda key: key != selected)
    return {
        "games": [
            {
                "key": key,
                "name": choices.GAMES[key],
                "line": GAME_LINES[key],
                "selected": key == selected,
            }
            for key in order
        ],
        "modes": list(MODES.items()),
        "matches": list(MATCHES.items()),
        "turn_choices": clash_config.TURN_SECONDS,
        "computer_choices": range(1, rooms.MAX_COMPUTERS + 1),
        "dropmix_formats": list(DROPMIX_FORMATS.items()),
        "dropmix_practice": list(DROPMIX_PRACTICE.items()),
        "dropmix_targets": choices.DROPMIX_TARGETS,
        "dropmix_turns": choices.DROPMIX_TURN_SECONDS,
    }


def _back_to_play(request: HttpRequest) -> HttpResponse:
    """Back to /play/ after a refusal, with the game the form was for still first."""
    game = request.POST.get("game", "")
    if game in choices.GAMES:
        return redirect(f"{reverse('play')}?game={game}")
    return redirect("play")


def _options(request: HttpRequest) -> dict[str, Any]:
    """A /play/ form's choices, as the rooms services take them."""
    names = ("mode", "match", "turn_seconds", "format", "target", "computers")
    return {name: request.POST[name] for name in names if request.POST.get(name)}


@ensure_csrf_cookie
@limit_posts("room_create")
def play(request: HttpRequest) -> HttpResponse:
    """``/play/``: the three games and their ways in; posting makes a private room."""
    if request.method == "POST":
        try:
            room = rooms.room_create(
                person=person_of(request), engine=request.POST.get("game"), **_options(request)
            )
        except UserError as error:
            messages.error(request, sentence(error.message))
            return _back_to_play(request)
        return redirect("room-page", code=room.code)
    typed = request.GET.get("code", "")
    if typed:
        code = room_codes.normalise(typed)
        if code is not None:
            return redirect("room-page", code=code)
        if room_codes.refusal(typed) == "letters":
            messages.error(
                request,
                _("Room codes use only these letters: %(letters)s. Check the code with the host.")
                % {"letters": " ".join(room_codes.ALPHABET)},
            )
        else:
            messages.error(request, _("A room code is six letters, like KFXRTM."))
    selected = request.GET.get("game", "")
    return render(
        request,
        "rooms/play.html",
        _choices(selected if selected in choices.GAMES else choices.COLOR_CLASH),
    )


@require_POST
@limit_posts("room_create")
def practice(request: HttpRequest) -> HttpResponse:
    """Start a practice game against computers and go to its table."""
    try:
        room = rooms.practice_start(
            person=person_of(request), engine=request.POST.get("game"), **_options(request)
        )
    except UserError as error:
        messages.error(request, sentence(error.message))
        return _back_to_play(request)
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


def _settings_line(room: Room) -> str:
    """The room's choices in one line, as its lobby and join page show them."""
    if room.engine == choices.DROPMIX:
        return _("%(format)s · to %(target)s points · %(seconds)s s turns") % {
            "format": DROPMIX_FORMATS.get(room.options.get("format"), ""),
            "target": room.options.get("target"),
            "seconds": room.turn_seconds,
        }
    if room.engine == choices.DRAFTING_TRIOS:
        return _("A Death Match of two: 60 s a drafting step, 90 s a playing phase")
    return _("%(mode)s · %(match)s · %(seconds)s s turns") % {
        "mode": MODES.get(room.mode, room.mode),
        "match": MATCHES.get(room.match, room.match),
        "seconds": room.turn_seconds,
    }


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
    members = payload.get("members", [])
    sides = []
    if room.engine == choices.DROPMIX:
        sizes = choices.side_sizes(room)
        sides = [
            {
                "number": side,
                "size": sizes[side],
                "members": [m for m in members if m.get("side") == side],
                "mine": any(m["you"] and m.get("side") == side for m in members),
            }
            for side in (0, 1)
        ]
        for side in sides:
            side["free"] = side["size"] - len(side["members"])
            side["free_places"] = range(side["free"])
    return {
        "room": room,
        "room_data": payload,
        "game_name": choices.GAMES.get(room.engine, room.engine),
        "settings_line": _settings_line(room),
        "sides": sides,
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
    if member is None and rooms.was_removed(room, person):
        context["removed"] = True
    if member is None:
        full = room.members.count() >= choices.capacity(room)
        closed = room.kind != Room.Kind.PRIVATE
        context["refusal"] = (
            _("This table is not open to others.")
            if closed
            else _("This room's game has already started; wait for the next round.")
            if room.status == Room.Status.PLAYING
            else _("This room is full: %(count)s players is the most.")
            % {"count": choices.capacity(room)}
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


STEPS = {"join", "ready", "unready", "remove", "leave", "start", "side"}


@require_POST
def room_step(request: HttpRequest, code: str, step: str) -> HttpResponse:
    """One lobby form: join, ready, unready, remove a player, choose a side, leave, start."""
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
        elif step == "side":
            rooms.room_side(code=found.code, person=person, side=request.POST.get("side"))
        elif step == "leave":
            rooms.room_leave(code=found.code, person=person)
            messages.success(request, _("You left room %(code)s.") % {"code": found.code})
            return redirect("play")
        else:
            game = rooms.room_start(code=found.code, person=person)
            return redirect("game-page", game_id=game.pk)
    except UserError as error:
        messages.error(request, sentence(error.message))
    return redirect("room-page", code=found.code)


def sentence(text: str) -> str:
    """A service's refusal shown on a page: a sentence, capitalised, with its full stop."""
    text = str(text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


@limit_posts("room_join")
def _join(request: HttpRequest, code: str) -> HttpResponse:
    found = _lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    try:
        rooms.room_join(code=found.code, person=person_of(request))
    except UserError as error:
        messages.error(request, sentence(error.message))
    return redirect("room-page", code=found.code)
