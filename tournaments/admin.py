from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Entrant,
    Episode,
    LedgerEntry,
    Match,
    MatchGame,
    Round,
    SealedSubmission,
    Stage,
    Tournament,
)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ("user", "partner")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "format", "status", "visibility", "organiser", "created")
    list_filter = ("status", "visibility", "game", "format")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [EntrantInline]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("display_name", "tournament", "status", "seed", "rating")
    list_filter = ("status",)
    search_fields = ("display_name", "user__username")
    raw_id_fields = ("user", "partner")


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "format", "status", "total_rounds")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("stage", "bracket", "number", "status")


class MatchGameInline(admin.TabularInline):
    model = MatchGame
    extra = 0
    raw_id_fields = ("game",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("code", "stage", "home", "away", "status", "winner", "result_kind")
    list_filter = ("status", "result_kind")
    raw_id_fields = ("home", "away", "winner", "loser", "round", "stage")
    inlines = [MatchGameInline]


@admin.register(MatchGame)
class MatchGameAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "game", "home_seat")
    raw_id_fields = ("match", "game")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "action", "actor", "reason")
    list_filter = ("action",)
    search_fields = ("action", "reason")

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the audit trail is append-only

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Episode)
class EpisodeAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "kind", "status")
    list_filter = ("status", "kind")


@admin.register(SealedSubmission)
class SealedSubmissionAdmin(admin.ModelAdmin):
    list_display = ("episode", "entrant", "submitted_at")
    raw_id_fields = ("episode", "entrant")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "entrant", "amount", "currency", "to", "reason", "at")
    list_filter = ("kind", "currency")
    raw_id_fields = ("entrant", "to")

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the ledger is append-only: corrections are new entries

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
