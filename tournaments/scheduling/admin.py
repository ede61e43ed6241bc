"""Slots in the Django admin: read only (the organiser sets a slot on the match's slot page,
through the service, so each step is checked and audited)."""

from django.contrib import admin

from hosting.core.safe_admin import ReadOnly, ReadOnlyInline
from tournaments.scheduling.models import MatchSlot, SlotProposal


class ProposalInline(ReadOnlyInline):
    model = SlotProposal


@admin.register(MatchSlot)
class MatchSlotAdmin(ReadOnly):
    list_display = ("match", "window_opens", "window_closes", "at", "how")
    inlines = [ProposalInline]


@admin.register(SlotProposal)
class SlotProposalAdmin(ReadOnly):
    list_display = ("slot", "by", "at", "accepted")
