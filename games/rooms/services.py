"""The write paths of casual rooms: private rooms by code (Color Clash, Drafting Trios,
DropMix Clash), Color Clash's Quick match tables and practice against computers. Pages, the
JSON API and the beat sweep all call these.

A room is a lobby around hosted games: members join (DropMix: choose a side), mark ready and
the host starts, which creates a game of the room's engine through ``games.services`` (one
seat per member, guests seated with the game's invite like anyone else; ``choices`` says
what each game offers and how its seats are ordered) and deals it. When that game ends the
room is back in its lobby for another round, with the match totals of every game played in
it. Nothing here shows a user's id or a guest's id: members are named by their room name only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import invites, services
from games.models import GameSession, Room, RoomMember, RoomRound, Seat
from games.rooms import choices
from games.rooms import codes as room_codes
from hosting.core.errors import Conflict, Forbidden, NotFound, UserError
from hosting.core.identity import Guest, animal_name

MAX_PLAYERS = choices.CLASH_MAX_PLAYERS  # Quick match tables
MAX_COMPUTERS = choices.CLASH_MAX_COMPUTERS
# A member who stops polling the Quick match queue for this long is no longer waiting.
QUEUE_SEEN_SECONDS = 15
ACTIVITY_STEP_SECONDS = 60  # polls refresh a room's activity at most this often


@dataclass(frozen=True)
class Person:
    """Who is asking: a signed-in user, or else a guest."""

    user: Any = None
    guest: Guest | None = None

    @property
    def signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    def membership(self, room: Room) -> RoomMember | None:
        if self.signed_in:
            return room.members.filter(user=self.user).first()
        if self.guest is not None:
            return room.members.filter(guest_id=self.guest.id).first()
        return None

    def member_fields(self, *, anonymous: bool) -> dict[str, Any]:
        """A new membership's columns; ``anonymous`` (Quick match): an animal name always."""
        if self.signed_in:
            name = animal_name() if anonymous else self.user.get_username()
            return {"user": self.user, "name": name}
        if self.guest is None:
            raise Forbidden(_("play as a guest or log in to join a room"))
        return {"guest_id": self.guest.id, "name": self.guest.name}


def _new_room(**fields: Any) -> Room:
    """A room under a fresh code (drawn again on the rare clash with an existing one)."""
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return Room.objects.create(code=room_codes.new_code(), **fields)
        except IntegrityError:
            continue
    raise Conflict(_("no free room code was found; try again"))


# -- private rooms -----------------------------------------------------------------------------


def room_create(*, person: Person, engine: Any = None, **options: Any) -> Room:
    """A private room of ``engine`` (Color Clash by default) with its host as first member;
    ``options`` are the game's choices (``choices.room_fields``)."""
    chosen = choices.room_fields(choices.engine_key(engine), options)
    fields = person.member_fields(anonymous=False)
    with transaction.atomic():
        room = _new_room(kind=Room.Kind.PRIVATE, **chosen)
        side = 0 if room.engine == choices.DROPMIX else None
        RoomMember.objects.create(room=room, is_host=True, side=side, **fields)
    return room


def _locked(code: str) -> Room:
    normal = room_codes.normalise(code)
    room = Room.objects.select_for_update().filter(code=normal).first() if normal else None
    if room is None:
        raise NotFound(_("no room has that code"))
    return room


def find_room(code: str) -> Room | None:
    normal = room_codes.normalise(code)
    return Room.objects.filter(code=normal).select_related("game").first() if normal else None


def _member(room: Room, person: Person) -> RoomMember:
    member = person.membership(room)
    if member is None:
        raise Forbidden(_("you are not in this room"))
    return member


def _host(room: Room, person: Person) -> RoomMember:
    member = _member(room, person)
    if not member.is_host:
        raise Forbidden(_("only the room's host can do that"))
    return member


def _sync(room: Room) -> None:
    """A room whose game ended is back in its lobby (the caller holds the room's lock)."""
    if room.status == Room.Status.PLAYING and room.game_id is not None:
        status = GameSession.objects.filter(pk=room.game_id).values_list("status", flat=True)
        if status.first() in (GameSession.Status.FINISHED, GameSession.Status.ABORTED, None):
            room.status = Room.Status.OPEN
            room.save(update_fields=["status"])


def _touch(room: Room) -> None:
    room.last_activity = timezone.now()
    room.save(update_fields=["last_activity"])


def room_join(*, code: str, person: Person) -> RoomMember:
    """Join a private room's lobby; someone already in it gets their membership back (the
    invite link reopened returns the same seat)."""
    with transaction.atomic():
        room = _locked(code)
        if room.kind != Room.Kind.PRIVATE or room.status == Room.Status.CLOSED:
            raise NotFound(_("no room has that code"))
        existing = person.membership(room)
        if existing is not None:
            return existing
        _sync(room)
        if room.status == Room.Status.PLAYING:
            raise Conflict(_("this room's game has already started; wait for the next round"))
        members = list(room.members.all())
        if len(members) >= choices.capacity(room):
            raise Conflict(
                _("this room is full: %(count)s players is the most")
                % {"count": choices.capacity(room)}
            )
        member = RoomMember.objects.create(
            room=room, side=_free_side(room, members), **person.member_fields(anonymous=False)
        )
        _touch(room)
    return member


def _free_side(room: Room, members: list[RoomMember]) -> int | None:
    """DropMix: a newcomer takes the first side with a free place (the room has one)."""
    if room.engine != choices.DROPMIX:
        return None
    sizes = choices.side_sizes(room)
    return next(side for side in (0, 1) if sum(m.side == side for m in members) < sizes[side])


def room_side(*, code: str, person: Person, side: Any) -> RoomMember:
    """DropMix: a member moves to a side of the lobby, if it has a free place."""
    with transaction.atomic():
        room = _locked(code)
        member = _member(room, person)
        if room.engine != choices.DROPMIX:
            raise UserError(_("only DropMix Clash rooms have sides"))
        if side not in (0, 1, "0", "1"):
            raise UserError(_("side must be 0 or 1"))
        side = int(side)
        _sync(room)
        if room.status != Room.Status.OPEN:
            raise Conflict(_("sides are chosen before the start"))
        if member.side == side:
            return member
        taken = room.members.filter(side=side).exclude(pk=member.pk).count()
        if taken >= choices.side_sizes(room)[side]:
            raise Conflict(_("that side is full"))
        member.side = side
        member.save(update_fields=["side"])
        _touch(room)
    return member


def room_ready(*, code: str, person: Person, ready: bool) -> RoomMember:
    with transaction.atomic():
        room = _locked(code)
        member = _member(room, person)
        _sync(room)
        if room.status != Room.Status.OPEN:
            raise Conflict(_("the game has started"))
        member.ready = bool(ready)
        member.save(update_fields=["ready"])
        _touch(room)
    return member


def room_remove(*, code: str, person: Person, member_id: Any) -> None:
    """The host removes a player from the lobby (never during a game)."""
    with transaction.atomic():
        room = _locked(code)
        _host(room, person)
        _sync(room)
        if room.status != Room.Status.OPEN:
            raise Conflict(_("players can be removed only before the start"))
        target = room.members.filter(pk=member_id).first() if str(member_id).isdigit() else None
        if target is None:
            raise NotFound(_("no such player in this room"))
        if target.is_host:
            raise UserError(_("the host cannot remove themself; leave the room instead"))
        target.delete()
        _touch(room)
    Removed.mark(room, target)


class Removed:
    """Who the host removed from a room, kept for a while in the cache so that their page can
    say so instead of offering to join as if nothing happened."""

    SECONDS = 3600

    @staticmethod
    def key(room_id: int, who: str) -> str:
        return f"rooms:removed:{room_id}:{who}"

    @classmethod
    def mark(cls, room: Room, member: RoomMember) -> None:
        who = f"u{member.user_id}" if member.user_id else f"g{member.guest_id}"
        cache.set(cls.key(room.pk, who), True, cls.SECONDS)

    @classmethod
    def seen(cls, room: Room, person: Person) -> bool:
        if person.signed_in:
            return bool(cache.get(cls.key(room.pk, f"u{person.user.pk}")))
        if person.guest is not None:
            return bool(cache.get(cls.key(room.pk, f"g{person.guest.id}")))
        return False


def was_removed(room: Room, person: Person) -> bool:
    return Removed.seen(room, person)


def room_leave(*, code: str, person: Person) -> None:
    """Leave the room. In the lobby the membership ends (the host's role passes on, and an
    empty room closes); during a game a labelled substitute finishes the seat at once."""
    with transaction.atomic():
        room = _locked(code)
        member = _member(room, person)
        _sync(room)
        playing = room.status == Room.Status.PLAYING
        seat = _seat_of(room, member) if playing else None
        member.delete()
        rest = list(room.members.all())
        if not rest:
            room.status = Room.Status.CLOSED if not playing else room.status
            room.save(update_fields=["status"])
        elif member.is_host:
            RoomMember.objects.filter(pk=rest[0].pk).update(is_host=True)
        _touch(room)
    if seat is not None:
        services.seat_leave(game_id=room.game_id, seat=seat)


def _seat_of(room: Room, member: RoomMember) -> int | None:
    current = RoomRound.objects.filter(game_id=room.game_id).first()
    if current is None:
        return None
    for number, held in current.seats.items():
        if held.get("member") == member.pk:
            return int(number)
    return None


def room_start(*, code: str, person: Person) -> GameSession:
    """The host starts once every player is ready: a new game of the room, dealt."""
    with transaction.atomic():
        room = _locked(code)
        _host(room, person)
        _sync(room)
        if room.status != Room.Status.OPEN:
            raise Conflict(_("the game has already started"))
        members = list(room.members.all())
        if room.kind != Room.Kind.PRACTICE:  # the practice host plays alone with computers
            refusal = choices.refusal_to_start(room, members)
            if refusal:
                raise Conflict(refusal)
            if not all(m.ready or m.is_host for m in members):
                raise Conflict(_("Not everyone is ready yet."))
        return _start(room, members)


def _computer_name(members: list[RoomMember]) -> str:
    taken = {m.name for m in members}
    name = animal_name()
    while name in taken:
        name = animal_name()
    return name


def _start(room: Room, members: list[RoomMember]) -> GameSession:
    """Create and deal the room's next game (the caller holds the room's lock)."""
    seated = choices.seating(room, members, room.computers)
    specs = [
        # Computers get animal names like people's, always shown with "(Computer)".
        services.SeatSpec(kind=Seat.Kind.COMPUTER, display_name=_computer_name(members))
        if m is None
        else services.SeatSpec(display_name=m.name, user=m.user if m.user_id else None)
        for m in seated
    ]
    host = next((m.user for m in members if m.is_host and m.user_id), None)
    config, time_control = choices.game_settings(room)
    game = services.game_create(
        engine_key=room.engine,
        seats=specs,
        config=config,
        time_control=time_control,
        created_by=host,
        grace_seconds=settings.ROOM_GRACE_SECONDS,
    )
    invite = invites.invite_for(game)
    for number, member in enumerate(seated):
        if member is not None and not member.user_id:  # an account's seat is its own already
            guest = Guest(id=member.guest_id, name=member.name)
            services.seat_claim(game_id=game.pk, number=number, guest=guest, invite=invite)
    seats = {
        str(n): {"member": m.pk if m else None, "name": m.name if m else ""}
        for n, m in enumerate(seated)
    }
    number = room.rounds.count() + 1
    RoomRound.objects.create(room=room, game=game, number=number, seats=seats)
    # Each person's browser sends its part of the shuffle from the game page; computers none.
    # by=None: the room's own rule (everyone ready) starts it, not a person steering it.
    game = services.game_open_seed_window(
        game_id=game.pk, seconds=settings.CASUAL_SEED_WINDOW_SECONDS, by=None
    )
    room.game = game
    room.status = Room.Status.PLAYING
    room.last_activity = timezone.now()
    room.save(update_fields=["game", "status", "last_activity"])
    room.members.update(ready=False)
    return game


# -- practice ----------------------------------------------------------------------------------


def practice_start(*, person: Person, engine: Any = None, **options: Any) -> Room:
    """A practice table, dealt at once: the person against computer players (Color Clash: 1
    to 5 as chosen; Drafting Trios: one; DropMix: as its format needs, the person's partner
    in a 2v2 included)."""
    key = choices.engine_key(engine)
    count = choices.practice_computers(key, options)
    chosen = choices.room_fields(key, options, match_default="one_round")
    fields = person.member_fields(anonymous=False)
    with transaction.atomic():
        room = _new_room(kind=Room.Kind.PRACTICE, computers=count, **chosen)
        side = 0 if room.engine == choices.DROPMIX else None
        host = RoomMember.objects.create(room=room, is_host=True, side=side, **fields)
        _start(room, [host])
    return room


# -- Quick match -------------------------------------------------------------------------------


def quick_enter(*, person: Person) -> Room:
    """Join the Quick match queue: the oldest table still filling, or a new one. A full table
    (six) starts at once; others start after the wait (``quick_check``), never alone."""
    with transaction.atomic():
        _queue_lock()
        filling = Room.objects.select_for_update().filter(
            kind=Room.Kind.QUICK, status=Room.Status.OPEN
        )
        tables = list(filling.order_by("created")[:20])
        for table in tables:
            if person.membership(table) is not None:
                _seen(table, person)
                return table
        fields = person.member_fields(anonymous=True)
        room = next((t for t in tables if t.members.count() < MAX_PLAYERS), None)
        if room is None:
            room = _new_room(kind=Room.Kind.QUICK, match="one_round", turn_seconds=30)
        RoomMember.objects.create(room=room, **fields)
        members = list(room.members.all())
        if len(members) >= MAX_PLAYERS:
            _start(room, members)
    return room


QUEUE_LOCK = 0x717C  # the advisory lock that makes entries to the queue take turns


def _queue_lock() -> None:
    """Entries take turns: with no table filling yet, row locks hold nothing, and two people
    arriving together would each open a table of one."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [QUEUE_LOCK])


def _seen(room: Room, person: Person) -> None:
    """A queued member's poll: they are still waiting."""
    member = person.membership(room)
    if member is not None:
        QueueSeen.mark(member.pk)


class QueueSeen:
    """When each queued member last polled, in the cache (a poll is no database write)."""

    @staticmethod
    def key(member_id: int) -> str:
        return f"rooms:queue-seen:{member_id}"

    @classmethod
    def mark(cls, member_id: int) -> None:
        cache.set(cls.key(member_id), timezone.now().timestamp(), QUEUE_SEEN_SECONDS * 4)

    @classmethod
    def fresh(cls, member: RoomMember) -> bool:
        seen = cache.get(cls.key(member.pk))
        if seen is None:  # never polled: as fresh as its entry into the queue
            seen = member.joined.timestamp()
        return timezone.now().timestamp() - seen <= QUEUE_SEEN_SECONDS


def quick_check(room_id: int) -> bool:
    """Start a Quick match table whose wait is over, with the people still waiting (two at
    least); drop those who stopped polling. Returns whether it started."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if room is None or room.kind != Room.Kind.QUICK or room.status != Room.Status.OPEN:
            return False
        members = list(room.members.all())
        gone = [m.pk for m in members if not QueueSeen.fresh(m)]
        if gone:
            RoomMember.objects.filter(pk__in=gone).delete()
            members = [m for m in members if m.pk not in gone]
        if not members:
            room.status = Room.Status.CLOSED
            room.save(update_fields=["status"])
            return False
        waited = (timezone.now() - room.created).total_seconds()
        if len(members) < 2 or waited < settings.QUICK_MATCH_WAIT_SECONDS:
            return False
        _start(room, members)
        return True


# -- reading -----------------------------------------------------------------------------------


def room_seen(*, room: Room, person: Person) -> Room:
    """A member looks at the room (page or poll): the lobby is refreshed when its game ended,
    a queued Quick match member counts as still waiting, and a due table starts."""
    if room.kind == Room.Kind.QUICK and room.status == Room.Status.OPEN:
        _seen(room, person)
        quick_check(room.pk)
    elif room.status == Room.Status.PLAYING:
        with transaction.atomic():
            locked = Room.objects.select_for_update().get(pk=room.pk)
            _sync(locked)
    if (timezone.now() - room.last_activity).total_seconds() > ACTIVITY_STEP_SECONDS:
        Room.objects.filter(pk=room.pk).update(last_activity=timezone.now())
    return Room.objects.select_related("game").get(pk=room.pk)


def totals(room: Room) -> list[dict[str, Any]]:
    """Match totals over the room's finished games, by member name, highest first. Computer
    and substitute seats score nothing, so they never appear."""
    by_name: dict[str, dict[str, Any]] = {}
    played_rounds = list(room.rounds.select_related("game"))
    # Seats a substitute finished belong to nobody's total (their person left the game).
    substituted = set(
        Seat.objects.filter(
            game_id__in=[r.game_id for r in played_rounds], kind=Seat.Kind.SUBSTITUTE
        ).values_list("game_id", "number")
    )
    for played in played_rounds:
        outcome = played.game.outcome or {}
        scores = outcome.get("scores") or {}
        winners = set(outcome.get("winners") or [])
        for number, held in played.seats.items():
            if held.get("member") is None or (played.game_id, int(number)) in substituted:
                continue
            row = by_name.setdefault(held["name"], {"name": held["name"], "points": 0, "wins": 0})
            row["points"] += int(scores.get(number, scores.get(int(number), 0)) or 0)
            row["wins"] += int(int(number) in winners and played.game.is_over)
    return sorted(by_name.values(), key=lambda row: (-row["points"], -row["wins"], row["name"]))


def room_payload(room: Room, person: Person) -> dict[str, Any]:
    """What a person is shown of a room: members by name only (the host alone sees member
    ids, which it removes players by); never an account's or a guest's id."""
    me = person.membership(room)
    body: dict[str, Any] = {
        "code": room.code,
        "engine": room.engine,
        "options": room.options,
        "kind": room.kind,
        "status": room.status,
        "mode": room.mode,
        "match": room.match,
        "turn_seconds": room.turn_seconds,
        "computers": room.computers,
        "players": room.members.count(),
        "max_players": choices.capacity(room),
        "member": me is not None,
    }
    if me is None:
        return body
    members = list(room.members.all())
    body["members"] = [
        {
            "name": m.name,
            "ready": m.ready,
            "host": m.is_host,
            "you": m.pk == me.pk,
            **({"side": m.side} if room.engine == choices.DROPMIX else {}),
            **({"id": m.pk} if me.is_host and room.kind == Room.Kind.PRIVATE else {}),
        }
        for m in members
    ]
    body["host"] = me.is_host
    body["game"] = room.game_id
    body["rounds"] = [
        {"number": r.number, "game": r.game_id, "over": r.game.is_over}
        for r in room.rounds.select_related("game")
    ]
    body["totals"] = totals(room)
    return body


# -- expiry ------------------------------------------------------------------------------------


def rooms_sweep() -> int:
    """The beat's pass over rooms: Quick match tables whose wait is over start, and rooms idle
    for ``ROOM_IDLE_SECONDS`` close (their games stay, with replay and verify pages). A room
    whose game is still running is not idle. Returns how many rooms closed."""
    for room_id in Room.objects.filter(kind=Room.Kind.QUICK, status=Room.Status.OPEN).values_list(
        "pk", flat=True
    )[:200]:
        quick_check(room_id)
    cutoff = timezone.now() - timedelta(seconds=settings.ROOM_IDLE_SECONDS)
    idle = Room.objects.filter(last_activity__lt=cutoff).exclude(status=Room.Status.CLOSED)
    running = GameSession.Status.WAITING, GameSession.Status.RUNNING
    idle = idle.exclude(status=Room.Status.PLAYING, game__status__in=running)
    return idle.update(status=Room.Status.CLOSED)
