"""Readers' time zones: which one a person reads in, and a time said in it with its name."""

from __future__ import annotations

import functools
import zoneinfo
from datetime import datetime
from typing import Any

from django.utils import formats, timezone

COOKIE = "tz"  # set by notifications/zone.js from the browser (Intl), read by the middleware


@functools.cache
def known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def parse(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of an IANA name, or None for anything else (a cookie is user input)."""
    if not name or name not in known():
        return None
    return zoneinfo.ZoneInfo(name)


def of_user(user: Any) -> zoneinfo.ZoneInfo:
    reader = getattr(user, "reader", None) if user is not None else None
    return parse(getattr(reader, "zone", "")) or zoneinfo.ZoneInfo("UTC")


def say(moment: datetime, zone: zoneinfo.ZoneInfo | None = None) -> str:
    """``6 December 2026, 13:30 (Asia/Seoul)``: the local date and time, then the zone's name.
    Without ``zone``, the active one (the reader's, activated by the middleware)."""
    zone = zone or timezone.get_current_timezone()
    local = timezone.localtime(moment, zone)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({getattr(zone, 'key', str(zone))})"
