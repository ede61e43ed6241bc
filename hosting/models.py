"""The hosting app's one table: personal API tokens (the logic is in ``hosting.core.tokens``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PersonalToken(models.Model):
    """A named credential a user made for scripts and bots. Only the SHA-256 of the secret
    is kept (the secret is shown once, when made); ``prefix`` lets its owner recognise it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=80)
    prefix = models.CharField(max_length=12)
    key_sha256 = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("personal API token")
        verbose_name_plural = _("personal API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
