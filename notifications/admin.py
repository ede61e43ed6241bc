from django.contrib import admin

from hosting.core.safe_admin import ReadOnly
from notifications.models import DiscordPost, Notice, Preference, Reader, Reminder


@admin.register(Notice)
class NoticeAdmin(ReadOnly):
    list_display = ("user", "kind", "label", "created", "read_at", "email_state")
    list_filter = ("kind", "email_state")
    search_fields = ("user__username", "label", "key")


@admin.register(Reminder)
class ReminderAdmin(ReadOnly):
    list_display = ("user", "kind", "label", "due", "event", "state")
    list_filter = ("kind", "state")
    search_fields = ("user__username", "label", "key")


@admin.register(Preference)
class PreferenceAdmin(ReadOnly):
    list_display = ("user", "kind", "site", "email", "discord")
    list_filter = ("kind",)


@admin.register(Reader)
class ReaderAdmin(ReadOnly):
    list_display = ("user", "zone", "language", "email_off")
    exclude = ("calendar_token",)  # a credential


@admin.register(DiscordPost)
class DiscordPostAdmin(ReadOnly):
    list_display = ("key", "tournament_id", "kind", "created")
