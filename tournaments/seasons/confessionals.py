"""Confessionals and the viewing lounge.

A confessional is a player's private diary: they write entries, the hosts read them live, and
everyone reads them after the season only if the season's rules say so
(``confessionals_after_season``). The viewing lounge is the page of the eliminated (and the
hosts): what the rules let the eliminated see — the sealed answers of revealed main matches,
the season's public story, and after the season the handouts and confessionals if allowed —
and never a live game's hidden state, which it does not read at all.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import runs
from tournaments.formats import genius
from tournaments.models import Confessional, Entrant, SealedSubmission, Tournament
from tournaments.seasons import handouts
from tournaments.seasons import services as seasons

MAX_TEXT = 5000


def write(*, tournament: Tournament, by: Any, entrant: Entrant, text: str) -> Confessional:
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if getattr(by, "pk", None) != entrant.user_id or entrant.tournament_id != tournament.pk:
            raise Forbidden(_("players write their own confessionals"))
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("confessionals belong to Genius seasons"))
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(_("confessionals are written while the season runs"))
        text = text.strip()
        if not text:
            raise TournamentUserError(_("an empty confessional cannot be saved"))
        if len(text) > MAX_TEXT:
            raise TournamentUserError(_("a confessional is at most 5000 characters"))
        episode = tournament.episodes.order_by("-number").values_list("number", flat=True).first()
        entry = Confessional.objects.create(
            tournament=tournament, entrant=entrant, episode=episode, text=text
        )
        audit.log(tournament, by, "season.confessional.written", entrant=entrant.pk)
        return entry


def public_after_season(tournament: Tournament) -> bool:
    return (
        tournament.status == Tournament.Status.FINISHED
        and seasons.rules_for(tournament).confessionals_after_season
    )


def visible_to(tournament: Tournament, user: Any) -> QuerySet[Confessional]:
    """Hosts read all; a player their own; everyone all after the season if allowed."""
    rows = tournament.confessionals.select_related("entrant").order_by("pk")
    if runs(tournament, user) or public_after_season(tournament):
        return rows
    if not getattr(user, "is_authenticated", False):
        return rows.none()
    return rows.filter(entrant__user=user)


def may_enter_lounge(tournament: Tournament, user: Any) -> bool:
    """The eliminated and the hosts; after the season, every player of it."""
    if runs(tournament, user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    mine = tournament.entrants.filter(user=user).first()
    if mine is None:
        return False
    return mine.eliminated_in is not None or tournament.status == Tournament.Status.FINISHED


def lounge(tournament: Tournament, user: Any) -> dict[str, Any]:
    """What the lounge shows ``user`` (who may enter it): revealed sealed answers, and after
    the season the handouts and confessionals the rules release. Nothing live or hidden."""
    if not may_enter_lounge(tournament, user):
        raise Forbidden(_("the viewing lounge is for eliminated players and the hosts"))
    answers = (
        SealedSubmission.objects.filter(episode__tournament=tournament, episode__mm_revealed=True)
        .select_related("episode", "entrant")
        .order_by("episode__number", "submitted_at")
    )
    after = tournament.status == Tournament.Status.FINISHED
    shown_handouts = (
        list(tournament.handouts.prefetch_related("recipients").order_by("pk"))
        if handouts.public_after_season(tournament)
        else []
    )
    diaries = list(visible_to(tournament, user)) if public_after_season(tournament) else []
    out = tournament.entrants.filter(eliminated_in__isnull=False).order_by("eliminated_in")
    return {
        "answers": list(answers),
        "handouts": shown_handouts,
        "confessionals": diaries,
        "eliminated": list(out),
        "season_over": after,
    }
