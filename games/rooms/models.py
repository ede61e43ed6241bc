"""Casual rooms of Color Clash, Drafting Trios and DropMix Clash: a private room joined by
code, a Quick match table (Color Clash), or a practice table against computers; its members
and the games ("rounds") played in it.

A room outlives its games: each start makes a new hosted game (``games.services``), and the
room keeps the list so it can show match totals between them. An expired room closes; its
games stay in the log with their replay and verify pages.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Room(models.Model):
    class Kind(models.TextChoices):
        PRIVATE = "private", "Private room"
        QUICK = "quick", "Quick match"
        PRACTICE = "practice", "Practice"

    class Status(models.TextChoices):
        OPEN = "open", "Open"  # in the lobby: members join, mark ready, the host starts
        PLAYING = "playing", "Playing"
        CLOSED = "closed", "Closed"  # expired or emptied: nobody joins again

    code = models.CharField(max_length=6, unique=True)
    engine = models.CharField(max_length=20, default="color_clash", help_text="the game's key")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PRIVATE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    mode = models.CharField(max_length=10, default="classic")
    match = models.CharField(max_length=20, default="to_500")
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    computers = models.PositiveSmallIntegerField(default=0, help_text="Practice: 1 to 5")
    options = models.JSONField(
        default=dict, blank=True, help_text="the game's own choices (DropMix: format, target)"
    )
    game = models.ForeignKey(
        "games.GameSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    last_activity = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["kind", "status"], name="room_kind_status"),
            models.Index(fields=["status", "last_activity"], name="room_status_activity"),
        ]

    def __str__(self) -> str:
        return f"room {self.code}"


class RoomMember(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    guest_id = models.CharField(max_length=32, blank=True)
    name = models.CharField(max_length=80)
    is_host = models.BooleanField(default=False)
    ready = models.BooleanField(default=False)
    side = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="DropMix: the side chosen in the lobby (0 or 1)"
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room_id", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["room", "user"],
                name="one_membership_per_user",
                condition=models.Q(user__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["room", "guest_id"],
                name="one_membership_per_guest",
                condition=~models.Q(guest_id=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.room}"


class RoomRound(models.Model):
    """One game played in a room, and which member held each of its seats."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    game = models.OneToOneField(
        "games.GameSession", on_delete=models.CASCADE, related_name="room_round"
    )
    number = models.PositiveSmallIntegerField()
    seats = models.JSONField(default=dict, help_text="seat number -> member id (None: computer)")

    class Meta:
        ordering = ["room_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="one_round_number_per_room"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.room}"
