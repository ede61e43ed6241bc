"""``{% load zones %}``: every time in its reader's zone, with the zone's name.

``{{ moment|when }}``: ``<time datetime="…">6 December 2026, 13:30 (Asia/Seoul)</time>``.
``{{ moment|deadline }}``: the same with a live countdown beside it, which
``notifications/countdown.js`` ticks (a plain ES module; the page stays right without it).
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils.html import format_html

from notifications import zones

register = template.Library()


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


@register.filter
def when(moment: datetime | None) -> str:
    if not isinstance(moment, datetime):
        return ""
    return format_html(
        '<time class="when" datetime="{}">{}</time>', _iso(moment), zones.say(moment)
    )


@register.filter
def deadline(moment: datetime | None) -> str:
    if not isinstance(moment, datetime):
        return ""
    return format_html(
        '<span class="deadline"><time class="when" datetime="{}">{}</time> '
        '<span class="countdown" data-until="{}" role="timer" aria-live="off"></span></span>',
        _iso(moment),
        zones.say(moment),
        _iso(moment),
    )
