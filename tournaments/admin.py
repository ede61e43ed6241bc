from django.contrib import admin

from tournaments.models import Entrant, Tournament


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
