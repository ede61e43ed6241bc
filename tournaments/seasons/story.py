"""Each episode's story, told to anyone afterwards: the main match, the candidates, the Tokens
of Life, the picks, the Death Matches and who went out, with the public garnet entries. Only
public facts: sealed answers appear once revealed (the board shows them), private transfers,
handouts and confessionals never."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import LedgerEntry, Tournament
from tournaments.seasons import tokens as token_record


def _names(ids: list[Any], names: dict[int, str]) -> str:
    return ", ".join(str(names.get(int(i), i)) for i in ids)


def _token_sentence(kind: str, who: str, count: int) -> str:
    sentences = {
        "won": ngettext(
            "%(who)s won %(n)s Token of Life", "%(who)s won %(n)s Tokens of Life", count
        ),
        "given": ngettext(
            "%(who)s gave away %(n)s Token of Life", "%(who)s gave away %(n)s Tokens of Life", count
        ),
        "received": ngettext(
            "%(who)s received %(n)s Token of Life", "%(who)s received %(n)s Tokens of Life", count
        ),
        "used": ngettext(
            "%(who)s was protected by %(n)s Token of Life",
            "%(who)s was protected by %(n)s Tokens of Life",
            count,
        ),
        "expired": ngettext(
            "%(who)s's %(n)s unused Token of Life expired",
            "%(who)s's %(n)s unused Tokens of Life expired",
            count,
        ),
        "lost": ngettext(
            "%(who)s left with %(n)s Token of Life",
            "%(who)s left with %(n)s Tokens of Life",
            count,
        ),
    }
    return sentences[kind] % {"who": who, "n": count}


def stories(
    tournament: Tournament,
    episodes: list[dict[str, Any]],
    names: dict[int, str],
    public_ledger: list[LedgerEntry],
) -> dict[int, list[str]]:
    """Episode number -> its story in sentences, for every finished episode."""
    tokens = token_record.by_episode(tournament)
    eliminated = dict(
        tournament.entrants.filter(eliminated_in__isnull=False).values_list(
            "eliminated_in", "display_name"
        )
    )
    told: dict[int, list[str]] = {}
    for episode in episodes:
        if episode["status"] != "finished":
            continue
        number = episode["number"]
        lines: list[str] = []
        if episode["kind"] == "final":
            lines.append(_("The two finalists played the final."))
        if episode["winners"]:
            lines.append(
                _("Main match (MM) won by %(winners)s; lost by %(losers)s.")
                % {
                    "winners": _names(episode["winners"], names),
                    "losers": _names(episode["losers"], names),
                }
            )
        for entry in tokens.get(number, []):
            lines.append(_token_sentence(entry.kind, entry.entrant.display_name, entry.count))
        if episode["ecs"]:
            lines.append(
                _("Elimination candidate(s) (EC): %(ecs)s.")
                % {"ecs": _names(episode["ecs"], names)}
            )
        for ec, dmo in episode["dmos"].items():
            lines.append(
                _("%(ec)s picked %(dmo)s as Death Match opponent (DMO).")
                % {"ec": names.get(int(ec), ec), "dmo": names.get(int(dmo), dmo)}
            )
        for entry in public_ledger:
            if entry.episode == number:
                lines.append(
                    _("%(who)s: %(kind)s of %(amount)s %(currency)s (%(reason)s).")
                    % {
                        "who": entry.entrant.display_name,
                        "kind": entry.kind,
                        "amount": entry.amount,
                        "currency": entry.currency,
                        "reason": entry.reason,
                    }
                )
        if number in eliminated and episode["kind"] == "final":
            lines.append(_("%(who)s lost the final.") % {"who": eliminated[number]})
        elif number in eliminated:
            lines.append(
                _("%(who)s lost the Death Match (DM) and was eliminated.")
                % {"who": eliminated[number]}
            )
        told[number] = lines
    return told
