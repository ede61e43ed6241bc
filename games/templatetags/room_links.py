"""Hooks of the casual rooms on a game's page: ``{% room_link game %}``, the way back to the
room it was played in (its lobby offers another round and shows the match totals), and
``{% room_leave game seat %}``, leaving the room's game to a substitute."""

from __future__ import annotations

from django import template
from django.middleware.csrf import get_token
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.models import RoomRound

register = template.Library()


@register.simple_tag
def room_link(game: object) -> str:
    played = RoomRound.objects.filter(game_id=game.pk).select_related("room").first()
    if played is None or played.room.kind == "quick":
        return ""
    text = _("Practice again") if played.room.kind == "practice" else _("Back to the room")
    return format_html(
        '<p class="room-link"><a href="/r/{}" id="back-to-room">{}</a></p>', played.room.code, text
    )


@register.simple_tag(takes_context=True)
def room_leave(context: template.Context, game: object, seat: object) -> str:
    """For a person seated in a room's running game: leave it (a labelled substitute finishes
    the seat; the room's lobby stays open to the others), and the others' "reconnecting…"
    marks (``games/static/games/room_game.js``)."""
    if seat is None or getattr(seat, "kind", "") != "human" or game.status != "running":
        return ""
    played = RoomRound.objects.filter(game_id=game.pk).select_related("room").first()
    if played is None or played.room.kind == "practice":
        return ""
    return format_html(
        '<form method="post" action="/r/{}/leave" class="inline room-leave">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<button type="submit" class="secondary" id="leave-game">{}</button></form>'
        '<span id="room-presence" hidden data-url="/r/{}/presence" data-label="{}"></span>'
        '<script type="module" src="{}"></script>',
        played.room.code,
        get_token(context["request"]),
        _("Leave the game"),
        played.room.code,
        _("reconnecting…"),
        static("games/room_game.js"),
    )
