"""Personal API tokens in the admin: seen, never edited; revoking goes through the service."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from hosting.models import PersonalToken
from hosting.safe_admin import ReadOnly, through_service
from hosting.tokens import token_revoke


@admin.register(PersonalToken)
class PersonalTokenAdmin(ReadOnly):
    list_display = ("name", "user", "prefix", "created", "last_used", "revoked_at")
    list_filter = ("revoked_at",)
    # The hash stays off every page: with it, an offline search could recover a weak secret.
    fields = ("user", "name", "prefix", "created", "last_used", "revoked_at")
    readonly_fields = fields
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, queryset) -> None:  # type: ignore[no-untyped-def]
        through_service(
            self,
            request,
            queryset,
            lambda token: token_revoke(user=token.user, token_id=token.pk),
            str(_("{count} token(s) revoked.")),
        )
