"""The request guard: a control character that no field takes (``hosting.core.characters``) in
the path, a query parameter or a form field is a readable 400 before any view runs, never a
500 from the database. JSON bodies are the API parser's to refuse (``hosting.core.parsers``),
with the same test and the same words.

It sits after the locale middleware (the refusal is said in the visitor's language) and before
everything that reads the path or the body for a view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string

from hosting.core.characters import unstorable
from hosting.core.errors import error_response, wants_json

FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class ControlCharacterGuard:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for text in _texts(request):
            problem = unstorable(text)
            if problem:
                return _refusal(request, problem)
        return self.get_response(request)


def _texts(request: HttpRequest) -> Iterator[str]:
    yield request.path
    yield from _pairs(request.GET)
    # The API takes no form (its parser answers 415): reading one here would use up the body.
    if request.method == "POST" and request.content_type in FORMS and not wants_json(request):
        try:
            yield from _pairs(request.POST)
        except MultiPartParserError:
            return  # unreadable: the view's own reading of it answers Django's 400


def _pairs(query: QueryDict) -> Iterator[str]:
    for key, values in query.lists():
        yield key
        yield from values


def _refusal(request: HttpRequest, problem: str) -> HttpResponse:
    json_client = request.content_type == "application/json" or not request.accepts("text/html")
    if wants_json(request) or json_client:
        return error_response(400, "parse_error", problem)
    # No request context: the page would echo the path back, and the user is one more read.
    return HttpResponse(render_to_string("bad_input.html", {"detail": problem}), status=400)
