"""Private handouts ("extra info"): a host gives one player or several (a team) a text that
only they and the hosts read. Hidden information with the discipline of cards: the handout
appears in no other page, API answer, live message, notification, export, webhook or admin
list; its audit entry names the recipients but never the text. After the season the viewing
lounge shows handouts to everyone who may enter it, if the season's rules say so
(``handouts_after_season``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.formats import genius
from tournaments.models import Handout, Tournament
from tournaments.seasons import services as seasons

MAX_TEXT = 10000


MAX_FILE_BYTES = 1_000_000


def give(
    *,
    tournament: Tournament,
    by: Any,
    recipients: list[int],
    title: str,
    text: str,
    file: tuple[str, str, bytes] | None = None,
) -> Handout:
    """``file``: (name, content type, bytes) of an attachment, at most 1 MB."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("handouts belong to Genius seasons"))
        recipients = sorted(set(recipients))
        if not recipients:
            raise TournamentUserError(_("a handout goes to at least one player"))
        if tournament.entrants.filter(pk__in=recipients).count() != len(recipients):
            raise TournamentUserError(_("every recipient must be in this season"))
        title, text = title.strip(), text.strip()
        if not title or not text:
            raise TournamentUserError(_("a handout needs a title and its text"))
        if len(text) > MAX_TEXT or len(title) > 120:
            raise TournamentUserError(_("a handout is at most 10000 characters"))
        episode = tournament.episodes.order_by("-number").values_list("number", flat=True).first()
        name, kind, data = file or ("", "", b"")
        if file is not None and (not data or len(data) > MAX_FILE_BYTES):
            raise TournamentUserError(_("an attached file holds from 1 byte to 1 MB"))
        handout = Handout.objects.create(
            tournament=tournament,
            title=title,
            text=text,
            episode=episode,
            by=by,
            file_name=name.rsplit("/", 1)[-1][:120],
            file_type=(kind or "application/octet-stream")[:100],
            file_data=data,
        )
        handout.recipients.set(recipients)
        audit.log(tournament, by, "season.handout.given", handout=handout.pk, recipients=recipients)
        return handout


def visible_to(tournament: Tournament, user: Any) -> QuerySet[Handout]:
    """A host reads every handout; a player those given to them; after the season, if the
    rules say so, everyone who may enter the lounge (``lounge``)."""
    rows = tournament.handouts.prefetch_related("recipients").order_by("pk")
    if runs(tournament, user):
        return rows
    if not getattr(user, "is_authenticated", False):
        return rows.none()
    return rows.filter(recipients__user=user).distinct()


def public_after_season(tournament: Tournament) -> bool:
    return (
        tournament.status == Tournament.Status.FINISHED
        and seasons.rules_for(tournament).handouts_after_season
    )
