"""Casual rooms in the Django admin: to look at, never to change (the rooms' services do),
and without the guests' identities."""

from __future__ import annotations

from django.contrib import admin

from games.models import Room, RoomMember, RoomRound
from hosting.core.safe_admin import ReadOnly, ReadOnlyInline

MEMBER_FIELDS = ("name", "user", "is_host", "ready", "side", "joined")  # no guest identity


class RoomMemberInline(ReadOnlyInline):
    model = RoomMember
    fields = MEMBER_FIELDS


class RoomRoundInline(ReadOnlyInline):
    model = RoomRound
    fields = ("number", "game")


@admin.register(Room)
class RoomAdmin(ReadOnly):
    list_display = ("code", "engine", "kind", "status", "created", "last_activity")
    list_filter = ("engine", "kind", "status", "mode")
    fields = (
        "code",
        "engine",
        "kind",
        "status",
        "options",
        "mode",
        "match",
        "turn_seconds",
        "computers",
        "game",
        "created",
        "last_activity",
    )
    readonly_fields = fields
    inlines = [RoomMemberInline, RoomRoundInline]


@admin.register(RoomMember)
class RoomMemberAdmin(ReadOnly):
    list_display = ("room", "name", "is_host", "ready", "joined")
    fields = ("room", *MEMBER_FIELDS)
    readonly_fields = fields


@admin.register(RoomRound)
class RoomRoundAdmin(ReadOnly):
    list_display = ("room", "number", "game")
    fields = ("room", "number", "game", "seats")
    readonly_fields = fields
