"""Words and number formats of the tournament pages, translated; no tournament rule lives here.

The API speaks keys (``"double_elimination"``, ``"live"``, ``"buchholz"``); these filters turn
them into the reader's language, and scores into the way people write them (½, 1-0).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from games import engines

register = template.Library()
EN_DASH, MINUS = "\u2013", "\u2212"

FORMATS = {
    "single_elimination": _("Single elimination"),
    "double_elimination": _("Double elimination"),
    "round_robin": _("Round robin"),
    "swiss": _("Swiss"),
    "genius": _("Genius season"),
}
TOURNAMENT_STATUS = {
    "draft": _("Draft"),
    "registration": _("Registration open"),
    "check_in": _("Check-in"),
    "running": _("Running"),
    "finished": _("Finished"),
}
MATCH_STATUS = {
    "pending": _("Waiting for entrants"),
    "ready": _("Ready"),
    "live": _("Live"),
    "finished": _("Finished"),
    "closed": _("Not played"),
}
ENTRANT_STATUS = {
    "registered": _("Registered"),
    "waitlisted": _("Waitlisted"),
    "checked_in": _("Checked in"),
    "withdrawn": _("Withdrawn"),
    "disqualified": _("Disqualified"),
}
EPISODE_STATUS = {
    "main_match": _("Main match (MM)"),
    "candidates": _("Naming the elimination candidate (EC)"),
    "tokens": _("Giving a Token of Life (ToL)"),
    "opponents": _("The EC picks a Death Match opponent (DMO)"),
    "death_match": _("Death Match (DM)"),
    "finished": _("Finished"),
}
TIEBREAKS = {
    "points": (_("Pts"), _("Points")),
    "wins": (_("Wins"), _("Number of wins")),
    "games_won": (_("Won"), _("Games won over the board")),
    "head_to_head": (_("H2H"), _("Direct encounter")),
    "buchholz": (_("BH"), _("Buchholz")),
    "buchholz_cut1": (_("BH-C1"), _("Buchholz Cut-1")),
    "median_buchholz": (_("BH-M1"), _("Buchholz Median-1")),
    "sonneborn_berger": (_("SB"), _("Sonneborn-Berger")),
    "koya": (_("Koya"), _("Koya system")),
    "progressive": (_("Prog"), _("Progressive score")),
    "game_score": (_("GS"), _("Game score (in-game points)")),
    "power_cards_played": (_("PC"), _("Power cards played")),
    "dmo_wins_tie": (_("DMO"), _("Death Match: the DMO wins a tie")),
}
BRACKETS = {
    "main": _("Bracket"),
    "winners": _("Winners' bracket"),
    "losers": _("Losers' bracket"),
    "final": _("Grand final"),
}
LEDGER_KINDS = {
    "award": _("Award"),
    "transfer": _("Transfer"),
    "spend": _("Spent"),
    "confiscate": _("Confiscated"),
}
VISIBILITY = {"public": _("Public"), "unlisted": _("Unlisted (by link only)")}


def _label(table: dict[str, Any], key: Any) -> Any:
    return table.get(key, key)


@register.filter
def format_label(key: str) -> Any:
    return _label(FORMATS, key)


@register.filter
def tournament_status(key: str) -> Any:
    return _label(TOURNAMENT_STATUS, key)


@register.filter
def match_status(key: str) -> Any:
    return _label(MATCH_STATUS, key)


@register.filter
def entrant_status(key: str) -> Any:
    return _label(ENTRANT_STATUS, key)


@register.filter
def episode_status(key: str) -> Any:
    return _label(EPISODE_STATUS, key)


@register.filter
def bracket_label(name: str) -> Any:
    if name.startswith("group "):
        return _("Group %(letter)s") % {"letter": name.removeprefix("group ")}
    return _label(BRACKETS, name)


@register.filter
def ledger_kind(key: str) -> Any:
    return _label(LEDGER_KINDS, key)


@register.filter
def visibility_label(key: str) -> Any:
    return _label(VISIBILITY, key)


@register.filter
def game_name(key: str) -> str:
    try:
        return engines.get(key).name
    except KeyError:
        return key


@register.filter
def tiebreak_abbr(key: str) -> Any:
    if key.startswith("metric:"):
        return key.removeprefix("metric:")
    return TIEBREAKS.get(key, (key, key))[0]


@register.filter
def tiebreak_name(key: str) -> Any:
    if key.startswith("metric:"):
        return _("Sum of the game metric “%(name)s”") % {"name": key.removeprefix("metric:")}
    return TIEBREAKS.get(key, (key, key))[1]


@register.filter
def points(value: Any) -> str:
    """1.5 → "1½", 0.5 → "½", 2.0 → "2", 3.25 → "3.25"; anything else as it is."""
    if not isinstance(value, int | float):
        return "" if value is None else str(value)
    if value * 2 != int(value * 2):
        return f"{value:.2f}".rstrip("0")
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    if mapping is None:
        return None
    try:
        return mapping.get(key, mapping.get(str(key)))
    except AttributeError:
        return None


@register.simple_tag
def round_title(section: str, column: Any) -> Any:
    """ "Final", "Semi-finals", … for a knockout tree; "Losers round 3" below it."""
    if section == "final":
        return _("Grand final") if column.number == 1 else _("Grand final reset")
    if section == "losers":
        if column.from_end == 0:
            return _("Losers' final")
        return _("Losers round %(number)s") % {"number": column.number}
    titles = {0: _("Final"), 1: _("Semi-finals"), 2: _("Quarter-finals")}
    if column.from_end in titles:
        return titles[column.from_end]
    return _("Round %(number)s") % {"number": column.number}


@register.simple_tag
def slot_label(match: dict[str, Any], index: int) -> Any:
    """Who will fill an empty side: "Winner of W1.2", "Loser of W2.1", "Bye"."""
    slots = match.get("slots") or []
    slot = slots[index] if index < len(slots) else None
    if slot is None:
        return _("Bye")
    if isinstance(slot, int):
        return _("Seed %(seed)s") % {"seed": slot}
    code, _sep, outcome = str(slot).partition(":")
    if outcome == "loser":
        return _("Loser of %(match)s") % {"match": code}
    return _("Winner of %(match)s") % {"match": code}


@register.filter
def result_text(match: dict[str, Any]) -> str:
    """A decided match as 1-0 (home first, an en dash), ½-½, +/- for forfeits; else empty."""
    if match["status"] != "finished":
        return ""
    if match["result_kind"] == "forfeit":
        won = match["winner"] == (match["home"] or {}).get("id")
        return f"+/{MINUS}" if won else f"{MINUS}/+"
    return f"{points(match['home_score'])}{EN_DASH}{points(match['away_score'])}"
