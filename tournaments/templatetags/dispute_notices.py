"""Disputes where the parties meet them: on the game's page (file one, see its state) and on
the tournament's page (the decisions on their matches). Each tag shows a reader only the
disputes ``tournaments.disputes.services.visible_to`` gives them."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.disputes import services as disputes
from tournaments.models import MatchGame, Tournament

register = template.Library()


@register.inclusion_tag("disputes/_game_notice.html", takes_context=True)
def game_disputes(context: dict[str, Any], game: Any) -> dict[str, Any]:
    user = context["request"].user
    paused = {"show": True, "paused": True} if game.is_paused else {"show": False}
    if not user.is_authenticated:  # spectators file nothing: no query for them
        return paused
    link = MatchGame.objects.select_related(
        "match__stage__tournament", "match__home", "match__away"
    )
    link = link.filter(game_id=game.pk).first()
    if link is None:
        return paused
    match = link.match
    tournament = match.stage.tournament
    may_file = disputes.party_of(match, user) is not None or user.pk == tournament.organiser_id
    staff = context.get("is_staff_admin")
    found = disputes.visible_to(user, staff=staff).filter(match=match).order_by("-filed_at")
    rows = list(found[:5])
    return {
        "show": may_file or bool(rows) or game.is_paused,
        "paused": game.is_paused,
        "may_file": may_file,
        "tournament": tournament,
        "match": match,
        "disputes": rows,
    }


@register.inclusion_tag("disputes/_tournament_notice.html", takes_context=True)
def tournament_disputes(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """One query, and none for a reader who neither plays in nor runs the tournament (the
    page already knows both: ``me`` and ``runs``)."""
    user = context["request"].user
    if not (context.get("runs") or (context.get("me") or {}).get("entrant")):
        return {"disputes": [], "tournament": tournament}
    staff = context.get("is_staff_admin")
    found = disputes.visible_to(user, staff=staff).filter(tournament=tournament)
    found = found.order_by("-filed_at")
    return {"disputes": list(found[:20]), "tournament": tournament}
