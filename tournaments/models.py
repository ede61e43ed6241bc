"""Tournaments and their entrants. Brackets, rounds and matches come from ``formats``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.tiebreaks import DEFAULT_REGULATIONS, REGULATIONS


class TournamentQuerySet(models.QuerySet):
    def public(self) -> TournamentQuerySet:
        return self.filter(visibility=Tournament.Visibility.PUBLIC).exclude(
            status=Tournament.Status.DRAFT
        )


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        CHECK_IN = "check_in", _("Check-in")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        UNLISTED = "unlisted", _("Unlisted (by link only)")

    class Format(models.TextChoices):
        # The keys of services.TOURNAMENT_FORMATS, named for people (pages, admin).
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        GENIUS = "genius", _("Genius season")

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
    tiebreak_regulations = models.CharField(
        max_length=40,
        choices=list(REGULATIONS.items()),
        default=DEFAULT_REGULATIONS,
        help_text="The version of FIDE C.07 by which byes and forfeits count in tie-breaks",
    )
    best_of = models.PositiveSmallIntegerField(default=1)
    play_online = models.BooleanField(
        default=True, help_text="Matches create hosted games; off: the organiser enters results"
    )
    players_report = models.BooleanField(
        default=False,
        help_text="Players report their own match results, each confirmed by the opponent",
    )
    seed_window_seconds = models.PositiveIntegerField(
        default=60,
        help_text="How long a match's game waits for its players' client seeds before the "
        "deal (it starts as soon as all have sent theirs); 0: deal at once",
    )
    capacity = models.PositiveIntegerField(null=True, blank=True)
    registration_opens = models.DateTimeField(null=True, blank=True)
    registration_closes = models.DateTimeField(null=True, blank=True)
    check_in_opens = models.DateTimeField(null=True, blank=True)
    check_in_closes = models.DateTimeField(null=True, blank=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    dispute_window_hours = models.PositiveIntegerField(
        default=24, help_text="How long after a result its parties may dispute it"
    )
    dispute_pauses_clocks = models.BooleanField(
        default=False, help_text="A dispute filed on a running game may pause its clocks"
    )
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
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("Waitlisted")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

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
    eliminated_in = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Genius season: the episode that eliminated them"
    )

    class Meta:
        ordering = ["seed", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_user"),
        ]

    def __str__(self) -> str:
        return self.display_name


class Stage(models.Model):
    """A phase of a tournament played in one format (a Swiss, then a knockout, say)."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(default=1)
    format = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    total_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_stage_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} stage {self.number} ({self.format})"


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    bracket = models.CharField(max_length=20, default="main")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)

    class Meta:
        ordering = ["stage_id", "bracket", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "bracket", "number"], name="one_round_number_per_bracket"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} {self.bracket} round {self.number}"


class Match(models.Model):
    """Two entrants (``home`` is white / first slot), best of N games, and its result."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for entrants")
        READY = "ready", _("Ready")
        LIVE = "live", _("Live")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Not played")

    class ResultKind(models.TextChoices):
        PLAYED = "played", _("Played")
        FORFEIT = "forfeit", _("Won by forfeit")
        BYE = "bye", _("Bye")
        DRAW = "draw", _("Draw")

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    code = models.CharField(max_length=20, help_text="e.g. W1.1, L2.3, GF1, R3.2, S4.1")
    slots = models.JSONField(help_text="Seeds or references like 'W1.1:winner'")
    extra = models.JSONField(default=dict, blank=True)
    home = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="home_matches"
    )
    away = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="away_matches"
    )
    best_of = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    result_kind = models.CharField(max_length=10, choices=ResultKind.choices, blank=True)
    home_score = models.FloatField(default=0)
    away_score = models.FloatField(default=0)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="won_matches"
    )
    loser = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="lost_matches"
    )
    metrics = models.JSONField(
        default=dict, blank=True, help_text="In-game points and engine metrics, home then away"
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage_id", "round_id", "code"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["stage", "code"], name="one_match_code_per_stage"),
        ]
        indexes = [models.Index(fields=["stage", "status"])]

    def __str__(self) -> str:
        return f"{self.code}: {self.home or 'TBD'} v {self.away or 'TBD'}"

    @property
    def is_decided(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.CLOSED}

    @property
    def has_started(self) -> bool:
        return self.status in {self.Status.LIVE, self.Status.FINISHED}


class MatchGame(models.Model):
    """One game of a match; ``home_seat`` is the seat the match's home entrant sat in."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_games")
    game = models.OneToOneField(
        "games.GameSession", on_delete=models.CASCADE, related_name="match_game"
    )
    number = models.PositiveSmallIntegerField()
    home_seat = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match_id", "number"]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"


class AuditQuerySet(models.QuerySet):
    """Entries are written once: the queryset's bulk writes refuse, as the model does."""

    def update(self, **kwargs):  # type: ignore[no-untyped-def]
        raise AppendOnly("audit entries are never changed")

    def delete(self):  # type: ignore[no-untyped-def]
        raise AppendOnly("audit entries are never deleted")


class AppendOnly(Exception):
    """A change to an append-only row was attempted (a bug, never a user's doing)."""


class AuditEntry(models.Model):
    """Who did what, to what, when and why, with the target before and after.

    ``action`` is dotted by its owner (``tournaments.match.result_corrected``,
    ``hosting.role.granted``, ``disputes.ruled``); ``target`` names the row it concerns
    (``match:W1.1``, ``dispute:4``, ``user:7``, ``game:12``). Entries are append-only: the
    model, its queryset and the admin refuse changes, and on PostgreSQL a trigger refuses any
    UPDATE or DELETE of the table (migration 0005), whoever sends it. A tournament or an
    account with entries is therefore never deleted (``PROTECT``)."""

    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    action = models.CharField(max_length=80)
    target = models.CharField(max_length=80, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-at"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["tournament", "at"]),
            models.Index(fields=["action", "at"], name="audit_action_at"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.pk is not None or not self._state.adding:
            raise AppendOnly("audit entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise AppendOnly("audit entries are never deleted")


class Episode(models.Model):
    """One episode of a Genius season: main match, candidates, tokens, opponents, Death Match.

    The season's pure state (``tournaments.formats.genius``) is rebuilt from these rows; ids
    in the JSON fields are entrant ids.
    """

    class Status(models.TextChoices):
        MAIN_MATCH = "main_match", _("Main match (MM)")
        CANDIDATES = "candidates", _("Naming the elimination candidate (EC)")
        TOKENS = "tokens", _("Giving a Token of Life (ToL)")
        OPPONENTS = "opponents", _("The EC picks a Death Match opponent (DMO)")
        DM_PICK = "dm_pick", _("The EC and DMO ban Death Match games")
        DEATH_MATCH = "death_match", _("Death Match (DM)")
        FINISHED = "finished", _("Finished")

    class Kind(models.TextChoices):
        EPISODE = "episode", _("Episode")
        FINAL = "final", _("Final")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="episodes")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.EPISODE)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.MAIN_MATCH)
    mm_prompt = models.TextField(blank=True, help_text="Sealed main match: the question")
    mm_deadline = models.DateTimeField(null=True, blank=True)
    mm_revealed = models.BooleanField(default=False)
    mm_game = models.OneToOneField(
        "games.GameSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="main_match_of",
    )
    winners = models.JSONField(default=list, blank=True)
    losers = models.JSONField(default=list, blank=True)
    ecs = models.JSONField(default=list, blank=True)
    dmos = models.JSONField(default=dict, blank=True, help_text="EC entrant id -> DMO entrant id")
    # A three-player Death Match (``dm_players`` 3): EC entrant id -> the second DMO's id.
    dm_third = models.JSONField(default=dict, blank=True)
    tokens = models.JSONField(default=dict, blank=True, help_text="Tokens of Life held")
    tokens_to_give = models.JSONField(default=dict, blank=True)
    dmo_deadline = models.DateTimeField(null=True, blank=True)
    # The Death Match's own game and clocks for this episode (``seasons.death_match_setup``);
    # empty: the tournament's game, ruleset and time control.
    dm_engine = models.CharField(max_length=40, blank=True)
    dm_ruleset = models.JSONField(default=dict, blank=True)
    dm_time_control = models.JSONField(default=dict, blank=True)
    # A DM Advantage the main match gave (``seasons.death_match_picks``): this entrant moves
    # first in the hosted Death Match they play this episode.
    dm_advantage = models.ForeignKey(
        "Entrant", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_episode_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} episode {self.number}"


class SealedSubmission(models.Model):
    """A private main-match answer: editable until the deadline, never after."""

    episode = models.ForeignKey(Episode, on_delete=models.CASCADE, related_name="submissions")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="submissions")
    text = models.TextField()
    submitted_at = models.DateTimeField()

    class Meta:
        ordering = ["episode_id", "submitted_at"]
        constraints = [
            models.UniqueConstraint(fields=["episode", "entrant"], name="one_submission_each"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} in {self.episode}"


class LedgerEntry(models.Model):
    """Garnets (or any season currency): append-only awards, transfers, spending, settlements."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=20)
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="ledger_entries")
    amount = models.PositiveIntegerField()
    to = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_credits"
    )
    currency = models.CharField(max_length=20, default="garnets")
    reason = models.CharField(max_length=200)
    episode = models.PositiveSmallIntegerField(null=True, blank=True)
    # Seen only by the two players and the hosts (a private garnet transfer).
    private = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} {self.currency}: {self.reason}"


class Dispute(models.Model):
    """A party's (or the organiser's) contest of a game or a match result, and its ruling.

    Filed ``open``; a staff admin takes it (``assigned``), then rules it once with a written
    reason. Until it is assigned its filer may withdraw it. Every step is in the audit log
    (``disputes.*``, target ``dispute:<id>``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ASSIGNED = "assigned", _("Assigned")
        RULED = "ruled", _("Ruled")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Ruling(models.TextChoices):
        DISMISS = "dismiss", _("Dismissed")
        UPHOLD = "uphold", _("Result upheld")
        OVERTURN = "overturn", _("Result overturned")
        REPLAY = "replay", _("Replay ordered")
        REWIND = "rewind", _("Rewound and continued")
        ADJUST = "adjust", _("Scores adjusted")
        FORFEIT = "forfeit", _("Forfeit awarded")
        DISQUALIFY = "disqualify", _("Entrant disqualified")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="disputes")
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="disputes")
    game = models.ForeignKey(
        "games.GameSession",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disputes",
    )
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_filed"
    )
    reason = models.TextField()
    moves = models.JSONField(default=list, blank=True, help_text="The log's seq numbers")
    evidence = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disputes_assigned",
    )
    paused_game = models.BooleanField(default=False, help_text="Filing paused the game's clocks")
    ruling = models.CharField(max_length=12, choices=Ruling.choices, blank=True)
    ruling_reason = models.TextField(blank=True)
    ruling_data = models.JSONField(default=dict, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="disputes_ruled",
    )
    filed_at = models.DateTimeField(auto_now_add=True)
    assigned_at = models.DateTimeField(null=True, blank=True)
    ruled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-filed_at"]
        indexes = [models.Index(fields=["status", "filed_at"], name="dispute_queue")]

    def __str__(self) -> str:
        return f"dispute {self.pk} on {self.match.code}"

    @property
    def is_pending(self) -> bool:
        return self.status in (self.Status.OPEN, self.Status.ASSIGNED)


class DisputeComment(models.Model):
    """A party's statement, or an organiser's or admin's comment, on a dispute."""

    dispute = models.ForeignKey(Dispute, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    role = models.CharField(max_length=12, help_text="party, organiser or staff")
    text = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dispute_id", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.role} on {self.dispute}"


class WebhookEndpoint(models.Model):
    """Where an organiser wants a tournament's events sent (``tournaments.webhooks.services``).

    The secret is kept as is, not hashed: each delivery is signed with it (HMAC), and the
    organiser reads it on the webhooks page to verify what arrives."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64, help_text="whsec_ and the base64 of 24 bytes")
    events = models.JSONField(default=list, help_text="The event types it is sent")
    active = models.BooleanField(default=True)
    language = models.CharField(
        max_length=10, default="en", help_text="Of the readable messages (Discord)"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.url}"


class WebhookDelivery(models.Model):
    """One event for one endpoint, and how its attempts went. ``message_id`` is the
    ``webhook-id`` header: the same on every retry, so a receiver can drop repeats."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RETRYING = "retrying", "Retrying"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    message_id = models.CharField(max_length=40, unique=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, help_text="Why the last attempt failed")
    created = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name_plural = "webhook deliveries"
        indexes = [models.Index(fields=["endpoint", "created"])]

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint.url}: {self.status}"


class OrganiserRequest(models.Model):
    """An account asking for the organiser role, and a staff admin's answer to it. Approving
    grants the role through ``hosting.core.roles`` (and so the audit log records it)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a staff admin")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organiser_requests"
    )
    plans = models.TextField(max_length=1000, help_text="What they mean to organise")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="organiser_requests_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="one_pending_organiser_request_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to organise: {self.status}"


# -- a Genius season's extras: tokens remembered, transfers, rules, handouts, confessionals --


class TokenEntry(models.Model):
    """Tokens of Life, append-only: won, given, received, used, expired or lost with their
    holder, per episode. What a player holds is the sum; the board remembers it all season."""

    class Kind(models.TextChoices):
        WON = "won", _("Won")
        GIVEN = "given", _("Given")
        RECEIVED = "received", _("Received")
        USED = "used", _("Used")
        EXPIRED = "expired", _("Expired")
        LOST = "lost", _("Lost with its holder")

    # What each kind does to the holder's count.
    SIGN = {"won": 1, "received": 1, "given": -1, "used": -1, "expired": -1, "lost": -1}

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tokens")
    episode = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="token_entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    count = models.PositiveSmallIntegerField(default=1)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        verbose_name_plural = "token entries"

    def __str__(self) -> str:
        return f"{self.entrant} {self.kind} {self.count} ToL in episode {self.episode}"


class GarnetTransfer(models.Model):
    """A player's offer of garnets to another; the ledger entry is written once it is done
    (at once, on the receiver's acceptance or on the host's approval, by the season's rule).
    A private transfer is seen only by its two players and the hosts."""

    class Status(models.TextChoices):
        AWAITING_RECEIVER = "awaiting_receiver", _("Awaiting the receiver")
        AWAITING_HOST = "awaiting_host", _("Awaiting the host")
        DONE = "done", _("Done")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="garnet_transfers"
    )
    sender = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="transfers_sent")
    receiver = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="transfers_received"
    )
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    private = models.BooleanField(default=False)
    status = models.CharField(max_length=20, choices=Status.choices)
    episode = models.PositiveSmallIntegerField(null=True, blank=True)
    ledger_entry = models.OneToOneField(
        "LedgerEntry", null=True, blank=True, on_delete=models.PROTECT, related_name="offer"
    )
    created = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"transfer {self.pk}: {self.amount} ({self.status})"


class RulesVersion(models.Model):
    """A season's rules as published, versioned: each change is a new row (the change log)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rules_versions"
    )
    number = models.PositiveSmallIntegerField()
    text = models.TextField(blank=True)
    change = models.CharField(max_length=300, help_text="What changed, for the change log")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_rules_version"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} rules v{self.number}"


class RuleQuestion(models.Model):
    """A player's question to the hosts: answered privately, or published as a clarification
    on the rules page (anonymised on request), which makes a new rules version."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ANSWERED = "answered", _("Answered privately")
        PUBLISHED = "published", _("Published as a clarification")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rule_questions"
    )
    asker = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="rule_questions")
    text = models.TextField(max_length=2000)
    answer = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    anonymous = models.BooleanField(default=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    rules_version = models.ForeignKey(
        RulesVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="clarifications"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"question {self.pk} ({self.status})"


class Handout(models.Model):
    """Extra information a host gives one or more players: hidden information, seen only by
    its recipients and the hosts (and, if the season says so, everyone after the season)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="handouts")
    recipients = models.ManyToManyField(Entrant, related_name="handouts")
    title = models.CharField(max_length=120)
    text = models.TextField(max_length=10000)
    # An attached file, kept in the database (never in a public media folder) and served
    # only to the recipients and the hosts (``views.season_desk.handout_file``).
    file_name = models.CharField(max_length=120, blank=True)
    file_type = models.CharField(max_length=100, blank=True)
    file_data = models.BinaryField(blank=True, default=b"", editable=False)
    episode = models.PositiveSmallIntegerField(null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"handout {self.pk}"


class Confessional(models.Model):
    """One entry of a player's private diary: the hosts read it live; everyone after the
    season only if the season's rules say so."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="confessionals"
    )
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="confessionals")
    episode = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(max_length=5000)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"confessional {self.pk}"


class ActivityCheck(models.Model):
    """Before an episode, the players still in check in by a cut-off; at the cut-off (a Celery
    task, ``seasons.activity``) the season's policy is applied to each no-show."""

    class Policy(models.TextChoices):
        WARNING = "warning", _("A warning")
        FINE = "fine", _("A garnet fine")
        ELIMINATE = "eliminate", _("Elimination")
        REPLACE = "replace", _("Replacement by a waiting player")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        APPLIED = "applied", _("Applied")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="activity_checks"
    )
    episode = models.PositiveSmallIntegerField()
    cutoff = models.DateTimeField()
    policy = models.CharField(max_length=10, choices=Policy.choices)
    fine = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    applied_at = models.DateTimeField(null=True, blank=True)
    # entrant id -> what the policy did to them ("warned", "fined 3", "eliminated", ...)
    outcome = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        indexes = [models.Index(fields=["status", "cutoff"], name="activity_due")]

    def __str__(self) -> str:
        return f"activity check {self.pk} ({self.status})"


class ActivityCheckIn(models.Model):
    activity_check = models.ForeignKey(
        ActivityCheck, on_delete=models.CASCADE, related_name="check_ins"
    )
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="activity")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["activity_check_id", "at"]
        constraints = [
            models.UniqueConstraint(fields=["activity_check", "entrant"], name="one_check_in_each"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} checked in"


class DeathMatchPick(models.Model):
    """How an episode's Death Match game is chosen: by lottery from a pool, or from a pool by
    bans (vetoes) of the ECs and DMOs in turn, each a timed step; the host's own choice is
    ``seasons.death_match_setup``."""

    class Mode(models.TextChoices):
        LOTTERY = "lottery", _("Lottery from a pool")
        BANS = "bans", _("Bans by the EC and the DMO")

    episode = models.OneToOneField(Episode, on_delete=models.CASCADE, related_name="dm_pick")
    mode = models.CharField(max_length=10, choices=Mode.choices)
    pool = models.JSONField(default=list, help_text="Engine keys to choose from")
    banned = models.JSONField(default=list, blank=True, help_text="[{by, game, timed_out}]")
    order = models.JSONField(default=list, blank=True, help_text="Entrant ids banning in turn")
    step_seconds = models.PositiveIntegerField(default=300)
    step_deadline = models.DateTimeField(null=True, blank=True)
    chosen = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"DM pick for {self.episode}"

    @property
    def remaining(self) -> list[str]:
        out = {b["game"] for b in self.banned}
        return [g for g in self.pool if g not in out]

    @property
    def banner(self) -> int | None:
        """Whose ban it is now (the order repeats), or None when none is due."""
        if self.chosen or not self.order or self.episode.status != "dm_pick":
            return None
        return self.order[len(self.banned) % len(self.order)]


# Sub-domain models, registered with the tournaments app here (as every model of the app is).
from tournaments.scheduling.models import MatchSlot, SlotProposal  # noqa: E402, F401
