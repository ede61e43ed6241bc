"""A game's invite: the secret that lets its holder take one of the game's open seats.

Game ids are sequential, so an open seat must not be anyone's who can count: a seat not
reserved for an account is taken only with the invite its creator shares. The invite is not
stored: it is an HMAC (under ``SECRET_KEY``) of the game's id and a random nonce kept in the
row, so the creator can be shown it again while the database, its backups and the admin hold
nothing that opens a seat; and a database rebuilt with the same ids mints different invites.
"""

from __future__ import annotations

import base64
import secrets
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac

_SALT = "games.invites"


def new_nonce() -> str:
    return secrets.token_urlsafe(16)


def invite_for(game: Any) -> str:
    """The game's invite: URL-safe, 256 bits."""
    digest = salted_hmac(_SALT, f"{game.pk}:{game.invite_nonce}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def invite_matches(game: Any, given: Any) -> bool:
    """Whether ``given`` is the game's invite, compared in constant time."""
    return isinstance(given, str) and constant_time_compare(given, invite_for(game))


def invite_url(request: HttpRequest, game: Any) -> str:
    """The share link: the game's play page, which claims a seat with the invite it carries."""
    query = urlencode({"invite": invite_for(game)})
    return request.build_absolute_uri(f"/games/{game.pk}/?{query}")


def invite_fields(request: HttpRequest, game: Any) -> dict[str, str]:
    """What the game's creator is shown besides the game: the invite and its link."""
    return {"invite": invite_for(game), "invite_url": invite_url(request, game)}
