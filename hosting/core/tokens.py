"""Personal API tokens: one write path each (``token_create``, ``token_revoke``), used by the
account page and the API; ``hosting.core.bearer`` authenticates requests with them.

A token is ``ga_`` and 43 URL-safe characters (256 random bits); the database keeps its
SHA-256 only, so a leaked table gives no usable token (a slow hash would buy nothing against
256 bits, and would cost every request).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from hosting.core.bearer import by_bearer, digest
from hosting.core.errors import NotFound, UserError
from hosting.models import PersonalToken

__all__ = ["NewToken", "by_bearer", "token_create", "token_revoke", "user_tokens"]

TOKEN_PREFIX = "ga_"
MAX_TOKENS = 50  # live tokens per user: plenty for every bot, a bound on the table


@dataclass(frozen=True)
class NewToken:
    token: PersonalToken
    secret: str  # shown once, to its owner, then never again


def token_create(*, user: AbstractBaseUser, name: str) -> NewToken:
    name = name.strip()
    if not name:
        raise UserError(_("a token needs a name"))
    if PersonalToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_TOKENS:
        raise UserError(
            _("you already have %(count)s tokens; revoke one first") % {"count": MAX_TOKENS}
        )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = PersonalToken.objects.create(
        user=user, name=name, prefix=secret[:10], key_sha256=digest(secret)
    )
    return NewToken(token, secret)


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> PersonalToken:
    """Revoke one of ``user``'s tokens (at once: the next request with it is a 401). Someone
    else's token is "not found", as it would be to them."""
    token = PersonalToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(_("no token %(id)s") % {"id": token_id})
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def user_tokens(user: AbstractBaseUser) -> list[PersonalToken]:
    return list(PersonalToken.objects.filter(user=user))
