"""The game pages: the live board (players and spectators), the list, the replay and the
fairness check. Each view reads through ``services`` and renders; the board itself is a thin
client over the payloads of ``games.payloads`` and the games API."""

from __future__ import annotations

import functools

from django.contrib.staticfiles import finders
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from games import engines, invites, public_log, replays, services, store
from games.access import seat_for
from games.models import GameSession, Seat
from games.payloads import dumps, game_payload
from games.verification import verify_game

LIST_SIZE = 50


def _script_text(text: str) -> str:
    """JSON text safe inside ``<script type="application/json">``: the same JSON value, with
    the characters that could end the element written as escapes."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@functools.cache
def _engine_module(engine_key: str) -> str:
    """The URL of the engine's board module, or "" when it has none (a generic board)."""
    name = f"games/{engine_key}.js"
    return static(name) if finders.find(name) else ""


def _engine_name(engine_key: str) -> str:
    try:
        return engines.get(engine_key).name
    except KeyError:
        return engine_key


def _fresh(game_id: int) -> GameSession:
    game = services.fresh_game(game_id=game_id)
    if game is None:
        raise Http404(f"no game {game_id}")
    return game


@ensure_csrf_cookie
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/``: the requester's seat, or the spectator's view. The page embeds the
    payload the live stream would send first, as the same text."""
    game = _fresh(game_id)
    seats = store.seats_of(game.pk)
    seat, _ = seat_for(request, game, seats)
    payload = game_payload(game, seat, services.now(), seats)
    waiting = game.status == GameSession.Status.WAITING
    creator = request.user.is_authenticated and request.user.pk == game.created_by_id
    may_start = (
        waiting and not services.in_seed_window(game) and services.steers(game, request.user)
    )
    invite = request.GET.get("invite", "")[:200]
    context = {
        "game": game,
        "engine_name": _engine_name(game.engine),
        "engine_module": _engine_module(game.engine),
        "how_to_template": _how_to_template(game.engine),
        "payload": _script_text(dumps(payload)),
        # The whole public log so far (the stream then adds each commit's entries) and the
        # sentences it and the engine's refusals are said with, in the page's language.
        "log": _script_text(dumps(public_log.history(game))),
        "wording": _script_text(dumps(public_log.wording(game.engine))),
        "seat": seat,
        "invite": invite,
        "may_start": may_start,
        # Open seats are taken with the game's invite (the server checks it).
        "may_claim": seat is None and waiting and bool(invite),
        # The creator is shown the link that lets others take the open seats.
        "share_url": invites.invite_url(request, game) if creator and waiting else "",
    }
    return render(request, "games/game.html", context)


HOW_TO = {"color_clash", "drafting_trios", "dropmix"}


def _how_to_template(engine: str) -> str:
    """The game's short "how to play" panel (``templates/games/how_to/``), from the rules in
    the shared design; "" for an engine without one."""
    return f"games/how_to/{engine}.html" if engine in HOW_TO else ""


def game_list(request: HttpRequest) -> HttpResponse:
    """``/games/``: games anyone may watch now, and the latest finished ones."""
    seats = Prefetch("seats", queryset=Seat.objects.order_by("number"))
    games = GameSession.objects.defer("state", "config").prefetch_related(seats)
    live = games.filter(status=GameSession.Status.RUNNING).order_by("-started")[:LIST_SIZE]
    waiting = games.filter(status=GameSession.Status.WAITING).order_by("-created")[:LIST_SIZE]
    finished = games.filter(status=GameSession.Status.FINISHED).order_by("-finished")[:LIST_SIZE]
    sections = [
        (
            {"key": "live", "title": _("Live now")},
            [_row(g) for g in live],
            _("No game is being played right now."),
        ),
        (
            {"key": "waiting", "title": _("Waiting for players")},
            [_row(g) for g in waiting],
            _("No game is waiting for players."),
        ),
        (
            {"key": "finished", "title": _("Finished")},
            [_row(g) for g in finished],
            _("No game has finished yet."),
        ),
    ]
    return render(request, "games/list.html", {"sections": sections})


def _row(game: GameSession) -> dict:
    return {
        "game": game,
        "engine_name": _engine_name(game.engine),
        "players": [s.label() for s in game.seats.all()],
        "winners": [
            s.label()
            for s in game.seats.all()
            if s.number in (game.outcome or {}).get("winners", [])
        ],
    }


def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/replay``: every step of a finished game, every hand shown."""
    game = _fresh(game_id)
    context = {"game": game, "engine_name": _engine_name(game.engine)}
    if not game.is_over:
        return render(request, "games/replay.html", context, status=409)
    steps = replays.steps(game)
    context.update(
        {
            "engine_module": _engine_module(game.engine),
            "replay": _script_text(dumps(steps)),
            "wording": _script_text(dumps(public_log.wording(game.engine))),
            "step_count": len(steps["steps"]) - 1,
        }
    )
    return render(request, "games/replay.html", context)


def game_verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/verify``: the commitment and the client seeds from the start; once the
    game ended, the revealed seed, the effective seed and the server's replay."""
    game = _fresh(game_id)
    report = verify_game(game) if game.is_over else None
    context = {
        "game": game,
        "engine_name": _engine_name(game.engine),
        "report": report,
        "seats": store.seats_of(game.pk),
    }
    return render(request, "games/verify.html", context)
