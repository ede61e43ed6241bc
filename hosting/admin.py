"""Personal API tokens in the admin: shown (never their hash), revoked through the service."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from hosting.core import tokens
from hosting.core.safe_admin import ReadOnly, through_service
from hosting.models import PersonalToken


@admin.register(PersonalToken)
class PersonalTokenAdmin(ReadOnly):
    list_display = ("name", "user", "prefix", "created", "last_used", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username")
    fields = ("name", "user", "prefix", "created", "last_used", "revoked_at")
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, rows: QuerySet[PersonalToken]) -> None:
        through_service(
            self,
            request,
            rows,
            lambda token: tokens.token_revoke(user=token.user, token_id=token.pk),
            str(_("{count} token(s) revoked.")),
        )
