"""Who is asking: a signed-in user, or a guest with a signed identity kept in the session.

Guests (casual play needs no account) get an id and an automatic animal name the first time
they need one. The identity is a token signed with ``SECRET_KEY``: the session keeps it for
browsers, and the same token can be presented by API clients, so it cannot be forged.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core import signing
from django.http import HttpRequest

GUEST_SESSION_KEY = "guest_token"
_SALT = "hosting.core.identity.guest"

ADJECTIVES = (
    "Agile",
    "Bold",
    "Brave",
    "Calm",
    "Clever",
    "Curious",
    "Daring",
    "Eager",
    "Gentle",
    "Happy",
    "Jolly",
    "Keen",
    "Lucky",
    "Merry",
    "Nimble",
    "Quick",
    "Quiet",
    "Sly",
    "Swift",
    "Witty",
)
ANIMALS = (
    "Badger",
    "Bear",
    "Beaver",
    "Crane",
    "Dolphin",
    "Falcon",
    "Fox",
    "Gecko",
    "Heron",
    "Ibex",
    "Koala",
    "Lynx",
    "Marten",
    "Otter",
    "Owl",
    "Panda",
    "Puffin",
    "Raven",
    "Seal",
    "Wolf",
)


@dataclass(frozen=True)
class Guest:
    id: str
    name: str

    @property
    def token(self) -> str:
        return signing.dumps({"id": self.id, "name": self.name}, salt=_SALT, compress=True)


def animal_name() -> str:
    return f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"


def new_guest() -> Guest:
    return Guest(id=secrets.token_hex(8), name=animal_name())


def guest_from_token(token: str) -> Guest | None:
    """The guest a token names, or ``None`` when it is forged, altered or malformed."""
    try:
        data = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not {"id", "name"} <= data.keys():
        return None
    return Guest(id=str(data["id"]), name=str(data["name"]))


def guest_for(request: HttpRequest, *, keep: bool = True) -> Guest:
    """This browser's guest identity, created on first use and stored in the session unless
    ``keep`` is false (a bot that holds its seat by token alone needs no session row)."""
    token = request.session.get(GUEST_SESSION_KEY)
    guest = guest_from_token(token) if token else None
    if guest is None:
        guest = new_guest()
        if keep:
            request.session[GUEST_SESSION_KEY] = guest.token
    return guest


def remember_guest(request: HttpRequest, guest: Guest) -> None:
    """Keep ``guest`` in this browser's session (a no-op when it is already there)."""
    if request.session.get(GUEST_SESSION_KEY) != guest.token:
        request.session[GUEST_SESSION_KEY] = guest.token
