"""The Django admin as a window that can neither leak hidden state nor write around services.

Django's changelists accept any ``?field__lookup=value`` query parameter on a model's own
fields (``ModelAdmin.lookup_allowed`` allows every local field by default), so a filter such
as ``?seed__startswith=5f`` answers yes or no about a secret one character at a time.
``SecretsStayHidden`` refuses every lookup that reaches a secret field, directly or through
a relation (a refused lookup is Django's ``DisallowedModelAdminLookup``: a 400 page).
``ReadOnly`` is a model admin that shows rows but changes none: what changes them are the
admin actions, and each calls the service that owns the change (and audits it).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

from hosting.core.errors import UserError

# "app_label.model_name" -> fields no admin page filters, searches or sorts by.
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "games.gamesession": frozenset({"seed", "effective_seed", "state"}),
    "games.seat": frozenset({"token_sha256", "guest_id"}),
    "games.roommember": frozenset({"guest_id"}),
    "games.gameevent": frozenset({"action", "events"}),
    "tournaments.sealedsubmission": frozenset({"text"}),
    "hosting.personaltoken": frozenset({"key_sha256"}),
    "tournaments.webhookendpoint": frozenset({"secret"}),
    # A season's hidden texts (issue 29): handouts, confessionals, private transfers' reasons.
    "tournaments.handout": frozenset({"text", "title", "file_name", "file_data"}),
    "tournaments.confessional": frozenset({"text"}),
    "tournaments.garnettransfer": frozenset({"reason", "amount", "sender", "receiver"}),
    "tournaments.rulequestion": frozenset({"text", "answer"}),
    "tournaments.ledgerentry": frozenset({"reason"}),
}


def touches_secret(model: type[Model], lookup: str) -> bool:
    """Whether ``lookup`` (``game__seed__startswith``) reads a secret field on its way."""
    for part in lookup.split(LOOKUP_SEP):
        if part in SECRET_FIELDS.get(model._meta.label_lower, frozenset()):
            return True
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or a comparison: the field before it was not secret
        if not getattr(field, "path_infos", None):
            return False
        model = field.path_infos[-1].to_opts.model
    return False


class SecretsStayHidden(admin.ModelAdmin):
    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if touches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)


class ReadOnly(SecretsStayHidden):
    """Rows are shown, never added, edited or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    """Rows of a related model shown on their parent's page, every field read-only: a field
    Django never edits (``auto_now_add``) may not be in an inline's form, only shown."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return (*(self.fields or ()), *super().get_readonly_fields(request, obj))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def through_service(
    model_admin: admin.ModelAdmin, request: HttpRequest, rows: Any, call: Any, done: str
) -> None:
    """Run an admin action's service call on each selected row; a refusal is shown with the
    service's own words and leaves that row as it was."""
    changed = 0
    for row in rows:
        try:
            call(row)
        except UserError as error:
            model_admin.message_user(request, f"{row}: {error.message}", messages.ERROR)
        else:
            changed += 1
    if changed:
        model_admin.message_user(request, done.format(count=changed), messages.SUCCESS)
