"""The slot of a match scheduled by its players, and the times they proposed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchSlot(models.Model):
    class DefaultRule(models.TextChoices):
        ORGANISER = "organiser", _("The organiser picks the time")
        WINDOW_END = "window_end", _("The match starts at the window's end")

    class How(models.TextChoices):
        PLAYERS = "players", _("Agreed by the players")
        ORGANISER = "organiser", _("Set by the organiser")
        WINDOW_END = "window_end", _("The window's end (no agreement)")

    match = models.OneToOneField("tournaments.Match", on_delete=models.CASCADE, related_name="slot")
    window_opens = models.DateTimeField()
    window_closes = models.DateTimeField()
    default_rule = models.CharField(
        max_length=12, choices=DefaultRule.choices, default=DefaultRule.WINDOW_END
    )
    no_show_minutes = models.PositiveSmallIntegerField(default=10)
    at = models.DateTimeField(null=True, blank=True, help_text="The agreed slot")
    how = models.CharField(max_length=12, choices=How.choices, blank=True)
    home_checked_in_at = models.DateTimeField(null=True, blank=True)
    away_checked_in_at = models.DateTimeField(null=True, blank=True)
    no_show_settled = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    def __str__(self) -> str:
        return f"{self.match}: {self.at or 'not agreed'}"


class SlotProposal(models.Model):
    slot = models.ForeignKey(MatchSlot, on_delete=models.CASCADE, related_name="proposals")
    by = models.ForeignKey("tournaments.Entrant", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField()
    accepted = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["slot", "by", "at"], name="one_proposal_per_time")
        ]

    def __str__(self) -> str:
        return f"{self.by} proposes {self.at:%Y-%m-%d %H:%M}"
