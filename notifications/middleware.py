"""Every page in its reader's time zone: a signed-in person's own (``Reader.zone``), else the
browser's (the ``tz`` cookie that ``zone.js`` sets from ``Intl``), else UTC. A person with no
zone yet takes the browser's on their first visit; the language they read in is kept as
their e-mails' language."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from notifications import zones
from notifications.models import Reader


class ReaderZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = None
        browser = unquote(request.COOKIES.get(zones.COOKIE) or "")
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            reader = Reader.objects.filter(user=user).first()
            language = translation.get_language() or ""
            if (
                reader is None
                or (not reader.zone and zones.parse(browser))
                or (reader.language != language)
            ):
                reader, _created = Reader.objects.get_or_create(user=user)
                fields = []
                if not reader.zone and zones.parse(browser):
                    reader.zone = browser
                    fields.append("zone")
                if reader.language != language:
                    reader.language = language
                    fields.append("language")
                if fields:
                    reader.save(update_fields=fields)
            zone = zones.parse(reader.zone)
        zone = zone or zones.parse(browser)
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
