"""Forms posted by htmx: answered with the page part it swaps in, the feedback inside the form
that was sent; a plain POST (no JavaScript) gets a redirect and messages instead."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse

FORM_ID = re.compile(r"[-\w.]{1,80}")


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def feedback(request: HttpRequest, lines: list[str], *, ok: bool) -> dict[str, Any]:
    """What a form is told, for the form htmx names as its sender (``HX-Trigger``: its id);
    ``tournament_pages.form_feedback`` places it."""
    sender = request.headers.get("HX-Trigger", "")
    form = sender if FORM_ID.fullmatch(sender) else ""
    return {"form": form, "lines": [str(line) for line in lines], "ok": ok}


def answered(response: HttpResponse, told: dict[str, Any]) -> HttpResponse:
    """A refusal that its form showed replaces only that form's feedback slot, so what the
    person typed stays as typed; anything else swaps the whole part in (``told`` is marked
    by ``tournament_pages.form_feedback`` while the page renders)."""
    if not told["ok"] and told.get("in_form"):
        slot = f"[id='{told['form']}-feedback']"
        response["HX-Retarget"] = slot
        response["HX-Reswap"] = "outerHTML"
        response["HX-Reselect"] = slot
    return response
