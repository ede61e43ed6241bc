"""The audit log read by people: each entry as one translated sentence naming the people and
matches it concerns ("Ana corrected W1.2: Bruno wins (was Carla)"), in the reader's language.

The entries keep ids (``entrant=10``, ``winner=4``) so that they stay true when a name changes;
``sentences`` looks the names up once per page and says each entry with them. The reason is
shown beside the sentence, the raw before/after behind a disclosure (the audit page).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import AuditEntry, Entrant

# The data keys that hold an entrant's id.
PEOPLE_KEYS = (
    "entrant",
    "winner",
    "loser",
    "to",
    "giver",
    "receiver",
    "ec",
    "dmo",
    "claimed_by",
    "claimed_winner",
)

# Actions said as "<who> <what>" without anyone else named: the label is the "what".
PLAIN = {
    "tournaments.registration.opened": gettext_lazy("%(actor)s opened registration"),
    "tournaments.check_in.opened": gettext_lazy("%(actor)s opened check-in"),
    "tournaments.tournament.created": gettext_lazy("%(actor)s created the tournament"),
    "tournaments.tournament.edited": gettext_lazy("%(actor)s changed the settings"),
    "tournaments.tournament.finished": gettext_lazy("The tournament finished"),
    "tournaments.season.started": gettext_lazy("%(actor)s started the season"),
    "tournaments.season.main_match": gettext_lazy("%(actor)s recorded the main match"),
    "tournaments.season.main_match_game": gettext_lazy(
        "%(actor)s started the main match as a hosted game"
    ),
    "tournaments.season.candidates": gettext_lazy("The elimination candidates were named"),
    "tournaments.season.sealed_opened": gettext_lazy("%(actor)s opened sealed answers"),
    "tournaments.season.sealed_revealed": gettext_lazy("%(actor)s revealed the sealed answers"),
    "tournaments.season.death_match_setup": gettext_lazy(
        "%(actor)s set how the Death Match is played"
    ),
    "tournaments.season.final_paired": gettext_lazy("The season's final was paired"),
    "tournaments.season.episode_reset": gettext_lazy("%(actor)s reset the episode"),
    "tournaments.season.episode_removed": gettext_lazy("%(actor)s removed the episode"),
    "tournaments.season.dm_pick.drawn": gettext_lazy(
        "%(actor)s drew the Death Match game by lottery"
    ),
    "tournaments.season.dm_pick.bans_opened": gettext_lazy(
        "%(actor)s set the Death Match game to be chosen by bans"
    ),
    "tournaments.season.dm_pick.chosen": gettext_lazy("The bans left the Death Match game"),
    "tournaments.season.activity.opened": gettext_lazy("%(actor)s opened an activity check"),
    "tournaments.season.activity.applied": gettext_lazy(
        "The activity check's cut-off passed and its policy was applied"
    ),
    "tournaments.season.question.asked": gettext_lazy("%(actor)s asked the hosts a rule question"),
    "tournaments.season.question.answered": gettext_lazy(
        "%(actor)s answered a rule question privately"
    ),
    "tournaments.season.question.published": gettext_lazy(
        "%(actor)s published an answer as a clarification"
    ),
    "tournaments.webhook.created": gettext_lazy("%(actor)s added a webhook"),
    "tournaments.webhook.edited": gettext_lazy("%(actor)s changed a webhook"),
    "tournaments.webhook.deleted": gettext_lazy("%(actor)s deleted a webhook"),
    "disputes.filed": gettext_lazy("%(actor)s filed a dispute on %(match)s"),
    "disputes.commented": gettext_lazy("%(actor)s commented on the dispute on %(match)s"),
    "disputes.assigned": gettext_lazy("%(actor)s took the dispute on %(match)s"),
    "disputes.withdrawn": gettext_lazy("%(actor)s withdrew the dispute on %(match)s"),
    "disputes.ruled": gettext_lazy("%(actor)s ruled on the dispute on %(match)s"),
    "disputes.resumed": gettext_lazy("%(actor)s resumed the game disputed on %(match)s"),
    "tournaments.slot.opened": gettext_lazy(
        "%(actor)s let the players of %(match)s agree its time"
    ),
    "tournaments.slot.set": gettext_lazy("%(actor)s set the time of %(match)s"),
    "tournaments.slot.defaulted": gettext_lazy(
        "%(match)s starts at its window's end: no time was agreed"
    ),
    "games.clock.paused": gettext_lazy("%(actor)s paused the clocks"),
    "games.clock.resumed": gettext_lazy("%(actor)s resumed the clocks"),
}

# Actions that name someone besides the actor.
ABOUT = {
    "tournaments.entrant.registered": gettext_lazy("%(entrant)s registered"),
    "tournaments.entrant.checked_in": gettext_lazy("%(actor)s checked in %(entrant)s"),
    "tournaments.entrant.promoted": gettext_lazy(
        "%(actor)s gave %(entrant)s a place from the waitlist"
    ),
    "tournaments.entrant.withdrawn": gettext_lazy("%(actor)s withdrew %(entrant)s"),
    "tournaments.entrant.disqualified": gettext_lazy("%(actor)s disqualified %(entrant)s"),
    "tournaments.entrant.reinstated": gettext_lazy("%(actor)s put %(entrant)s back in"),
    "tournaments.entrant.no_show_withdrawn": gettext_lazy(
        "%(actor)s started without %(entrant)s, who did not check in"
    ),
    "tournaments.match.forfeited": gettext_lazy("%(winner)s wins %(match)s by forfeit"),
    "tournaments.slot.proposed": gettext_lazy("%(entrant)s proposed a time for %(match)s"),
    "tournaments.slot.agreed": gettext_lazy("%(entrant)s accepted a time for %(match)s"),
    "tournaments.slot.checked_in": gettext_lazy("%(entrant)s checked in for %(match)s"),
    "tournaments.slot.no_show": gettext_lazy(
        "%(winner)s wins %(match)s: the opponent did not show up"
    ),
    "tournaments.season.token_given": gettext_lazy(
        "%(giver)s gave a Token of Life to %(receiver)s"
    ),
    "tournaments.season.opponent_chosen": gettext_lazy(
        "%(ec)s chose %(dmo)s as Death Match opponent"
    ),
    "tournaments.season.eliminated": gettext_lazy("%(entrant)s was eliminated"),
    "tournaments.season.won": gettext_lazy("%(entrant)s won the season"),
    "tournaments.season.reinstated": gettext_lazy("%(actor)s put %(entrant)s back in the season"),
    "tournaments.season.dm_pick.banned": gettext_lazy("%(entrant)s banned a Death Match game"),
    "tournaments.season.dm_advantage": gettext_lazy("%(actor)s gave %(entrant)s the DM Advantage"),
    "tournaments.season.activity.warned": gettext_lazy(
        "%(entrant)s missed the activity check and was warned"
    ),
    "tournaments.season.activity.fined": gettext_lazy(
        "%(entrant)s missed the activity check and paid a garnet fine"
    ),
    "tournaments.season.activity.removed": gettext_lazy(
        "%(entrant)s missed the activity check and left the season"
    ),
    "tournaments.season.activity.replaced": gettext_lazy(
        "%(entrant)s took the place of a player who missed the activity check"
    ),
    "tournaments.season.confessional.written": gettext_lazy(
        "%(entrant)s wrote a confessional entry"
    ),
}


def _people_ids(entry: AuditEntry) -> set[int]:
    data = entry.data or {}
    ids = {data.get(key) for key in PEOPLE_KEYS}
    ids.add((data.get("previous") or {}).get("winner"))
    ids.add((entry.before or {}).get("winner") if isinstance(entry.before, dict) else None)
    return {value for value in ids if type(value) is int}


def names_for(entries: Iterable[AuditEntry]) -> dict[int, tuple[str, int | None]]:
    """Entrant id -> (display name, account) for every person the entries name, one query."""
    ids: set[int] = set()
    for entry in entries:
        ids |= _people_ids(entry)
    rows = Entrant.objects.filter(pk__in=ids).values_list("pk", "display_name", "user_id")
    return {pk: (display_name, user_id) for pk, display_name, user_id in rows}


# What a player did themselves, said without naming them twice ("Ana checked in").
BY_THEMSELVES = {
    "tournaments.entrant.checked_in": gettext_lazy("%(entrant)s checked in"),
    "tournaments.entrant.withdrawn": gettext_lazy("%(entrant)s withdrew"),
}


def actor_name(entry: AuditEntry) -> str:
    return entry.actor.get_username() if entry.actor else _("the system")


def sentence(entry: AuditEntry, names: dict[int, tuple[str, int | None]]) -> str:
    """One entry, said: who did what to whom (by name), in the active language."""
    data = entry.data or {}

    def name(value: Any) -> str:
        if value is None:
            return _("nobody")
        known = names.get(value)
        return known[0] if known else _("entrant %(id)s") % {"id": value}

    words: dict[str, Any] = {"actor": actor_name(entry), "match": data.get("match", "")}
    for key in PEOPLE_KEYS:
        if key in data:
            words[key] = name(data[key])
    action = entry.action
    if action in ("tournaments.match.result_entered", "tournaments.match.result_corrected"):
        return _result(entry, words, name)
    if action in CLAIMS:
        return _claim(entry, words, name)
    if action == "tournaments.match.result_from_games":
        return _("%(match)s was decided by its games") % words
    if action == "tournaments.match.reset":
        return _("%(match)s was reset by the correction of %(corrected)s") % {
            **words,
            "corrected": data.get("corrected", ""),
        }
    if action == "tournaments.tournament.reopened":
        return _("%(actor)s reopened the tournament by correcting %(corrected)s") % {
            **words,
            "corrected": data.get("corrected", ""),
        }
    if action == "tournaments.seeding.applied":
        return _("%(actor)s applied the seeding") % words
    if action == "tournaments.stage.started":
        count = data.get("entrants") or 0
        return ngettext(
            "%(actor)s started the tournament with %(count)s entrant",
            "%(actor)s started the tournament with %(count)s entrants",
            count,
        ) % {**words, "count": count}
    if action == "tournaments.round.started":
        return _("%(actor)s paired round %(round)s") % {**words, "round": data.get("round", "")}
    if action.startswith("tournaments.season.ledger."):
        return _("%(actor)s recorded %(amount)s garnets for %(entrant)s") % {
            **words,
            "amount": data.get("amount", ""),
        }
    if action.startswith("tournaments.season.transfer."):
        return _transfer(action.rsplit(".", 1)[1], data, words)
    if action == "tournaments.season.rules.changed":
        return _("%(actor)s published version %(version)s of the rules") % {
            **words,
            "version": data.get("version", ""),
        }
    if action == "tournaments.season.handout.given":
        count = len(data.get("recipients") or [])
        return ngettext(
            "%(actor)s gave a handout to %(count)s player",
            "%(actor)s gave a handout to %(count)s players",
            count,
        ) % {**words, "count": count}
    if action in ("hosting.role.granted", "hosting.role.revoked"):
        template = (
            _("%(actor)s made %(user)s %(role)s")
            if action.endswith("granted")
            else _("%(actor)s took the %(role)s role from %(user)s")
        )
        return template % {**words, "user": data.get("user", ""), "role": data.get("role", "")}
    if action == "hosting.organiser_request.filed":
        return _("%(actor)s asked to become an organiser") % words
    if action == "hosting.organiser_request.declined":
        return _("%(actor)s declined the organiser request of %(user)s") % {
            **words,
            "user": data.get("user", ""),
        }
    if action in ABOUT:
        own = names.get(data.get("entrant"), ("", None))[1]
        by_themselves = action in BY_THEMSELVES and own and own == entry.actor_id
        said = str((BY_THEMSELVES if by_themselves else ABOUT)[action]) % _defaulted(words)
        forfeited = data.get("forfeited") or []
        if forfeited:
            said += " — " + _("forfeited: %(matches)s") % {"matches": ", ".join(forfeited)}
        return said
    if action in PLAIN:
        return str(PLAIN[action]) % _defaulted(words)
    return _("%(actor)s: %(action)s") % {**words, "action": action}


def _transfer(step: str, data: dict[str, Any], words: dict[str, Any]) -> str:
    """A garnet transfer's step; a private one's entry names neither its players nor amount."""
    if data.get("private"):
        private = {
            "offered": _("%(actor)s offered a private garnet transfer"),
            "done": _("A private garnet transfer was done"),
            "declined": _("%(actor)s declined a private garnet transfer"),
            "withdrawn": _("%(actor)s withdrew a private garnet transfer"),
        }
        return private.get(step, private["done"]) % words
    said = {
        "offered": _("%(entrant)s offered %(amount)s garnets to %(to)s"),
        "done": _("%(entrant)s transferred %(amount)s garnets to %(to)s"),
        "declined": _("%(actor)s declined the transfer of %(amount)s garnets to %(to)s"),
        "withdrawn": _("%(actor)s withdrew the transfer of %(amount)s garnets to %(to)s"),
    }
    return said.get(step, said["done"]) % {**_defaulted(words), "amount": data.get("amount", "")}


def _defaulted(words: dict[str, Any]) -> dict[str, Any]:
    """Every name a sentence may ask for, "nobody" when the entry has none."""
    return {key: _("nobody") for key in PEOPLE_KEYS} | words


def _result(entry: AuditEntry, words: dict[str, Any], name: Any) -> str:
    data = entry.data or {}
    winner = data.get("winner")
    outcome = _("a draw") if winner is None else _("%(name)s wins") % {"name": name(winner)}
    if entry.action == "tournaments.match.result_entered":
        return _("%(actor)s entered %(match)s: %(outcome)s") % {**words, "outcome": outcome}
    previous = (data.get("previous") or {}).get("winner")
    was = _("a draw") if previous is None else name(previous)
    return _("%(actor)s corrected %(match)s: %(outcome)s (was %(was)s)") % {
        **words,
        "outcome": outcome,
        "was": was,
    }


CLAIMS = (
    "tournaments.match.result_claimed",
    "tournaments.match.result_confirmed",
    "tournaments.match.result_contested",
)


def _claim(entry: AuditEntry, words: dict[str, Any], name: Any) -> str:
    """A player's own report of their match (``services.claims``), said with both names."""
    data = entry.data or {}

    def outcome(winner: Any) -> str:
        return _("a draw") if winner is None else _("%(name)s wins") % {"name": name(winner)}

    said = {**words, "outcome": outcome(data.get("winner"))}
    if entry.action == "tournaments.match.result_claimed":
        return _("%(entrant)s reported %(match)s: %(outcome)s") % said
    if entry.action == "tournaments.match.result_confirmed":
        return _("%(entrant)s confirmed %(claimed_by)s's report of %(match)s: %(outcome)s") % said
    return _(
        "%(entrant)s disputed %(claimed_by)s's report of %(match)s: %(outcome)s, not "
        "%(claimed)s; the organiser decides"
    ) % {**said, "claimed": outcome(data.get("claimed_winner"))}


def sentences(entries: list[AuditEntry]) -> list[AuditEntry]:
    """The entries, each with its ``sentence`` said (names looked up once)."""
    names = names_for(entries)
    system = _("the system")
    for entry in entries:
        said = sentence(entry, names)
        # A sentence starts with a capital; a person's name stays as they spell it.
        entry.sentence = capfirst(said) if said.startswith(system) else said
    return entries
