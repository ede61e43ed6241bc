"""Rule questions and the season's versioned rules.

A player asks the hosts privately; a host answers privately (only the asker and the hosts
read it) or publishes the question and answer as a clarification on the season's rules page,
anonymised unless the asker agreed to be named. The rules are versioned: editing them or
publishing a clarification adds a ``RulesVersion`` with a line for the change log, and
``signals.rules_changed`` tells whoever listens (the notifications) which players to tell.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from hosting.core.errors import Conflict, Forbidden
from tournaments.core import audit
from tournaments.core.errors import TournamentUserError
from tournaments.core.locking import lock_tournament
from tournaments.core.permissions import check_runs, runs
from tournaments.formats import genius
from tournaments.models import Entrant, RuleQuestion, RulesVersion, Tournament
from tournaments.seasons import services as seasons
from tournaments.seasons.signals import send_rules_changed

MAX_TEXT = 2000


def current_rules(tournament: Tournament) -> RulesVersion | None:
    return tournament.rules_versions.order_by("-number").first()


def _new_version(tournament: Tournament, by: Any, text: str, change: str) -> RulesVersion:
    latest = current_rules(tournament)
    version = RulesVersion.objects.create(
        tournament=tournament,
        number=(latest.number + 1) if latest else 1,
        text=text,
        change=change[:300],
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    players = seasons.season_for(tournament).players
    users = list(Entrant.objects.filter(pk__in=players).values_list("user_id", flat=True))
    send_rules_changed(tournament, version, users)
    return version


def rules_edit(*, tournament: Tournament, by: Any, text: str, change: str) -> RulesVersion:
    """A host publishes the season's rules anew, saying what changed."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        check_runs(tournament, by)
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("only a Genius season has a rules page"))
        if not text.strip() or not change.strip():
            raise TournamentUserError(_("the rules need their text and a line on what changed"))
        version = _new_version(tournament, by, text.strip(), change.strip())
        audit.log(tournament, by, "season.rules.changed", version=version.number)
        return version


def ask(*, tournament: Tournament, by: Any, entrant: Entrant, text: str, anonymous: bool = True):
    """A player asks the hosts a rule question, privately."""
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        if getattr(by, "pk", None) != entrant.user_id or entrant.tournament_id != tournament.pk:
            raise Forbidden(_("players ask their own questions"))
        if tournament.format != genius.KEY:
            raise TournamentUserError(_("only a Genius season takes rule questions"))
        text = text.strip()
        if not text:
            raise TournamentUserError(_("an empty question cannot be asked"))
        if len(text) > MAX_TEXT:
            raise TournamentUserError(_("a question is at most 2000 characters"))
        question = RuleQuestion.objects.create(
            tournament=tournament, asker=entrant, text=text, anonymous=anonymous
        )
        audit.log(tournament, by, "season.question.asked", question=question.pk)
        return question


def answer(*, question: RuleQuestion, by: Any, text: str, publish: bool = False) -> RuleQuestion:
    """A host answers: privately, or published as a clarification (a new rules version)."""
    with transaction.atomic():
        tournament = lock_tournament(question.tournament)
        question = RuleQuestion.objects.select_for_update().get(pk=question.pk)
        check_runs(tournament, by)
        if question.status == RuleQuestion.Status.PUBLISHED:
            raise Conflict(_("this question is already published as a clarification"))
        text = text.strip()
        if not text:
            raise TournamentUserError(_("an empty answer cannot be sent"))
        question.answer = text
        question.answered_by = by
        question.answered_at = timezone.now()
        question.status = RuleQuestion.Status.ANSWERED
        if publish:
            latest = current_rules(tournament)
            question.rules_version = _new_version(
                tournament,
                by,
                latest.text if latest else "",
                _("Clarification: %(question)s") % {"question": question.text[:200]},
            )
            question.status = RuleQuestion.Status.PUBLISHED
        question.save()
        audit.log(
            tournament,
            by,
            "season.question.published" if publish else "season.question.answered",
            question=question.pk,
        )
        return question


def visible_to(tournament: Tournament, user: Any) -> QuerySet[RuleQuestion]:
    """Questions ``user`` may read: a host all, a player their own; published ones are read
    through ``clarifications``."""
    rows = tournament.rule_questions.select_related("asker")
    if runs(tournament, user):
        return rows
    if not getattr(user, "is_authenticated", False):
        return rows.none()
    return rows.filter(asker__user=user)


def clarifications(tournament: Tournament) -> list[dict[str, Any]]:
    """The published clarifications as everyone reads them (the asker named only if they
    agreed to be)."""
    published = tournament.rule_questions.filter(status=RuleQuestion.Status.PUBLISHED)
    return [
        {
            "id": q.pk,
            "question": q.text,
            "answer": q.answer,
            "asker": None if q.anonymous else q.asker.display_name,
            "version": q.rules_version.number if q.rules_version else None,
            "at": q.answered_at,
        }
        for q in published.select_related("asker", "rules_version").order_by("pk")
    ]
