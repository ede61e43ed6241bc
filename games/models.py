"""A hosted game: its session row (state snapshot, clocks, version), seats and event log."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models

from games.clocks import TimeControl
from games.engines.base import Engine


class GameSession(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    engine = models.CharField(max_length=40)
    config = models.JSONField(help_text="The engine's validated config")
    time_control = models.JSONField(help_text="Validated allowances, reserve, increment, policy")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    state = models.JSONField(null=True, blank=True, help_text="Engine state snapshot (secret)")
    version = models.PositiveIntegerField(default=0, help_text="Actions applied so far")
    seed = models.CharField(max_length=64, help_text="Hex seed; secret until the game ends")
    seed_sha256 = models.CharField(max_length=64, help_text="Published from the start")
    # games.fairness: fixed when the game starts, from the seed and every seat's client seed.
    # Blank in a game dealt before client seeds existed: that game drew from ``seed`` alone.
    effective_seed = models.CharField(
        max_length=64, blank=True, help_text="Hex seed every shuffle draws from; secret too"
    )
    clocks = models.JSONField(default=dict, blank=True)
    windows = models.JSONField(default=list, blank=True, help_text="Open windows and deadlines")
    # Running: the earliest clock or window deadline. Waiting: the end of the seed window, when
    # the deal is made whatever client seeds came (``services.game_open_seed_window``).
    next_deadline = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    grace_seconds = models.PositiveIntegerField(default=90)
    # Epoch seconds (as the clocks keep time) since when a dispute holds the clocks; None: not.
    paused_at = models.FloatField(null=True, blank=True)
    # A game continued from another's state (a dispute's rewind): {"game": id, "seq": n}.
    origin = models.JSONField(null=True, blank=True)
    # With the game's id and SECRET_KEY it makes the invite (games.invites); not the invite.
    invite_nonce = models.CharField(max_length=32, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            # The beat sweep: running games whose next deadline has passed.
            models.Index(
                fields=["next_deadline"],
                name="game_running_deadline",
                condition=models.Q(status="running"),
            ),
            # The same sweep: waiting games whose seed window has ended (their deal is due).
            models.Index(
                fields=["next_deadline"],
                name="game_seed_window_deadline",
                condition=models.Q(status="waiting", next_deadline__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.engine} #{self.pk}"

    @classmethod
    def from_db(cls, db, field_names, values):  # type: ignore[no-untyped-def]
        game = super().from_db(db, field_names, values)
        # What a write found, so it schedules a timer only when the deadline moved.
        game.loaded_deadline = game.__dict__.get("next_deadline")
        # Actions applied since, written with the next save (one round trip for both).
        game.unsaved_log = []
        return game

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    def control(self, engine: Engine) -> TimeControl:
        """The stored time control (validated when the game was made), read against the
        engine's phases."""
        return TimeControl.from_json(self.time_control, engine.default_time_control)

    @property
    def revealed_seed(self) -> str | None:
        return self.seed if self.is_over else None

    @property
    def rng_seed(self) -> bytes:
        """What every deal, shuffle and draw of the game comes from (see ``effective_seed``)."""
        return bytes.fromhex(self.effective_seed or self.seed)


# How a computer seat is labelled after its name; one pair of brackets, not "(Computer (…))".
SEAT_KIND_SUFFIX = {"computer": "Computer", "substitute": "Computer, substitute"}


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Person"
        COMPUTER = "computer", "Computer"
        SUBSTITUTE = "substitute", "Computer (substitute)"

    game = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.HUMAN)
    bot = models.CharField(max_length=40, blank=True, help_text="Bot key for computer seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    guest_id = models.CharField(max_length=32, blank=True)
    display_name = models.CharField(max_length=80, blank=True)
    role = models.CharField(max_length=20, blank=True, help_text="e.g. EC or DMO")
    token_sha256 = models.CharField(max_length=64, blank=True, help_text="API token, hashed")
    client_seed = models.CharField(
        max_length=64, blank=True, help_text="The seat's part of the deal (games.fairness)"
    )
    connected = models.BooleanField(default=False)
    connections = models.PositiveIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_seat_number_per_game"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.game}"

    @property
    def is_claimed(self) -> bool:
        return self.user_id is not None or bool(self.guest_id) or self.kind != self.Kind.HUMAN

    @property
    def is_computer(self) -> bool:
        return self.kind != self.Kind.HUMAN

    def label(self) -> str:
        """How the seat is shown: computers are always labelled as such."""
        name = self.display_name or f"Seat {self.number + 1}"
        return f"{name} ({SEAT_KIND_SUFFIX[self.kind]})" if self.is_computer else name

    def token_matches(self, token: str) -> bool:
        return bool(self.token_sha256) and hash_token(token) == self.token_sha256


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class GameEvent(models.Model):
    """One applied action, append-only. ``seq`` is the game's version after applying it."""

    game = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True, help_text="None: the system")
    action = models.JSONField()
    events = models.JSONField(default=list)
    client_action_id = models.CharField(max_length=64, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_version"),
            models.UniqueConstraint(
                fields=["game", "seat", "client_action_id"],
                name="one_answer_per_client_action",
                condition=~models.Q(client_action_id=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.action.get('type')}"


# The challenges' and the casual rooms' models live in their own modules; importing them
# registers them.
from games.challenges.models import Challenge  # noqa: E402, F401
from games.rooms.models import Room, RoomMember, RoomRound  # noqa: E402, F401
