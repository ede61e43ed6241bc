"""Tournaments and their entrants. Brackets, rounds and matches come from ``formats``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class TournamentQuerySet(models.QuerySet):
    def public(self) -> TournamentQuerySet:
        return self.filter(visibility=Tournament.Visibility.PUBLIC).exclude(
            status=Tournament.Status.DRAFT
        )


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration open"
        CHECK_IN = "check_in", "Check-in"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        UNLISTED = "unlisted", "Unlisted"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    description = models.TextField(blank=True)
    game = models.CharField(max_length=40, help_text="Engine key, e.g. drafting_trios")
    ruleset = models.JSONField(default=dict, blank=True, help_text="The engine's config")
    time_control = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=40, help_text="Format key, e.g. swiss")
    format_options = models.JSONField(default=dict, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True, help_text="Ordered tie-break keys")
    capacity = models.PositiveIntegerField(null=True, blank=True)
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    check_in_opens = models.DateTimeField(null=True, blank=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["visibility", "status"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("admin:tournaments_tournament_change", args=[self.pk])


class Entrant(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        WAITLISTED = "waitlisted", "Waitlisted"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DISQUALIFIED = "disqualified", "Disqualified"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="partner_entries",
        help_text="The second member of a team of two (DropMix 2v2)",
    )
    display_name = models.CharField(max_length=80)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_user"),
        ]

    def __str__(self) -> str:
        return self.display_name
