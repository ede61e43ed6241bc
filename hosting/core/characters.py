"""Characters no field takes: PostgreSQL text cannot store the NUL character, and the other C0
controls (tab, line feed and carriage return aside) are nothing a person types, only what a
probe sends. ``unstorable`` is the one test of them, for the JSON parser and the request guard."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def unstorable(text: str) -> str | None:
    """Why ``text`` cannot be taken, in the request's language, or None."""
    found = CONTROLS.search(text)
    if found is None:
        return None
    char = f"U+{ord(found.group()):04X}" + (" (NUL)" if found.group() == "\x00" else "")
    return _("text may not contain the control character %(char)s") % {"char": char}
