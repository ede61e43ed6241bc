"""A challenge: one signed-in player invites another, by name, to a game of any of the three.
The invitee accepts (a new game seats them both) or declines; an unanswered challenge expires
after ``CHALLENGE_EXPIRY_SECONDS``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games import engines


class Challenge(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    engine = models.CharField(max_length=40, help_text="Engine key, e.g. drafting_trios")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    answered = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        "games.GameSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["challenged", "status"], name="challenge_to_status"),
            models.Index(fields=["challenger", "status"], name="challenge_from_status"),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} ({self.engine})"

    @property
    def game_name(self) -> str:
        """The game's name for people (never its engine key)."""
        return engines.get(self.engine).name

    @property
    def is_expired(self) -> bool:
        return self.status == self.Status.PENDING and self.expires <= timezone.now()

    @property
    def is_open(self) -> bool:
        """Pending and not yet expired: it can still be accepted or declined."""
        return self.status == self.Status.PENDING and not self.is_expired
