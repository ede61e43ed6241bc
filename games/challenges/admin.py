"""Challenges in the admin: every row to read; answering one goes through the services (the
players' own buttons), so the admin changes nothing."""

from django.contrib import admin

from games.challenges.models import Challenge


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("pk", "challenger", "challenged", "engine", "status", "created", "expires")
    list_filter = ("status", "engine")
    search_fields = ("challenger__username", "challenged__username")
    readonly_fields = [f.name for f in Challenge._meta.fields]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
