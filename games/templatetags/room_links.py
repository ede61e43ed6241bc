"""``{% room_link game %}``: on a game's page, the way back to the room it was played in (its
lobby offers another round and shows the match totals)."""

from __future__ import annotations

from django import template
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
