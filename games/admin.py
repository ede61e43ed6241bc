from django.contrib import admin

from games.models import GameEvent, GameSession, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "kind", "bot", "user", "display_name", "role", "connected")
    raw_id_fields = ("user",)


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ("id", "engine", "status", "version", "created", "finished")
    list_filter = ("engine", "status")
    # The state and the seed are secret while the game runs, from staff too.
    exclude = ("state", "seed")
    readonly_fields = ("seed_sha256", "revealed_seed", "version", "created", "started", "finished")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "kind", "display_name", "user", "connected")
    list_filter = ("kind", "connected")
    raw_id_fields = ("game", "user")


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "at")
    raw_id_fields = ("game",)

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        # Events name drawn and dealt cards: nobody, staff included, reads them mid-game.
        ended = (GameSession.Status.FINISHED, GameSession.Status.ABORTED)
        return super().get_queryset(request).filter(game__status__in=ended)

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the log is append-only; disputes correct games through services

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
