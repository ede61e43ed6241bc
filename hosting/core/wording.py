"""The pure layers' sentences (``games.engines.messages.Message``) in the user's language.

The pure layers cannot import Django, so they hand over the English template and its
parameters; this is where the template is translated (in the language active for the
request) and filled. Anything that is not a ``Message`` is already in its final words.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engines.messages import Message


def say(message: Any) -> str:
    """``message`` translated if it is a pure layer's ``Message``, else ``str(message)``."""
    if not isinstance(message, Message):
        return str(message)
    if message.parts:
        return message.separator.join(say(part) for part in message.parts)
    params = {
        name: say(value) if isinstance(value, Message) else value
        for name, value in message.params.items()
    }
    try:
        return gettext(message.template).format(**params)
    except (KeyError, IndexError, ValueError):
        # a translation that names a placeholder the template lacks: the English still says it
        return str.__str__(message)
