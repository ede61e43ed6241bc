"""What each kind of notice says, who may read it, and where it goes unless chosen otherwise.

Texts are lazy: each channel says them in its reader's language (``translation.override``).
A kind in ``PUBLIC`` tells nothing but what every spectator sees (a tournament's name, a
match's code, a public time): only those reach a tournament's Discord channel.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from notifications.models import Channel, Kind

# Channels on for a kind unless the person chose otherwise (Preference rows).
DEFAULTS: dict[str, set[str]] = {kind: {Channel.SITE} for kind in Kind.values}
for _kind in (Kind.MATCH_READY, Kind.DEADLINE_1H, Kind.SLOT_AGREED, Kind.INVITATION):
    DEFAULTS[_kind] = {Channel.SITE, Channel.EMAIL}
for _kind in (Kind.CHECK_IN_OPENS, Kind.CHECK_IN_CLOSES, Kind.PAIRINGS, Kind.DMO_CHOSEN):
    DEFAULTS[_kind] = {Channel.SITE, Channel.DISCORD}

PUBLIC = frozenset(
    {Kind.CHECK_IN_OPENS, Kind.CHECK_IN_CLOSES, Kind.PAIRINGS, Kind.DMO_CHOSEN, Kind.SLOT_AGREED}
)


def text(kind: str, label: str, when: str) -> str:
    """The sentence of a notice in the active language; ``when`` already said in a zone."""
    names = {"label": label, "when": when}
    messages = {
        Kind.MATCH_READY: _("Your match %(label)s is ready."),
        Kind.GAME_STARTED: _("Your game %(label)s has started: take your seat."),
        Kind.YOUR_TURN: _("It is your turn in %(label)s."),
        Kind.CHECK_IN_OPENS: _("Check-in for %(label)s opens at %(when)s."),
        Kind.CHECK_IN_CLOSES: _("Check-in for %(label)s closes at %(when)s."),
        Kind.DEADLINE_1H: _("%(label)s: the deadline is in 1 hour (%(when)s)."),
        Kind.DEADLINE_10M: _("%(label)s: the deadline is in 10 minutes (%(when)s)."),
        Kind.SEALED_DUE: _("%(label)s: your sealed answer is due at %(when)s."),
        Kind.DMO_CHOSEN: _("%(label)s: the Death Match opponent has been chosen."),
        Kind.RESULT_RECORDED: _("%(label)s: the result has been recorded."),
        Kind.DISPUTE_DECIDED: _("%(label)s: the dispute has been decided."),
        Kind.INVITATION: _("You have an invitation: %(label)s."),
        Kind.PAIRINGS: _("%(label)s: the pairings are out."),
        Kind.SLOT_PROPOSED: _("%(label)s: your opponent proposed a time."),
        Kind.SLOT_AGREED: _("%(label)s: the match is set for %(when)s."),
        Kind.RULES_CHANGED: _("%(label)s: the rules have changed; read the change log."),
    }
    return messages[Kind(kind)] % names


def discord_text(kind: str, label: str, when: datetime | None) -> str:
    """A public notice as a Discord channel reads it: Discord shows ``<t:…:F>`` in each
    reader's own zone, so the time is never said in one zone for all."""
    stamp = f"<t:{int(when.timestamp())}:F>" if when else ""
    return text(kind, label, stamp)
