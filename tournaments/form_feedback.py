"""Forms posted by htmx: answered with the page part it swaps in, the feedback inside the form
that was sent; a plain POST (no JavaScript) gets a redirect and messages instead."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def feedback(request: HttpRequest, lines: list[str], *, ok: bool) -> dict[str, Any]:
    """What a form is told, for the form htmx names as its sender (``HX-Trigger``: its id);
    ``tournament_pages.form_feedback`` places it."""
    return {
        "form": request.headers.get("HX-Trigger", ""),
        "lines": [str(x) for x in lines],
        "ok": ok,
    }
