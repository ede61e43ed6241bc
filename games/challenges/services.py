"""The write paths of challenges: send one to a player by name, accept (a new game seats both
players, its deal waiting for their browsers' seeds like any casual game), decline, withdraw.
Pages, the JSON API and the admin all call these."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engines, services
from games.challenges.models import Challenge
from games.models import GameSession
from hosting.core.errors import Conflict, Forbidden, NotFound, UserError
from notifications import services as notices
from notifications.models import Kind


def challenge_send(*, challenger: Any, username: Any, engine: Any) -> Challenge:
    """``challenger`` invites the player named ``username`` to a game of ``engine``."""
    if challenger is None or not challenger.is_authenticated:
        raise Forbidden(_("log in to challenge another player"))
    if engine not in engines.ENGINE_MODULES:
        raise UserError(
            _("no game %(game)r; choose from %(games)s")
            % {"game": engine, "games": ", ".join(engines.ENGINE_MODULES)},
            code="unknown_game",
        )
    name = str(username or "").strip()
    if not name:
        raise UserError(_("name the player you challenge"), code="no_player")
    User = get_user_model()
    challenged = User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": name}).first()
    if challenged is None or not challenged.is_active:
        raise NotFound(_("no player is called %(name)s") % {"name": name})
    if challenged.pk == challenger.pk:
        raise UserError(_("you cannot challenge yourself"), code="self_challenge")
    with transaction.atomic():
        # Two challenges sent at once take turns on the challenger's row.
        User.objects.select_for_update().filter(pk=challenger.pk).first()
        if open_between(challenger, challenged).filter(engine=engine).exists():
            raise Conflict(
                _("there is already an open challenge between you and %(name)s to %(game)s")
                % {"name": challenged.get_username(), "game": engines.get(engine).name},
                code="duplicate_challenge",
            )
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            engine=engine,
            expires=timezone.now() + timedelta(seconds=settings.CHALLENGE_EXPIRY_SECONDS),
        )
        about = notices.About(
            key=f"challenge:{challenge.pk}",
            label=f"{engines.get(engine).name} · {challenger.get_username()}",
            url=reverse("challenges"),
        )
        notices.notify(challenged, Kind.INVITATION, about, challenge.expires)
        return challenge


def challenge_accept(*, challenge_id: int, user: Any) -> GameSession:
    """The challenged player accepts: a new game with a seat reserved for each of them (the
    challenger first), which deals once both browsers sent their seeds."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.challenged_id != getattr(user, "pk", None):
            raise Forbidden(_("only the challenged player can accept this challenge"))
        _check_open(challenge)
        game = services.game_create(
            engine_key=challenge.engine,
            seats=[
                services.SeatSpec(user=challenge.challenger),
                services.SeatSpec(user=challenge.challenged),
            ],
            created_by=challenge.challenger,
            grace_seconds=settings.ROOM_GRACE_SECONDS,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.answered = timezone.now()
        challenge.game = game
        challenge.save(update_fields=["status", "answered", "game"])
        # by=None: the invitee's acceptance starts it, under the challenge's own rule.
        return services.game_open_seed_window(
            game_id=game.pk, seconds=settings.CASUAL_SEED_WINDOW_SECONDS, by=None
        )


def challenge_decline(*, challenge_id: int, user: Any) -> Challenge:
    """The challenged player says no, or the challenger withdraws it."""
    with transaction.atomic():
        challenge = _locked(challenge_id)
        uid = getattr(user, "pk", None)
        if uid == challenge.challenged_id:
            status = Challenge.Status.DECLINED
        elif uid == challenge.challenger_id:
            status = Challenge.Status.WITHDRAWN
        else:
            raise Forbidden(_("this challenge is between two other players"))
        _check_open(challenge)
        challenge.status = status
        challenge.answered = timezone.now()
        challenge.save(update_fields=["status", "answered"])
    return challenge


def _locked(challenge_id: int) -> Challenge:
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        raise NotFound(_("no such challenge"))
    return challenge


def _check_open(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.PENDING:
        raise Conflict(
            _("this challenge was already answered: %(status)s")
            % {"status": status_label(challenge)},
            code="challenge_answered",
        )
    if challenge.is_expired:
        raise Conflict(_("this challenge has expired; send a new one"), code="challenge_expired")


def status_label(challenge: Challenge) -> str:
    """The challenge's state in the reader's language ("expired" once its time has passed)."""
    if challenge.is_expired:
        return _("expired")
    return {
        Challenge.Status.PENDING: _("waiting for an answer"),
        Challenge.Status.ACCEPTED: _("accepted"),
        Challenge.Status.DECLINED: _("declined"),
        Challenge.Status.WITHDRAWN: _("withdrawn"),
    }[Challenge.Status(challenge.status)]


# -- reading -----------------------------------------------------------------------------------


def open_between(one: Any, other: Any) -> QuerySet[Challenge]:
    pair = Q(challenger=one, challenged=other) | Q(challenger=other, challenged=one)
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    return pending.filter(pair, expires__gt=timezone.now())


def received(user: Any) -> QuerySet[Challenge]:
    """The open challenges waiting for ``user``'s answer, newest first."""
    return Challenge.objects.filter(
        challenged=user, status=Challenge.Status.PENDING, expires__gt=timezone.now()
    ).select_related("challenger")


def sent(user: Any) -> QuerySet[Challenge]:
    """The open challenges ``user`` sent, newest first."""
    return Challenge.objects.filter(
        challenger=user, status=Challenge.Status.PENDING, expires__gt=timezone.now()
    ).select_related("challenged")
