"""The public log: what anyone may read of each applied action, said in words by code.

An entry is ``{"seq", "seat", "events"}``: the engine's public events of one logged action
(``Engine.public_events``), each with the ``line`` that names its sentence in ``LINES``.
The page embeds the whole log of the game so far, every payload of a commit carries that
commit's entries, and ``GET /api/games/<id>/public-log`` fills any gap (a dropped stream).
The sentences are translated here, by line code; nothing parses the engines' English.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext, ngettext, trans_real
from django.utils.translation import gettext_lazy as _

from games import engines, store
from games.engines.refusals import MESSAGES
from games.models import GameSession

Entry = dict[str, Any]

# Placeholders name the event's fields; the page writes each value in words (seat names,
# card names, colours). Variants of one event type are "type.variant" (see ``_line``).
LINES: dict[str, dict[str, Any]] = {
    "color_clash": {
        "round_started": _("Round {round} is dealt; {top} is turned up."),
        "played": _("{seat} played {card}."),
        "played.wild": _("{seat} played {card}; the colour is now {color}."),
        "color_chosen": _("{seat} chose {color} for the turned Wild."),
        "drew": _("{seat} drew a card."),
        "drew.many": _("{seat} drew {count} cards."),
        "drew.penalty": _("{seat} must draw {count} cards."),
        "skipped": _("{seat} is skipped."),
        "passed": _("{seat} passed."),
        "last_card_called": _("{seat} called “Last card!”"),
        "catch_held": _(
            "{seat} pressed Catch on {target}: it counts if {target} has not called in a second."
        ),
        "catch_dropped": _("{target} called in time: the Catch does not count."),
        "caught": _("{target} was caught without calling “Last card!” by {seat}."),
        "went_out": _("{seat} is out in place {place}."),
        "timed_out": _("{seat} ran out of time."),
        "substitute.on": _("{seat} is now played by a computer substitute."),
        "substitute.off": _("{seat} is back at the table."),
        "round_ended": _("Round {round} is over: {winner} won it."),
        "round_ended.none": _("Round {round} is over with no winner."),
        "match_ended": _("The match is over."),
    },
    "drafting_trios": {
        "round_started": _("Round {round}: drafting begins."),
        "chosen": _("{seat} has chosen."),
        "card_named": _("{seat} named a card (Heart of the Cards)."),
        "piles_swapped": _("The piles were swapped."),
        "mulligan": _("{seat} took a mulligan."),
        "no_pile": _("{seat} has no pile left to draft."),
        "trio": _("{seat} scored {score} in {category}."),
        "discarded": _("{seat} discarded three cards for {points} points."),
        "power": _("{seat} activated {card}."),
        "destroyed": _("{category} of {seat} was destroyed."),
        "earthquake_without_target": _("The Earthquake of {seat} found no category."),
        "burned": _("{seat} burned {cards} cards."),
        "burn_drawn": _("{seat} draws {cards} cards after Burn."),
        "reshuffled": _("The discards of {seat} were shuffled into a new deck."),
        "game_over": _("{winner} wins the Death Match."),
        "game_over.none": _("The game ended in a draw."),
    },
    "dropmix": {
        "turn": _("Turn {turn}: {side} to play."),
        "dropped": _("{seat} dropped {card} on slot {slot}."),
        "fx": _("{card} takes effect."),
        "missing_colour": _("{side} filled the missing colour {colour}."),
        "spinning": _("{seat} spins the Equalizer…"),
        "spun": _("The Equalizer landed on {result}."),
        "spun.cleared": _("The Equalizer landed on {result} and cleared slots {cleared}."),
        "retracted": _("{seat} took the move back."),
        "final": _("The move of {seat} is final."),
        "passed": _("{seat} passed the extra moves."),
        "chose": _("{seat} chose a card from their deck."),
        "drew": _("{seat} drew {count} cards."),
        "timed_out": _("Time ran out for {seats}."),
        "scored": _("{side} scored {points} points."),
        "lost": _("{side} lost {points} points."),
        "won": _("{side} won with {score} points."),
    },
}

# The lines that hold a count, said in the plural form the count takes in the page's language:
# (the field holding the count, the sentence for a count ``n``). A list field counts its items.
PLURALS: dict[str, dict[str, tuple[str, Any]]] = {
    "color_clash": {
        "drew.many": (
            "count",
            lambda n: ngettext("{seat} drew {count} card.", "{seat} drew {count} cards.", n),
        ),
        "drew.penalty": (
            "count",
            lambda n: ngettext(
                "{seat} must draw {count} card.", "{seat} must draw {count} cards.", n
            ),
        ),
    },
    "drafting_trios": {
        "trio": (
            "score",
            lambda n: ngettext(
                "{seat} scored {score} point in {category}.",
                "{seat} scored {score} points in {category}.",
                n,
            ),
        ),
        "discarded": (
            "points",
            lambda n: ngettext(
                "{seat} discarded three cards for {points} point.",
                "{seat} discarded three cards for {points} points.",
                n,
            ),
        ),
        "burned": (
            "cards",
            lambda n: ngettext("{seat} burned {cards} card.", "{seat} burned {cards} cards.", n),
        ),
        "burn_drawn": (
            "cards",
            lambda n: ngettext(
                "{seat} draws {cards} card after Burn.", "{seat} draws {cards} cards after Burn.", n
            ),
        ),
    },
    "dropmix": {
        "spun.cleared": (
            "cleared",
            lambda n: ngettext(
                "The Equalizer landed on {result} and cleared slot {cleared}.",
                "The Equalizer landed on {result} and cleared slots {cleared}.",
                n,
            ),
        ),
        "drew": (
            "count",
            lambda n: ngettext("{seat} drew {count} card.", "{seat} drew {count} cards.", n),
        ),
        "scored": (
            "points",
            lambda n: ngettext(
                "{side} scored {points} point.", "{side} scored {points} points.", n
            ),
        ),
        "lost": (
            "points",
            lambda n: ngettext("{side} lost {points} point.", "{side} lost {points} points.", n),
        ),
        "won": (
            "score",
            lambda n: ngettext(
                "{side} won with {score} point.", "{side} won with {score} points.", n
            ),
        ),
    },
}

# Words that stand for themselves in events and refusals: colours, in the page's language.
WORDS = {
    "red": _("red"),
    "blue": _("blue"),
    "yellow": _("yellow"),
    "green": _("green"),
}


def _variant(event: dict[str, Any]) -> str | None:
    kind = event["type"]
    if kind == "played" and event.get("color"):
        return "wild"
    if kind == "drew":
        return "penalty" if event.get("penalty") else "many" if event.get("count") != 1 else None
    if kind == "substitute":
        return "on" if event.get("on") else "off"
    if kind in ("round_ended", "game_over") and event.get("winner") is None:
        return "none"
    if kind == "spun" and event.get("cleared"):
        return "cleared"
    return None


def _line(lines: dict[str, Any], event: dict[str, Any]) -> str:
    """The sentence's key: the event's type, or its variant where the engine has one."""
    variant = f"{event['type']}.{_variant(event)}"
    return variant if variant in lines else event["type"]


def entry(engine_key: str, seq: int, seat: int | None, events: list[Any]) -> Entry:
    """One logged action as everyone may read it."""
    public = engines.get(engine_key).public_events(events)
    lines = LINES.get(engine_key, {})
    return {"seq": seq, "seat": seat, "events": [{**e, "line": _line(lines, e)} for e in public]}


def history(game: GameSession) -> list[Entry]:
    """The whole public log so far, oldest first."""
    rows = game.log.order_by("seq").values_list("seq", "seat", "events")
    return [entry(game.engine, seq, seat, events) for seq, seat, events in rows]


def recent(game: GameSession, log: list[store.LogEntry]) -> list[Entry]:
    """The entries of one commit's newly applied actions."""
    return [entry(game.engine, e.seq, e.seat, e.events) for e in log]


def plural_forms(engine_key: str) -> dict[str, dict[str, Any]]:
    """Each counted line's forms in the active language, by plural index: the page picks one
    with the JavaScript catalogue's ``pluralidx``, which follows the same language's rule."""
    plural = trans_real.translation(get_language() or "en").plural
    examples: dict[int, int] = {}
    # the smallest count of each form: the rules settle below 200, but for millions (pt-BR)
    for n in [*range(201), 1_000_000]:
        examples.setdefault(int(plural(n)), n)
    indexes = range(max(examples) + 1)
    return {
        line: {"key": key, "forms": [sentence(examples.get(i, 2)) for i in indexes]}
        for line, (key, sentence) in PLURALS.get(engine_key, {}).items()
    }


def wording(engine_key: str) -> dict[str, dict[str, Any]]:
    """The sentences a page needs, in the active language: the engine's log lines (with the
    plural forms of those that count), every refusal by code, and the shared words."""
    return {
        "lines": {key: str(text) for key, text in LINES.get(engine_key, {}).items()},
        "plurals": plural_forms(engine_key),
        "refusals": {code: gettext(message) for code, message in MESSAGES.items()},
        "words": {key: str(text) for key, text in WORDS.items()},
    }
