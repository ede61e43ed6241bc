"""Notices, each person's choices of channel per kind, pending reminders and the reader's zone.

A ``Notice`` is one thing told to one person, once: its ``key`` is unique, so a reminder sent
twice (a worker restarted, a sweep and an ETA task racing) is still one notice, one e-mail and
one Discord message. Its text is not stored: ``kind`` and ``params`` are, and each channel
says it in the reader's (or the tournament's) language when it sends it.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    MATCH_READY = "match_ready", _("Match ready")
    GAME_STARTED = "game_started", _("Your game has started")
    YOUR_TURN = "your_turn", _("Your turn")
    CHECK_IN_OPENS = "check_in_opens", _("Check-in opens")
    CHECK_IN_CLOSES = "check_in_closes", _("Check-in closes")
    DEADLINE_1H = "deadline_1h", _("A deadline in 1 hour")
    DEADLINE_10M = "deadline_10m", _("A deadline in 10 minutes")
    SEALED_DUE = "sealed_due", _("Sealed answers due")
    DMO_CHOSEN = "dmo_chosen", _("Death Match opponent chosen")
    RESULT_RECORDED = "result_recorded", _("Result recorded")
    DISPUTE_DECIDED = "dispute_decided", _("Dispute decided")
    INVITATION = "invitation", _("Invitation received")
    PAIRINGS = "pairings", _("Pairings published")
    SLOT_PROPOSED = "slot_proposed", _("Match time proposed")
    SLOT_AGREED = "slot_agreed", _("Match time agreed")
    RULES_CHANGED = "rules_changed", _("Season's rules changed")


class Channel(models.TextChoices):
    SITE = "site", _("On the site")
    EMAIL = "email", _("E-mail")
    DISCORD = "discord", _("Discord")


class Reader(models.Model):
    """One person's settings as a reader: zone, language for e-mail, calendar token."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reader"
    )
    zone = models.CharField(max_length=64, blank=True, help_text="IANA time zone, e.g. Asia/Seoul")
    language = models.CharField(max_length=10, blank=True, help_text="Of e-mails")
    email_off = models.BooleanField(default=False, help_text="Unsubscribed from every e-mail")
    calendar_token = models.CharField(max_length=48, null=True, blank=True, unique=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.zone or 'no zone'}"

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(24)


class Preference(models.Model):
    """A person's channels for one kind; no row: the kind's defaults (``kinds.DEFAULTS``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    site = models.BooleanField(default=True)
    email = models.BooleanField(default=False)
    discord = models.BooleanField(default=True, help_text="Public kinds: the tournament's channel")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_preference_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind}"


class Notice(models.Model):
    class EmailState(models.TextChoices):
        NONE = "none", "Not e-mailed"
        PENDING = "pending", "Waiting for its batch"
        SENT = "sent", "Sent"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    key = models.CharField(max_length=200, unique=True, help_text="Told once per key")
    label = models.CharField(max_length=200, help_text="What it is about, e.g. Cup · W1.1")
    url = models.CharField(max_length=300, blank=True)
    when = models.DateTimeField(null=True, blank=True, help_text="The time it is about")
    tournament_id = models.BigIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    on_site = models.BooleanField(default=True)
    email_state = models.CharField(
        max_length=8, choices=EmailState.choices, default=EmailState.NONE
    )

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read_at"]),
            models.Index(fields=["user", "email_state"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user}: {self.label}"


class Reminder(models.Model):
    """A notice to send at ``due``, unless ``event`` (the thing itself) has come first."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENT = "sent", "Sent"
        CANCELLED = "cancelled", "Cancelled"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reminders"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    key = models.CharField(max_length=200, unique=True)
    about = models.CharField(max_length=120, help_text="The thing's key, e.g. match:12")
    label = models.CharField(max_length=200)
    url = models.CharField(max_length=300, blank=True)
    tournament_id = models.BigIntegerField(null=True, blank=True)
    due = models.DateTimeField()
    event = models.DateTimeField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due"]
        indexes = [models.Index(fields=["state", "due"]), models.Index(fields=["about"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user} at {self.due:%Y-%m-%d %H:%M}"


class DiscordPost(models.Model):
    """A public notice posted to a tournament's Discord, once per key (not per reader)."""

    key = models.CharField(max_length=200, unique=True)
    tournament_id = models.BigIntegerField()
    kind = models.CharField(max_length=24, choices=Kind.choices)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key
