"""Sentences the pure layers say to people, kept translatable without importing Django.

A ``Message`` is the English sentence as a ``str`` (so tests, logs and commands read it as
before) that also keeps its ``template`` (a ``{name}`` sentence marked for ``makemessages``
with the local ``gettext_noop``) and the ``params`` that fill it. Where an error becomes a
user's message, ``hosting.core.wording.say`` fills the template translated into the user's
language. ``str()`` of a ``Message``, and of an exception raised with one, is the ``Message``
itself, so wrapping an error as ``UserError(str(error))`` keeps it translatable.

Parameters that are identifiers (keys, ids, option names, lists of them) stay as they are; a
parameter that is itself a sentence is a ``Message`` too, and is translated with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def gettext_noop(template: str) -> str:
    """Marks ``template`` for ``makemessages`` (which finds it by this name)."""
    return template


class Message(str):
    """An English sentence that remembers its template and parameters."""

    template: str
    params: dict[str, Any]
    parts: tuple[Message, ...]
    separator: str

    def __new__(cls, template: str, /, **params: Any) -> Message:
        self = super().__new__(cls, template.format(**params))
        self.template, self.params, self.parts, self.separator = template, params, (), ""
        return self

    @classmethod
    def join(cls, separator: str, parts: Sequence[Message | str]) -> Message:
        """Several messages said one after another (``separator`` is punctuation, never a
        word): each part is translated on its own."""
        joined = [part if isinstance(part, Message) else cls("{text}", text=part) for part in parts]
        self = super().__new__(cls, separator.join(joined))
        self.template, self.params = "{text}", {"text": separator.join(joined)}
        self.parts, self.separator = tuple(joined), separator
        return self

    def __str__(self) -> Message:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (a Celery task, a cache) with its template, not as its English text
        return (_rebuild, (self.template, self.params, self.parts, self.separator))


def _rebuild(template: str, params: dict[str, Any], parts: tuple, separator: str) -> Message:
    return Message.join(separator, parts) if parts else Message(template, **params)
