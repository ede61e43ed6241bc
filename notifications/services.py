"""The one way anything is told to anyone: ``notify(user, kind, about, when)``.

- **On the site**: a ``Notice`` row (unread until read), and after the commit its reader's
  open pages hear of it on ``notifications:<user id>`` (``notifications.live``).
- **E-mail**: the notice waits for its batch (``NOTIFY_EMAIL_BATCH_SECONDS``): one message per
  person per batch, in their language, with an unsubscribe link that needs no login.
- **Discord**: a public kind (``kinds.PUBLIC``) about a tournament is posted once to that
  tournament's Discord webhooks, in the tournament's language, through the sender that
  tournaments connects (``connect_discord``); it carries the kind, a public label and a time.

Reminders (``remind``) are rows with the time they are due and the time of the thing itself:
beat's sweep (``notifications.sweep``, every few seconds) sends those due and arms an ETA task
for those coming near; sending locks the row, so a restart neither loses one (the row waits
for the next sweep) nor doubles one (the state and the notice's unique key say it was sent);
one whose thing has already happened is cancelled, never sent.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from hosting.core import broadcast, scheduling
from hosting.core.errors import NotFound, UserError
from notifications import clock, kinds, zones
from notifications.models import Channel, DiscordPost, Kind, Notice, Preference, Reader, Reminder

log = logging.getLogger(__name__)
TOPIC_PREFIX = "notifications:"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
EMAIL_BATCH_PREFIX = "notifications:email-batch:"
REMINDER_ARMED_PREFIX = "notifications:reminder-armed:"
SWEEP_BATCH = 500


@dataclass(frozen=True)
class About:
    """What a notice is about: ``key`` names the thing (``match:12``), ``label`` is what a
    reader sees (public words only: a tournament's name, a match's code), ``url`` its page."""

    key: str
    label: str
    url: str = ""
    tournament_id: int | None = None


# -- preferences and readers ---------------------------------------------------------------------


def reader_for(user: Any) -> Reader:
    reader, _created = Reader.objects.get_or_create(user=user)
    return reader


def channels_for(user: Any, kind: str) -> set[str]:
    row = Preference.objects.filter(user=user, kind=kind).first()
    if row is None:
        return set(kinds.DEFAULTS[kind])
    return {
        c
        for c, on in (
            (Channel.SITE, row.site),
            (Channel.EMAIL, row.email),
            (Channel.DISCORD, row.discord),
        )
        if on
    }


def preferences(user: Any) -> list[tuple[str, str, set[str]]]:
    """Every kind with its label and the person's channels, in the kinds' order."""
    rows = {p.kind: p for p in Preference.objects.filter(user=user)}
    out = []
    for kind in Kind:
        row = rows.get(kind.value)
        chosen = (
            set(kinds.DEFAULTS[kind.value])
            if row is None
            else {
                c
                for c, on in (("site", row.site), ("email", row.email), ("discord", row.discord))
                if on
            }
        )
        out.append((kind.value, kind.label, chosen))
    return out


def preferences_set(*, user: Any, choices: dict[str, Iterable[str]]) -> None:
    """Each kind of ``choices`` gets exactly the channels given (the others off)."""
    unknown = set(choices) - set(Kind.values)
    if unknown:
        raise UserError(
            _("unknown kinds of notice: %(kinds)s") % {"kinds": ", ".join(sorted(unknown))}
        )
    for kind, channels in choices.items():
        channels = set(channels)
        bad = channels - set(Channel.values)
        if bad:
            raise UserError(
                _("unknown channels: %(channels)s") % {"channels": ", ".join(sorted(bad))}
            )
        Preference.objects.update_or_create(
            user=user,
            kind=kind,
            defaults={
                "site": "site" in channels,
                "email": "email" in channels,
                "discord": "discord" in channels,
            },
        )


def zone_set(*, user: Any, zone: str) -> Reader:
    if zones.parse(zone) is None:
        raise UserError(_("unknown time zone %(zone)r") % {"zone": zone})
    reader = reader_for(user)
    reader.zone = zone
    reader.save(update_fields=["zone"])
    return reader


def language_seen(user: Any, language: str) -> None:
    """The language a person reads the site in is their e-mails' language too."""
    Reader.objects.update_or_create(user=user, defaults={"language": language})


# -- telling -----------------------------------------------------------------------------------


def notice_key(kind: str, about: About, user_id: int, when: datetime | None) -> str:
    stamp = f":{int(when.timestamp())}" if when else ""
    return f"{kind}:{about.key}:{user_id}{stamp}"[:200]


def notify(
    user: Any, kind: str, about: About, when: datetime | None = None, *, key: str | None = None
) -> Notice | None:
    """Tell ``user`` of ``kind`` about ``about`` (``when``: the time it is about) on each
    channel they chose; once per ``key`` (by default the kind, the thing, the person and the
    time): a second call with the same key tells nothing and returns None."""
    kind = Kind(kind).value
    channels = channels_for(user, kind)
    key = key or notice_key(kind, about, user.pk, when)
    wants_email = Channel.EMAIL in channels and bool(user.email) and not _email_off(user)
    try:
        with transaction.atomic():
            notice = Notice.objects.create(
                user=user,
                kind=kind,
                key=key,
                label=about.label[:200],
                url=about.url,
                when=when,
                tournament_id=about.tournament_id,
                on_site=Channel.SITE in channels,
                email_state=Notice.EmailState.PENDING if wants_email else Notice.EmailState.NONE,
            )
    except IntegrityError:
        return None  # told already
    if notice.on_site:
        transaction.on_commit(lambda: publish(user.pk))
    if wants_email:
        transaction.on_commit(lambda: arm_email_batch(user.pk))
    if Channel.DISCORD in channels and kind in kinds.PUBLIC and about.tournament_id:
        post_public(kind, about, when)
    return notice


def notify_many(user_ids: list[int], kind: str, about: About, when: datetime | None = None) -> int:
    """``notify`` for many people at once (a round's pairings): one insert for the site's
    notices, then one live message each; e-mail and Discord as ``notify`` does them.
    Returns how many were told (those told before are not told again)."""
    kind = Kind(kind).value
    users = get_user_model().objects.filter(pk__in=user_ids).select_related("reader")
    chosen = {p.user_id: p for p in Preference.objects.filter(user_id__in=user_ids, kind=kind)}
    default = kinds.DEFAULTS[kind]
    rows = []
    for user in users:
        pref = chosen.get(user.pk)
        site = pref.site if pref else Channel.SITE in default
        email = (pref.email if pref else Channel.EMAIL in default) and bool(user.email)
        reader = getattr(user, "reader", None)
        email = email and not (reader and reader.email_off)
        rows.append(
            Notice(
                user=user,
                kind=kind,
                key=notice_key(kind, about, user.pk, when),
                label=about.label[:200],
                url=about.url,
                when=when,
                tournament_id=about.tournament_id,
                on_site=site,
                email_state=Notice.EmailState.PENDING if email else Notice.EmailState.NONE,
            )
        )
    keys = [row.key for row in rows]
    told_before = set(Notice.objects.filter(key__in=keys).values_list("key", flat=True))
    rows = [row for row in rows if row.key not in told_before]
    # A racing call may insert some of them meanwhile: the unique key keeps one of each.
    Notice.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)
    ids = [row.user_id for row in rows if row.on_site]
    mailed = [row.user_id for row in rows if row.email_state == Notice.EmailState.PENDING]

    sample = rows[0] if rows else None

    def after() -> None:
        publish_many(ids, sample)
        for user_id in mailed:
            arm_email_batch(user_id)

    transaction.on_commit(after)
    if kind in kinds.PUBLIC and about.tournament_id:
        post_public(kind, about, when)
    return len(rows)


def _email_off(user: Any) -> bool:
    return Reader.objects.filter(user=user, email_off=True).exists()


# -- on the site -------------------------------------------------------------------------------


def topic(user_id: int) -> str:
    return f"{TOPIC_PREFIX}{user_id}"


def unread_count(user: Any) -> int:
    return Notice.objects.filter(user=user, on_site=True, read_at__isnull=True).count()


def notice_text(notice: Notice, zone: Any = None) -> str:
    when = zones.say(notice.when, zone) if notice.when else ""
    return kinds.text(notice.kind, notice.label, when)


def _live_message(user_id: int) -> str:
    user = get_user_model().objects.select_related("reader").get(pk=user_id)
    reader = getattr(user, "reader", None)
    latest = Notice.objects.filter(user_id=user_id, on_site=True).first()
    with translation.override((reader and reader.language) or settings.LANGUAGE_CODE):
        text = notice_text(latest, zones.of_user(user)) if latest else ""
    return json.dumps(
        {"unread": unread_count(user), "text": text, "url": latest.url if latest else ""},
        ensure_ascii=False,
    )


def publish(user_id: int) -> None:
    """Tell the person's open pages their unread count and newest notice."""
    try:
        message = _live_message(user_id)
        update = broadcast.Update(
            version=time.time_ns() // 1000, final=False, parts={"all": message}
        )
        broadcast.publish_topic(topic(user_id), update)
    except Exception:  # the notice is saved: the page shows it at its next load
        log.warning("notices of user %s: live message not sent", user_id, exc_info=True)


def publish_many(user_ids: list[int], notice: Notice | None = None) -> None:
    """``publish`` for many people told the same ``notice`` (a round's pairings): three
    queries for them all (their readers, their unread counts) and each sentence said once per
    language and zone, instead of three queries each."""
    if notice is None:
        for user_id in user_ids:
            publish(user_id)
        return
    readers = {
        r.user_id: r
        for r in Reader.objects.filter(user_id__in=user_ids).only("user_id", "zone", "language")
    }
    counts = dict(
        Notice.objects.filter(user_id__in=user_ids, on_site=True, read_at__isnull=True)
        .values("user_id")
        .annotate(n=Count("pk"))
        .values_list("user_id", "n")
    )
    said: dict[tuple[str, str], str] = {}
    version = time.time_ns() // 1000
    for user_id in user_ids:
        reader = readers.get(user_id)
        language = (reader and reader.language) or settings.LANGUAGE_CODE
        zone_name = (reader and reader.zone) or "UTC"
        if (language, zone_name) not in said:
            with translation.override(language):
                said[language, zone_name] = notice_text(
                    notice, zones.parse(zone_name) or zones.parse("UTC")
                )
        message = json.dumps(
            {
                "unread": counts.get(user_id, 0),
                "text": said[language, zone_name],
                "url": notice.url,
            },
            ensure_ascii=False,
        )
        try:
            broadcast.publish_topic(
                topic(user_id),
                broadcast.Update(version=version, final=False, parts={"all": message}),
            )
        except Exception:  # saved: the page shows it at its next load
            log.warning("notices of user %s: live message not sent", user_id, exc_info=True)


def mark_read(*, user: Any, notice_ids: list[int] | None = None) -> int:
    unread = Notice.objects.filter(user=user, read_at__isnull=True)
    if notice_ids is not None:
        unread = unread.filter(pk__in=notice_ids)
    count = unread.update(read_at=clock.moment())
    transaction.on_commit(lambda: publish(user.pk))
    return count


# -- Discord -----------------------------------------------------------------------------------

# Connected by tournaments (which knows the tournaments' Discord webhooks):
# sender(tournament_id=..., kind=..., label=..., when=...).
_discord_senders: list[Callable[..., Any]] = []


def connect_discord(sender: Callable[..., Any]) -> None:
    if sender not in _discord_senders:
        _discord_senders.append(sender)


def post_public(kind: str, about: About, when: datetime | None) -> bool:
    """Post a public notice to its tournament's Discord once (whoever it told first)."""
    if kind not in kinds.PUBLIC or about.tournament_id is None:
        return False
    stamp = f":{int(when.timestamp())}" if when else ""
    key = f"{kind}:{about.key}{stamp}"[:200]
    try:
        with transaction.atomic():
            DiscordPost.objects.create(key=key, tournament_id=about.tournament_id, kind=kind)
    except IntegrityError:
        return False
    for sender in _discord_senders:
        sender(tournament_id=about.tournament_id, kind=kind, label=about.label, when=when)
    return True


# -- e-mail ------------------------------------------------------------------------------------


def arm_email_batch(user_id: int) -> None:
    """Send the person's waiting e-mail notices together, ``NOTIFY_EMAIL_BATCH_SECONDS`` from
    now: the first notice arms the batch, the next ones join it."""
    seconds = settings.NOTIFY_EMAIL_BATCH_SECONDS
    try:
        scheduling.schedule(
            "notifications.email_batch",
            time.time() + seconds,
            once=f"{EMAIL_BATCH_PREFIX}{user_id}",
            once_for=max(seconds, 1),
            user_id=user_id,
        )
    except Exception:  # the sweep sends it
        log.warning("e-mail batch of user %s not armed", user_id, exc_info=True)


def unsubscribe_token(user: Any) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(user: Any) -> str:
    return settings.SITE_URL.rstrip("/") + reverse(
        "notifications-unsubscribe", args=[unsubscribe_token(user)]
    )


def unsubscribe(*, token: str) -> Any:
    """Turn off every e-mail of the person the token was made for; no login needed."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise NotFound(_("this unsubscribe link is not valid")) from None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None:
        raise NotFound(_("this unsubscribe link is not valid"))
    Reader.objects.update_or_create(user=user, defaults={"email_off": True})
    Notice.objects.filter(user=user, email_state=Notice.EmailState.PENDING).update(
        email_state=Notice.EmailState.NONE
    )
    return user


def email_batch(*, user_id: int) -> int:
    """Send one e-mail with every notice of the person waiting for it; how many it held.
    The rows are locked and marked sent in the same transaction: a second run finds none."""
    with transaction.atomic():
        waiting = list(
            Notice.objects.select_for_update(skip_locked=True)
            .filter(user_id=user_id, email_state=Notice.EmailState.PENDING)
            .order_by("created", "pk")
        )
        if not waiting:
            return 0
        user = get_user_model().objects.select_related("reader").get(pk=user_id)
        reader = getattr(user, "reader", None)
        if not user.email or (reader and reader.email_off):
            Notice.objects.filter(pk__in=[n.pk for n in waiting]).update(
                email_state=Notice.EmailState.NONE
            )
            return 0
        zone = zones.of_user(user)
        language = (reader and reader.language) or settings.LANGUAGE_CODE
        with translation.override(language):
            lines = [(notice_text(n, zone), _absolute(n.url)) for n in waiting]
            context = {
                "user": user,
                "lines": lines,
                "unsubscribe": unsubscribe_url(user),
                "site": settings.SITE_URL,
            }
            subject = (
                lines[0][0]
                if len(lines) == 1
                else _("%(count)s notices from Genius Arena") % {"count": len(lines)}
            )
            body = render_to_string("notifications/email.txt", context)
            html = render_to_string("notifications/email.html", context)
        message = EmailMultiAlternatives(
            subject=subject[:180],
            body=body,
            to=[user.email],
            headers={
                "List-Unsubscribe": f"<{context['unsubscribe']}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
            connection=get_connection(),
        )
        message.attach_alternative(html, "text/html")
        message.send()
        Notice.objects.filter(pk__in=[n.pk for n in waiting]).update(
            email_state=Notice.EmailState.SENT
        )
    return len(waiting)


def _absolute(url: str) -> str:
    return settings.SITE_URL.rstrip("/") + url if url.startswith("/") else url


# -- reminders ---------------------------------------------------------------------------------


def remind(
    user: Any, kind: str, about: About, when: datetime, *, before: timedelta
) -> Reminder | None:
    """Tell ``user`` of ``kind`` at ``when - before`` (unless ``when`` has passed by then).
    Once per kind, thing, person and time; a time changed makes a new reminder (cancel the
    old ones with ``cancel_reminders``)."""
    kind = Kind(kind).value
    key = notice_key(kind, about, user.pk, when)
    due = when - before
    reminder, created = Reminder.objects.get_or_create(
        key=key,
        defaults={
            "user": user,
            "kind": kind,
            "about": about.key,
            "label": about.label[:200],
            "url": about.url,
            "tournament_id": about.tournament_id,
            "due": due,
            "event": when,
        },
    )
    if created:
        transaction.on_commit(lambda: arm_if_near(reminder.pk, due))
    return reminder


def cancel_reminders(about_key: str, kinds_: Iterable[str] | None = None) -> int:
    """The thing happened, moved or went away: its pending reminders are never sent."""
    pending = Reminder.objects.filter(about=about_key, state=Reminder.State.PENDING)
    if kinds_ is not None:
        pending = pending.filter(kind__in=list(kinds_))
    return pending.update(state=Reminder.State.CANCELLED)


def arm_if_near(reminder_id: int, due: datetime) -> None:
    """An ETA task for a reminder due within ``NOTIFY_ARM_AHEAD_SECONDS`` (the sweep arms the
    others as they come near; a worker holds the ETA tasks it is sent in memory)."""
    wait = due.timestamp() - clock.now()
    if wait > settings.NOTIFY_ARM_AHEAD_SECONDS:
        return
    try:
        scheduling.schedule(
            "notifications.send_reminder",
            time.time() + max(wait, 0),
            once=f"{REMINDER_ARMED_PREFIX}{reminder_id}",
            once_for=max(wait, 0) + 60,
            reminder_id=reminder_id,
        )
    except Exception:  # the sweep sends it
        log.warning("reminder %s not armed", reminder_id, exc_info=True)


def send_reminder(*, reminder_id: int) -> str:
    """Send one reminder if it is due and its thing has not happened; its state after."""
    moment = clock.moment()
    with transaction.atomic():
        reminder = (
            Reminder.objects.select_for_update()
            .select_related("user")
            .filter(pk=reminder_id)
            .first()
        )
        if reminder is None or reminder.state != Reminder.State.PENDING:
            return reminder.state if reminder else "gone"
        if reminder.due > moment:
            return "early"
        if reminder.event <= moment:
            reminder.state = Reminder.State.CANCELLED
            reminder.save(update_fields=["state"])
            return reminder.state
        about = About(
            key=reminder.about,
            label=reminder.label,
            url=reminder.url,
            tournament_id=reminder.tournament_id,
        )
        notify(reminder.user, reminder.kind, about, reminder.event, key=reminder.key)
        reminder.state = Reminder.State.SENT
        reminder.sent_at = moment
        reminder.save(update_fields=["state", "sent_at"])
        return reminder.state


def sweep() -> int:
    """Beat's sweep: send every reminder due; arm those coming near; send e-mail batches
    whose task was lost. Returns how many reminders it sent."""
    moment = clock.moment()
    due = Reminder.objects.filter(state=Reminder.State.PENDING, due__lte=moment)
    sent = 0
    for pk in list(due.values_list("pk", flat=True)[:SWEEP_BATCH]):
        sent += send_reminder(reminder_id=pk) == Reminder.State.SENT
    horizon = moment + timedelta(seconds=settings.NOTIFY_ARM_AHEAD_SECONDS)
    near = Reminder.objects.filter(state=Reminder.State.PENDING, due__gt=moment, due__lte=horizon)
    for pk, when in near.values_list("pk", "due")[:SWEEP_BATCH]:
        arm_if_near(pk, when)
    stale = datetime.fromtimestamp(
        time.time() - settings.NOTIFY_EMAIL_BATCH_SECONDS - 30
    ).astimezone()
    late = Notice.objects.filter(email_state=Notice.EmailState.PENDING, created__lte=stale)
    for user_id in set(late.values_list("user_id", flat=True)[:SWEEP_BATCH]):
        email_batch(user_id=user_id)
    return sent


# -- calendar tokens -----------------------------------------------------------------------------


def calendar_token_new(*, user: Any) -> str:
    """A new private calendar URL; the old one is 404 from now on."""
    reader = reader_for(user)
    reader.calendar_token = Reader.new_token()
    reader.save(update_fields=["calendar_token"])
    return reader.calendar_token


def calendar_token_revoke(*, user: Any) -> None:
    Reader.objects.filter(user=user).update(calendar_token=None)


def user_for_calendar(token: str) -> Any:
    reader = Reader.objects.select_related("user").filter(calendar_token=token).first()
    if reader is None or not token:
        raise NotFound(_("no such calendar"))
    return reader.user
