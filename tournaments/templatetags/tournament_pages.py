"""Words and number formats of the tournament pages, translated; no tournament rule lives here.

The API speaks keys (``"double_elimination"``, ``"live"``, ``"buchholz"``); these filters turn
them into the reader's language, and scores into the way people write them (½, 1-0).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engines
from tournaments.models import Entrant, Episode, Match, Tournament

register = template.Library()
EN_DASH, MINUS = "\u2013", "\u2212"

# The labels of keys the models name are the models' own (one source for the pages and the
# admin), lazily translated.
FORMATS = dict(Tournament.Format.choices)
TOURNAMENT_STATUS = dict(Tournament.Status.choices)
MATCH_STATUS = dict(Match.Status.choices)
ENTRANT_STATUS = dict(Entrant.Status.choices)
EPISODE_STATUS = dict(Episode.Status.choices)
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
    "award": pgettext_lazy("ledger entry", "Award"),
    "transfer": pgettext_lazy("ledger entry", "Transfer"),
    "spend": pgettext_lazy("ledger entry", "Spent"),
    "confiscate": pgettext_lazy("ledger entry", "Confiscated"),
}

REGULATIONS = {
    "fide-2024": _("of 2024"),
    "fide-2026": _("of 2026"),
}
VISIBILITY = dict(Tournament.Visibility.choices)


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


QUARTERS = {0: "", 1: "¼", 2: "½", 3: "¾"}


@register.filter
def points(value: Any) -> str:
    """Every score in one format, the one a score sheet uses: 1.5 → "1½", 0.5 → "½",
    2.25 → "2¼" (a Sonneborn-Berger of half points), 2.0 → "2"; finer values as decimals."""
    if not isinstance(value, int | float):
        return "" if value is None else str(value)
    if value * 4 != int(value * 4):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    whole, quarter = divmod(round(abs(value) * 4), 4)
    sign = "-" if value < 0 else ""
    if not quarter:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}{QUARTERS[quarter]}"


@register.simple_tag
def winners(standings: Any) -> list[str]:
    """The names ranked first: one Winner line, or one line naming everyone tied for first."""
    return [row["name"] for row in standings or [] if row.get("rank") == 1]


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
        return _("First match") if column.number == 1 else _("Bracket reset, if needed")
    if section == "losers":
        if column.from_end == 0:
            return _("Losers' final")
        return _("Losers round %(number)s") % {"number": column.number}
    titles = {0: _("Final"), 1: _("Semi-finals"), 2: _("Quarter-finals")}
    if column.from_end in titles:
        return titles[column.from_end]
    return _("Round %(number)s") % {"number": column.number}


@register.filter
def regulations_label(name: str) -> Any:
    return REGULATIONS.get(name, name)


@register.filter
def round_words(label: Any) -> Any:
    """A placement's round label (``W2``, ``L3``, ``P3``, ``GF1``; an episode number in a
    season) in words."""
    if isinstance(label, int):
        return _("episode %(number)s") % {"number": label}
    text = str(label)
    if text == "P3":
        return _("the third-place match")
    if text == "GF1":
        return _("the grand final")
    if text == "GF2":
        return _("the grand-final reset")
    number = text[1:]
    if text.startswith("L") and number.isdigit():
        return _("losers round %(number)s") % {"number": number}
    if text.startswith("W") and number.isdigit():
        return _("round %(number)s") % {"number": number}
    return text


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


class _Labels:
    """The words of a match box, translated once per page rather than once per box."""

    def __init__(self) -> None:
        self.winner = escape(_("winner"))
        self.live = escape(_("Watch live"))
        self.bye = escape(_("Bye"))
        self.forfeit = escape(_("Forfeit"))
        self.status = {key: escape(label) for key, label in MATCH_STATUS.items()}


def _labels(context: template.Context) -> _Labels:
    cache = context.render_context
    if "match_box_labels" not in cache:
        cache["match_box_labels"] = _Labels()
    return cache["match_box_labels"]


def _seed_names(context: template.Context) -> dict[Any, str]:
    """Who already holds a side of a match still waiting for its other side, once per page:
    by seed (a bye's winner placed in round 2: its name, not "Seed 1") and by reference
    (``"W1.1:winner"`` once W1.1 is decided: its winner's name, not "Winner of W1.1")."""
    cache = context.render_context
    if "seed_names" not in cache:
        board = context.get("board") or {}
        detail = board.get("detail") or {}
        entrants = detail.get("entrants") or []
        known: dict[Any, str] = {e["seed"]: e["name"] for e in entrants if e.get("seed")}
        for stage in (detail.get("stages") or [])[-1:]:
            for round_ in stage.get("rounds", []):
                for match in round_.get("matches", []):
                    sides = [match.get("home"), match.get("away")]
                    won = next((s for s in sides if s and s["id"] == match.get("winner")), None)
                    lost = next((s for s in sides if s and won and s["id"] != won["id"]), None)
                    if won and match.get("status") in ("finished", "closed"):
                        known[f"{match['code']}:winner"] = won["name"]
                        if lost:
                            known[f"{match['code']}:loser"] = lost["name"]
        cache["seed_names"] = known
    return cache["seed_names"]


def _side_html(
    match: dict[str, Any], index: int, labels: _Labels, seeds: dict[Any, str] | None = None
) -> str:
    side = match["home" if index == 0 else "away"]
    won = side is not None and match["winner"] == side["id"]
    slots = match.get("slots") or []
    slot = slots[index] if index < len(slots) else None
    if side is None and isinstance(slot, int | str) and slot in (seeds or {}):
        name = escape((seeds or {})[slot])
    elif side is None:
        name = f'<span class="tbd">{escape(slot_label(match, index))}</span>'
    else:
        name = escape(side["name"])
    mark = f'<span class="mark" role="img" aria-label="{labels.winner}">✓</span>' if won else ""
    score = match["home_score" if index == 0 else "away_score"]
    shown = points(score) if match["status"] == "finished" else ""
    return (
        f'<li class="side{" won" if won else ""}"><span class="name">{name}</span>{mark}'
        f'<span class="score">{shown}</span></li>'
    )


@register.simple_tag(takes_context=True)
def match_box(context: template.Context, match: dict[str, Any]) -> SafeString:
    """One match as drawn in a bracket or a season: code, its games (or its state), both
    sides with the winner marked. Built here, every value escaped, rather than by an included
    template: a 256-entrant bracket draws 511 of them."""
    labels = _labels(context)
    games = match.get("games") or []
    status = match["status"]
    if games:

        def title(number: int) -> str:
            if status == "live" and number == len(games):
                return labels.live
            return escape(_("Game %(number)s") % {"number": number})

        links = "".join(
            f'<a href="/games/{int(game)}/">{title(number)}</a>'
            for number, game in enumerate(games, start=1)
        )
        state = f'<span class="games">{links}</span>'
    elif match["result_kind"] == "bye":
        state = f'<span class="state">{labels.bye}</span>'
    elif match["result_kind"] == "forfeit":
        state = f'<span class="state">{labels.forfeit}</span>'
    elif status != "pending":
        state = f'<span class="state">{labels.status.get(status, escape(status))}</span>'
    else:
        state = ""
    code = escape(match["code"])
    seeds = _seed_names(context)
    bye = " is-bye" if match["result_kind"] == "bye" else ""
    report = _report_form(context, match) if context.get("reporting") else ""
    # Every value above is escaped or a fixed string.
    return mark_safe(
        f'<article class="match status-{escape(status)}{bye}" id="match-{code}">'
        f'<header><span class="code">{code}</span>{state}</header><ul class="sides">'
        f"{_side_html(match, 0, labels, seeds)}{_side_html(match, 1, labels, seeds)}</ul>"
        f"{report}</article>"
    )


DRAWN_FORMATS = ("swiss", "round_robin", "genius")


def _report_form(context: template.Context, match: dict[str, Any]) -> str:
    """On the organiser's bracket: a match waiting for its result is reported on its card,
    one button per outcome (nobody preselected); what the console answers is shown in the
    card, beside the buttons pressed (its feedback slot stays after the form is gone)."""
    form_id = f"card-{match['code']}"
    slot = str(form_feedback(context, form_id))
    home, away = match.get("home"), match.get("away")
    if match["status"] not in ("ready", "live") or not home or not away:
        return slot
    tournament = context["tournament"]
    action = reverse("tournament-manage-action", args=[tournament.slug, "result"])
    buttons = "".join(
        f'<button type="submit" name="winner" value="{int(side["id"])}" class="secondary small">'
        f"{escape(_('%(name)s won') % {'name': side['name']})}</button>"
        for side in (home, away)
    )
    if tournament.format in DRAWN_FORMATS:
        buttons += (
            f'<button type="submit" name="winner" value="draw" class="secondary small">'
            f"{escape(_('Draw'))}</button>"
        )
    label = escape(_("Report the result of %(code)s") % {"code": match["code"]})
    claim = (context.get("card_claims") or {}).get(match["code"])
    told = f'<span class="card-claim">{escape(claim)}</span>' if claim else ""
    token = escape(context.get("csrf_token", ""))
    # A live match the players schedule themselves (issue 28): its time is agreed on its page.
    when = reverse("match-slot", args=[tournament.slug, match["code"]])
    timing = f'<a class="card-slot" href="{escape(when)}">{escape(_("Match time…"))}</a>'
    return (
        f'<form method="post" action="{escape(action)}" id="{escape(form_id)}" '
        f'class="card-report" aria-label="{label}">'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
        f'<input type="hidden" name="match" value="{escape(match["code"])}">'
        f'{told}<span class="card-report-ask">{escape(_("Who won?"))}</span>{buttons}{timing}'
        f"</form>{slot}"
    )


@register.simple_tag(takes_context=True)
def bracket_cells(context: template.Context, column: Any, fed: int = 0) -> SafeString:
    """A bracket column's cells with their connector classes (``tournaments.bracket_layout``);
    ``fed`` is the column's index, 0 for the first, which no connector enters. The stylesheet
    places them: a column's cells share its height equally, so each spans the rows of the
    cells that feed it (no per-cell style: the Content-Security-Policy refuses inline styles)."""
    cells = []
    for cell in column.cells:
        classes = "cell" + (f" link-{cell.link}" if cell.link else "") + (" fed" if fed else "")
        cells.append(f'<li class="{classes}">{match_box(context, cell.match)}</li>')
    return mark_safe("".join(cells))  # the classes are fixed words, the rest escaped


def _feedback_html(feedback: dict[str, Any]) -> SafeString:
    lines = "".join(f"<li>{escape(line)}</li>" for line in feedback["lines"])
    kind, role = ("ok", "status") if feedback["ok"] else ("error", "alert")
    feedback["placed"] = True
    return mark_safe(  # every line escaped above
        f'<div class="form-feedback {kind}" role="{role}" tabindex="-1" data-feedback>'
        f"<ul>{lines}</ul></div>"
    )


@register.simple_tag(takes_context=True)
def form_feedback(context: template.Context, form_id: str) -> SafeString:
    """What the last htmx-posted form was told, placed inside that form (``form_id``): the
    service's refusal as an alert, or what was done as a status. Without JavaScript the same
    words arrive as messages after the redirect."""
    feedback = context.get("feedback")
    inner = ""
    if feedback and feedback.get("form") == form_id:
        feedback["in_form"] = True
        inner = _feedback_html(feedback)
    # An empty slot too: where htmx puts a refusal, the rest of the form left as typed.
    return format_html('<div class="feedback-slot" id="{}-feedback">{}</div>', form_id, inner)


@register.simple_tag(takes_context=True)
def form_feedback_rest(context: template.Context) -> SafeString:
    """The feedback no form above took: its form is gone (a registration form once
    registered) or had no id."""
    feedback = context.get("feedback")
    if not feedback or feedback.get("placed"):
        return mark_safe("")
    return _feedback_html(feedback)
