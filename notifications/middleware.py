"""Every page in its reader's time zone: a signed-in person's own (``Reader.zone``), else the
browser's (the ``tz`` cookie that ``zone.js`` sets from ``Intl``), else UTC. A person with no
zone yet takes the browser's on their first visit; the language they read in is kept as
their e-mails' language."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from urllib.parse import unquote

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from notifications import zones
from notifications.models import Reader

SESSION_KEY = "notifications:reader"  # [user id, zone, language]


class ReaderZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        browser = unquote(request.COOKIES.get(zones.COOKIE) or "")
        user = getattr(request, "user", None)
        zone = None
        if user is not None and user.is_authenticated:
            zone = zones.parse(self._reader_zone(request, user, browser))
        zone = zone or zones.parse(browser)
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    @staticmethod
    def _reader_zone(request: HttpRequest, user: object, browser: str) -> str:
        """The person's zone, kept in their session (no query on most pages): read from their
        ``Reader`` again when the session has none, the page's language changed, or they
        have no zone yet and the browser now says one."""
        language = translation.get_language() or ""
        session = getattr(request, "session", None)
        kept = session.get(SESSION_KEY) if session is not None else None
        if (
            kept
            and kept[0] == user.pk
            and kept[2] == language
            and (kept[1] or not zones.parse(browser))
        ):
            return kept[1]
        reader = Reader.objects.filter(user=user).first()
        if reader is None and not zones.parse(browser) and language == settings.LANGUAGE_CODE:
            return ""  # nothing to keep yet: no row, no session write
        if reader is None:
            reader = Reader(user=user)
        fields = []
        if not reader.zone and zones.parse(browser):
            reader.zone = browser
            fields.append("zone")
        if reader.language != language:
            reader.language = language
            fields.append("language")
        if reader.pk is None:
            # A racing request may have made it first.
            with contextlib.suppress(IntegrityError), transaction.atomic():
                reader.save()
        elif fields:
            reader.save(update_fields=fields)
        if session is not None:
            session[SESSION_KEY] = [user.pk, reader.zone, reader.language]
        return reader.zone


def forget(request: HttpRequest) -> None:
    """The person changed their zone: the next page reads it again."""
    session = getattr(request, "session", None)
    if session is not None:
        session.pop(SESSION_KEY, None)
