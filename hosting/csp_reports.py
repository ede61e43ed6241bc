"""``POST /csp-report``: where browsers send Content-Security-Policy violations (the policy's
``report-uri``, ``settings.CONTENT_SECURITY_POLICY``).

Each report is logged at WARNING on this module's logger, one line with the page, the directive,
what was blocked and where from, each field cut to ``FIELD_CHARS``: a violation on a real page
is a bug of ours (or an extension, or an attack) that someone should read. The endpoint is open
to anyone, so it must not become a way to flood the logs: a body larger than ``MAX_BYTES`` is a
413 left unread, a client sends at most ``THROTTLE_RATES["csp_report.client"]`` reports (a 429
with ``Retry-After`` past it, nothing logged), and a body that is not a report is a 400. A
report taken is answered 204: the browser reads nothing back.

Both shapes browsers send are read: ``report-uri``'s ``{"csp-report": {...}}``
(``application/csp-report``) and the Reporting API's list of ``{"type": "csp-violation",
"body": {...}}`` (``application/reports+json``).
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from hosting.core.errors import error_response
from hosting.core.parsers import unusable
from hosting.core.throttles import retry_after, throttled_response

logger = logging.getLogger(__name__)

MAX_BYTES = 16 * 1024
"""Far above a real report (about 1 KB, most of it the policy), far below a flood's payload."""
MAX_REPORTS = 10
"""The Reporting API batches; more in one body than a page could cause at once are dropped."""
FIELD_CHARS = 300

# The fields worth reading, as (report-uri name, Reporting API name); the policy is ours.
FIELDS = (
    ("document-uri", "documentURL"),
    ("effective-directive", "effectiveDirective"),
    ("blocked-uri", "blockedURL"),
    ("source-file", "sourceFile"),
    ("line-number", "lineNumber"),
    ("column-number", "columnNumber"),
    ("script-sample", "sample"),
    ("disposition", "disposition"),
)


@csrf_exempt  # browsers post reports without a token, from any page of ours
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    wait = retry_after(request, "csp_report", None)
    if wait is not None:
        return throttled_response(wait)
    declared = request.META.get("CONTENT_LENGTH") or "0"
    if not declared.isdigit() or int(declared) > MAX_BYTES:
        return _too_large()
    body = request.read(MAX_BYTES + 1)
    if len(body) > MAX_BYTES:
        return _too_large()
    reports = _reports(body)
    if reports is None:
        return error_response(400, "parse_error", _("the body is not a CSP violation report"))
    for report in reports[:MAX_REPORTS]:
        logger.warning(
            "CSP violation: %s",
            " ".join(f"{name}={value}" for name, value in report.items()),
            extra={"csp_report": report},
        )
    return HttpResponse(status=204)


def _too_large() -> HttpResponse:
    detail = _("a CSP report is at most %(size)s KB") % {"size": MAX_BYTES // 1024}
    return error_response(413, "payload_too_large", detail)


def _reports(body: bytes) -> list[dict[str, str]] | None:
    """The violations in the body, each as its readable fields; None when it holds none."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if unusable(data):
        return None
    if isinstance(data, dict) and isinstance(data.get("csp-report"), dict):
        found = [_fields(data["csp-report"], legacy=True)]
    elif isinstance(data, list):
        found = [
            _fields(item["body"], legacy=False)
            for item in data
            if isinstance(item, dict)
            and item.get("type") == "csp-violation"
            and isinstance(item.get("body"), dict)
        ]
    else:
        return None
    found = [report for report in found if report]
    return found or None


def _fields(raw: dict[str, Any], *, legacy: bool) -> dict[str, str]:
    fields = {}
    for legacy_name, modern_name in FIELDS:
        value = raw.get(legacy_name if legacy else modern_name)
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            fields[legacy_name] = " ".join(str(value).split())[:FIELD_CHARS]
    return fields
