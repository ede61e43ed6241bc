"""The write paths of a hosted game; nothing else changes a game.

Each one runs in a transaction with the game row locked (``select_for_update``): validate,
call the pure engine and clocks, persist, append to the log, and after commit publish the new
version and schedule what must happen next (deadlines, windows, computer players). Every read
or action first applies any overdue timeout, so the rules hold even with no worker running.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clocks, engines, fairness, invites, store, timers
from games.access import SeatKey
from games.clocks import TimeControl, TimeControlError
from games.engines.base import (
    SYSTEM_ACTIONS,
    WINDOW_CLOSED,
    ConfigError,
    Engine,
    IllegalAction,
    StepRng,
    reshuffled_unseen,
)
from games.models import GameSession, Seat, hash_token
from games.payloads import render_all
from games.signals import game_finished
from hosting.core.broadcast import Update
from hosting.core.errors import Conflict, Forbidden, NotFound, UserError
from hosting.core.identity import Guest

MAX_SYSTEM_STEPS = 200  # overdue timeouts applied in one go; far above any real backlog
DEADLINE_MARGIN_SECONDS = 0.001


@dataclass(frozen=True)
class SeatSpec:
    kind: str = Seat.Kind.HUMAN
    bot: str = ""
    role: str = ""
    display_name: str = ""
    user: Any = None  # the account the seat is reserved for: only they may hold it


@dataclass(frozen=True)
class ActResult:
    version: int
    game: GameSession
    seat: int
    payloads: dict[str, str]  # each audience's payload of the game as it now is
    repeated: bool = False


@dataclass(frozen=True)
class Claim:
    seat: Seat
    token: str  # the seat's API token, shown once
    game: GameSession  # as the claim left it, with all its seats
    seats: list[Seat]


def now() -> float:
    return time.time()


def engine_for(key: str) -> Engine:
    try:
        return engines.get(key)
    except KeyError:
        raise UserError(
            _("unknown game %(key)r; games: %(games)s")
            % {"key": key, "games": ", ".join(engines.known_keys())}
        ) from None


# -- creating and joining ---------------------------------------------------------------------


def game_create(
    *,
    engine_key: str,
    seats: list[SeatSpec],
    config: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    created_by: Any = None,
    grace_seconds: int = 90,
) -> GameSession:
    """A new game waiting for its human seats to be claimed."""
    engine = engine_for(engine_key)
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        raise UserError(
            _("%(game)s needs %(least)s to %(most)s seats")
            % {"game": engine.name, "least": engine.min_seats, "most": engine.max_seats}
        )
    roles = {str(n): spec.role for n, spec in enumerate(seats) if spec.role}
    full_config = dict(config or {})
    if roles and "roles" not in full_config:
        full_config["roles"] = roles
    try:
        full_config = engine.validate_config(full_config, len(seats))
        control = TimeControl.from_json(
            time_control or {}, time_control_defaults(engine, full_config)
        )
    except (ConfigError, TimeControlError) as error:
        raise UserError(str(error), code="invalid_config") from None
    for spec in seats:
        if spec.kind not in Seat.Kind.values:
            raise UserError(
                _("a seat is one of: %(kinds)s") % {"kinds": ", ".join(Seat.Kind.values)}
            )
        if spec.kind != Seat.Kind.HUMAN and (spec.bot or default_bot(engine)) not in engine.bots:
            raise UserError(
                _("no computer player %(bot)r; choose from %(bots)s")
                % {"bot": spec.bot, "bots": ", ".join(sorted(engine.bots))}
            )
        if spec.kind != Seat.Kind.HUMAN and spec.user is not None:
            raise UserError(_("a computer seat cannot be reserved for a player"))
    reserved = [spec.user.pk for spec in seats if spec.user is not None]
    if len(set(reserved)) != len(reserved):
        raise UserError(_("a player can hold only one seat of a game"))
    # Committed to (its hash in every view) before any seat can send a client seed.
    seed = fairness.new_server_seed()
    with transaction.atomic():
        game = GameSession.objects.create(
            engine=engine.key,
            config=full_config,
            time_control=control.to_json(),
            seed=seed.hex(),
            seed_sha256=fairness.commitment(seed),
            created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
            grace_seconds=grace_seconds,
            invite_nonce=invites.new_nonce(),
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                kind=spec.kind,
                bot=(spec.bot or default_bot(engine)) if spec.kind != Seat.Kind.HUMAN else "",
                role=spec.role,
                display_name=spec.display_name
                or (spec.user.get_username() if spec.user is not None else ""),
                user=spec.user,
            )
            for number, spec in enumerate(seats)
        )
    return game


def game_continue_from(*, source_game_id: int, seq: int, created_by: Any = None) -> GameSession:
    """A new game that starts where an ended game stood after its ``seq``-th logged action
    (0: the deal): the same seats, hands and reserves, and a fresh seed for what nobody had
    seen yet (``engines.base.reshuffled_unseen``). It waits for ``game_start`` as any game.

    The source must be over (a dispute voids it first): its seed is then revealed, so anyone
    can rebuild the starting state (``replays.start_state``) and verify the new game."""
    from games import replays  # replays reads the models this module writes

    source = GameSession.objects.get(pk=source_game_id)
    if not source.is_over:
        raise Conflict(_("a game continues from another once that one has ended"))
    if not 0 <= seq <= source.version:
        raise UserError(
            _("the log has events 0 to %(last)s; there is no event %(seq)s")
            % {"last": source.version, "seq": seq}
        )
    engine = engine_for(source.engine)
    seed = secrets.token_bytes(32)
    # Reshuffled at ``game_start``, once the seats' client seeds are in.
    state, reserves = replays.state_at(source, seq)
    control = source.control(engine)
    with transaction.atomic():
        game = GameSession.objects.create(
            engine=source.engine,
            config=source.config,
            time_control=source.time_control,
            state=state,
            clocks={
                key: {**clocks.new_clock(control), "reserve": reserve}
                for key, reserve in reserves.items()
            },
            seed=seed.hex(),
            seed_sha256=fairness.commitment(seed),
            origin={"game": source.pk, "seq": seq},
            created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
            grace_seconds=source.grace_seconds,
            invite_nonce=invites.new_nonce(),
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=seat.number,
                kind=Seat.Kind.HUMAN if seat.kind == Seat.Kind.SUBSTITUTE else seat.kind,
                bot=seat.bot if seat.kind == Seat.Kind.COMPUTER else "",
                role=seat.role,
                display_name=seat.display_name,
                user=seat.user,
            )
            for seat in source.seats.order_by("number")
        )
    return game


def time_control_defaults(engine: Engine, config: dict[str, Any]) -> dict[str, Any]:
    """The engine's time control for this config when it has one (Color Clash's Family night
    defaults to 90 s turns), else its fixed default."""
    for_config = getattr(engine, "time_control", None)
    return for_config(config) if for_config else engine.default_time_control


def default_bot(engine: Engine) -> str:
    """The strongest computer player an engine ships: any but the random one, if it has one."""
    return next((key for key in engine.bots if key != "random"), "random")


def seat_claim(
    *,
    game_id: int,
    number: int,
    user: Any = None,
    guest: Guest | None = None,
    invite: str | None = None,
    client_seed: str | None = None,
) -> Claim:
    """Take a seat as a user or a guest. A seat reserved for an account (a tournament's, or
    one its creator named) is that user's alone; any other person's seat needs the game's
    invite. Claiming one's own reserved seat issues a fresh token (the old one stops).

    ``client_seed`` is the seat's part of the deal (``games.fairness``); without one the seat
    keeps what it had (at first none). The deal is made at the start: from then on no seed
    is taken or changed."""
    if client_seed is not None:
        try:
            fairness.check_client_seed(client_seed)
        except fairness.ClientSeedError as error:
            raise UserError(str(error), code="invalid_client_seed") from None
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        seat = _seat(seats, number)
        user = user if user is not None and user.is_authenticated else None
        if seat.user_id is not None:
            if user is None or user.pk != seat.user_id:
                raise Forbidden(_("this seat is another player's"), code="permission_denied")
        elif not invites.invite_matches(game, invite):
            detail = "taking a seat in this game needs its invite"
            raise Forbidden(
                detail if invite is None else "that is not this game's invite",
                code="permission_denied",
            )
        if game.status != GameSession.Status.WAITING:
            if client_seed is not None:
                raise Conflict(
                    _(
                        "this game has already started and its deal is made: "
                        "no client seed can be sent or changed now"
                    ),
                    code="deal_fixed",
                )
            raise Conflict(_("this game has already started"))
        own = user is not None and seat.user_id == user.pk
        if not own:
            if seat.is_claimed:
                raise Conflict(_("that seat is taken"))
            if _holds_seat(seats, user, guest):
                raise Conflict(_("you already hold a seat in this game"))
        token = secrets.token_urlsafe(24)
        if user is not None:
            seat.user = user
            seat.display_name = seat.display_name or user.get_username()
        elif guest is not None:
            seat.guest_id = guest.id
            seat.display_name = seat.display_name or guest.name
        else:
            raise Forbidden(_("log in, or play as a guest, to take a seat"))
        seat.token_sha256 = hash_token(token)
        if client_seed is not None:
            seat.client_seed = client_seed
        seat.save(update_fields=["user", "guest_id", "display_name", "token_sha256", "client_seed"])
        _deal_if_all_seeded(game, seats)
    return Claim(seat, token, game, seats)


def client_seed_send(*, game_id: int, seat: SeatKey, client_seed: str) -> tuple[GameSession, Seat]:
    """A seat's client seed (``games.fairness``) sent without claiming again: what a player
    who already holds their seat (a tournament's reserved one) sends, keeping their tokens.
    In a seed window the last seed awaited deals at once. Returns the game and the seat."""
    try:
        fairness.check_client_seed(client_seed)
    except fairness.ClientSeedError as error:
        raise UserError(str(error), code="invalid_client_seed") from None
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        player = seat.find(seats)
        if player is None:
            raise Forbidden(_("you hold no seat in this game"))
        if game.status != GameSession.Status.WAITING:
            raise Conflict(
                _(
                    "this game has already started and its deal is made: "
                    "no client seed can be sent or changed now"
                ),
                code="deal_fixed",
            )
        player.client_seed = client_seed
        player.save(update_fields=["client_seed"])
        _deal_if_all_seeded(game, seats)
    return game, player


def seat_token_issue(*, seat: Seat) -> str:
    """A fresh API token for a seat its holder already proved (the old one stops working)."""
    token = secrets.token_urlsafe(24)
    Seat.objects.filter(pk=seat.pk).update(token_sha256=hash_token(token))
    return token


def _holds_seat(seats: list[Seat], user: Any, guest: Guest | None) -> bool:
    if user is not None and user.is_authenticated:
        return any(s.user_id == user.pk for s in seats)
    return guest is not None and any(s.guest_id == guest.id for s in seats)


def game_start(*, game_id: int) -> GameSession:
    """Deal and start every clock that is owed. The deal comes from the committed server
    seed and the client seeds the seats sent (``games.fairness``), fixed here for good."""
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        if game.status != GameSession.Status.WAITING:
            raise Conflict(_("this game has already started"))
        _check_all_claimed(seats)
        _deal(game, seats)
    return game


def game_open_seed_window(*, game_id: int, seconds: float) -> GameSession:
    """Start a game whose seats are all held (a tournament's, reserved for its players) once
    every person's seat has sent its client seed, or when ``seconds`` have passed, whichever
    comes first; 0 starts it now. Until then the game waits, its ``next_deadline`` the end
    of the window, which the deadline timer and the overdue sweep enforce like any other:
    a seat that sent nothing by then counts as "" (``games.fairness``)."""
    if seconds <= 0:
        return game_start(game_id=game_id)
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        if game.status != GameSession.Status.WAITING:
            raise Conflict(_("this game has already started"))
        _check_all_claimed(seats)
        if _deal_if_all_seeded(game, seats, window=False):
            return game
        ends = now() + seconds
        game.next_deadline = datetime.fromtimestamp(ends, tz=UTC)
        game.save(update_fields=["next_deadline"])
        game_id = game.pk
        # No live update: a waiting game's streams send the start as the first version 0.
        transaction.on_commit(lambda: timers.after_seed_window_opens(game_id, ends))
    return game


def in_seed_window(game: GameSession) -> bool:
    """Whether the game waits for its players' client seeds until ``next_deadline``."""
    return game.status == GameSession.Status.WAITING and game.next_deadline is not None


def _check_all_claimed(seats: list[Seat]) -> None:
    free = [s.number for s in seats if not s.is_claimed]
    if free:
        raise Conflict(
            _("seat(s) %(seats)s are not taken yet") % {"seats": ", ".join(str(n) for n in free)}
        )


def _deal_if_all_seeded(game: GameSession, seats: list[Seat], *, window: bool = True) -> bool:
    """In a seed window (or, ``window=False``, as one opens), deal once every person's seat
    has sent its seed: nobody is left to wait for. Computers send none."""
    if window and not in_seed_window(game):
        return False
    if not all(s.client_seed for s in seats if s.kind == Seat.Kind.HUMAN):
        return False
    _deal(game, seats)
    return True


def _deal(game: GameSession, seats: list[Seat]) -> None:
    """Fix the deal from the server seed and the client seeds, and start the clocks. The
    caller holds the game's lock and has checked that it waits with every seat held."""
    engine = engine_for(game.engine)
    count = len(seats)
    client_seeds = [s.client_seed for s in seats]  # the lock reads seats by number
    game.effective_seed = fairness.effective_seed(bytes.fromhex(game.seed), client_seeds).hex()
    game.save(update_fields=["effective_seed"])
    control = game.control(engine)
    if game.origin is None:
        game.state = engine.setup(game.config, count, StepRng(game.rng_seed, 0))
        game.clocks = {str(n): clocks.new_clock(control) for n in range(count)}
    else:
        # A continued game (``game_continue_from``) starts from the state and reserves it
        # was made with; what nobody had seen is shuffled now, by the effective seed.
        game.state = reshuffled_unseen(engine, game.state, StepRng(game.rng_seed, 0))
    game.status = GameSession.Status.RUNNING
    game.started = timezone.now()
    _settle(game, engine, control, now())
    _save(game, seats)


# -- acting -----------------------------------------------------------------------------------


def act(
    *,
    game_id: int,
    seat: int | SeatKey,
    action: Any,
    client_action_id: str | None = None,
    expected_version: int | None = None,
) -> ActResult:
    """Apply one seat's action. A repeated ``client_action_id`` returns the first answer; a
    stale ``expected_version`` is a 409; an illegal action is refused with the engine's reason.
    Refusals change nothing (overdue timeouts found on the way are still applied).

    ``seat`` is its number, or a request's credential (``SeatKey``): the seat is then found
    among the seats the lock reads, and a credential that holds none is a 403."""
    _check_action_shape(action, client_action_id)
    key = seat if isinstance(seat, SeatKey) else SeatKey.number(seat)
    repeat_of = (key.column, key.value, client_action_id) if client_action_id else None
    refusal: Exception | None = None
    payloads: dict[str, str] = {}
    with transaction.atomic():
        game, seats, first = _lock(game_id, repeat_of)
        player = key.find(seats)
        if player is None:
            raise Forbidden(_("you hold no seat in this game"))
        number = player.number
        if first is not None:
            payloads = render_all(game, seats, now())
            return ActResult(first, game, number, payloads, repeated=True)
        if game.is_paused:
            raise Conflict(_("this game is paused while a dispute is looked at"), code="paused")
        engine = engine_for(game.engine)
        control = game.control(engine)
        moment = now()
        changed = _apply_overdue(game, engine, control, moment)
        try:
            if not game.is_running:
                raise Conflict(
                    _("this game is over") if game.is_over else _("this game has not started")
                )
            if expected_version is not None and expected_version != game.version:
                raise Conflict(
                    f"the game moved on: you saw version {expected_version}, "
                    f"it is now at version {game.version}",
                    code="stale_version",
                )
            if action["type"] in SYSTEM_ACTIONS:
                raise UserError(
                    _("%(type)r is applied by the server only") % {"type": action["type"]}
                )
            _apply(game, engine, control, number, action, client_action_id, moment)
        except (IllegalAction, UserError) as error:
            refusal = error
            if changed:
                _save(game, seats)
        else:
            payloads = _save(game, seats)
    if refusal is not None:
        raise refusal
    return ActResult(game.version, game, number, payloads)


def _check_action_shape(action: Any, client_action_id: str | None) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise UserError('an action is a JSON object with a "type", e.g. {"type": "draw"}')
    if client_action_id is not None and (
        not isinstance(client_action_id, str) or not 1 <= len(client_action_id) <= 64
    ):
        raise UserError(_("client_action_id must be a string of 1 to 64 characters"))


def enforce_deadline(*, game_id: int) -> int:
    """Apply every timeout and window that is due; returns how many were applied. Safe to call
    any number of times: it decides from the locked row and the server's clock alone.

    Most calls find nothing due (every commit schedules a task for its deadline, and the next
    move makes it moot), so an unlocked read rules those out before taking the row lock."""
    if not _may_be_due(store.game(game_id)):
        return 0
    with transaction.atomic():
        held = store.lock_game(game_id)
        if held is None:
            return 0
        game, seats, _repeated = held
        if in_seed_window(game):
            if game.next_deadline.timestamp() > now() + DEADLINE_MARGIN_SECONDS:
                return 0
            _deal(game, seats)  # the window is over: the seeds sent are the seeds
            return 1
        if not game.is_running or game.is_paused:
            return 0
        engine = engine_for(game.engine)
        control = game.control(engine)
        applied = _apply_overdue(game, engine, control, now())
        if applied:
            _save(game, seats)
        return applied


def fresh_game(*, game_id: int) -> GameSession | None:
    """The game as a read should see it, any overdue timeout applied first. The locking
    transaction runs only when the row says something is due: most reads then cost one query
    and never queue behind a write for the row lock."""
    game = store.game(game_id)
    if not _may_be_due(game):
        return game
    enforce_deadline(game_id=game_id)
    return store.game(game_id)


def _may_be_due(game: GameSession | None) -> bool:
    """Whether the row's earliest deadline has passed. ``next_deadline`` is the earliest of the
    open windows and running clocks, or a seed window's end; the margin covers its rounding to
    microseconds, so this never says no when the locked check would find something due."""
    if game is None or game.is_over or game.next_deadline is None:
        return False  # a waiting game's deadline is its seed window's end
    return game.next_deadline.timestamp() <= now() + DEADLINE_MARGIN_SECONDS


def bot_act(*, game_id: int, seat: int, version: int) -> bool:
    """A computer seat plays, if the game is still where it was when the move was scheduled."""
    with transaction.atomic():
        held = store.lock_game(game_id)
        if held is None or not held[0].is_running or held[0].version != version:
            return False
        if held[0].is_paused:
            return False  # the resume schedules the computers again
        game, seats, _repeated = held
        player = _seat(seats, seat)
        engine = engine_for(game.engine)
        if not player.is_computer or seat not in _bots_due(engine, game.state, [seat]):
            return False
        control = game.control(engine)
        rng = random.Random(f"{game.seed}:{version}:{seat}:bot")
        action = engine.bots[player.bot or default_bot(engine)](game.state, seat, rng)
        _apply(game, engine, control, seat, action, f"bot-{version}", now())
        _save(game, seats)
        return True


# -- connections and substitutes --------------------------------------------------------------


def mark_connected(*, game_id: int, seat: int) -> None:
    store.seat_connected(game_id, seat)


def mark_disconnected(*, game_id: int, seat: int) -> None:
    """The seat's last connection closed: after the game's grace a substitute takes over, if the
    game is running by then (a finished game's streams close for good: nothing to schedule)."""
    moment = timezone.now()
    if store.seat_disconnected(game_id, seat, moment) != 0:
        return
    status = GameSession.Status
    ongoing = GameSession.objects.filter(pk=game_id, status__in=(status.WAITING, status.RUNNING))
    grace = ongoing.values_list("grace_seconds", flat=True).first()
    if grace is not None:
        since = moment.timestamp()
        timers.schedule_grace(game_id, seat, since, since + grace)


def seat_leave(*, game_id: int, seat: int) -> bool:
    """A person leaves a running game: a substitute takes the seat at once."""
    return substitute_seat(game_id=game_id, seat=seat)


def substitute_if_still_away(*, game_id: int, seat: int, since: float) -> bool:
    """Called when a seat's grace has passed: substitute it unless its person came back."""
    player = Seat.objects.filter(game_id=game_id, number=seat).first()
    if player is None or player.connected or player.disconnected_at is None:
        return False
    if abs(player.disconnected_at.timestamp() - since) > 1e-3:
        return False  # it reconnected and dropped again since; that drop has its own grace
    return substitute_seat(game_id=game_id, seat=seat)


def substitute_seat(*, game_id: int, seat: int) -> bool:
    """A computer substitute, labelled as such, finishes the seat of someone who left. The
    seat's credentials end with it: its token and its guest no longer hold it (the account
    stays recorded, for the results, but no longer holds the seat either: ``access``)."""
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        player = _seat(seats, seat)
        if not game.is_running or player.kind != Seat.Kind.HUMAN:
            return False
        engine = engine_for(game.engine)
        player.kind = Seat.Kind.SUBSTITUTE
        player.bot = default_bot(engine)
        player.token_sha256 = ""
        player.guest_id = ""
        player.save(update_fields=["kind", "bot", "token_sha256", "guest_id"])
        control = game.control(engine)
        notice = {"type": "substitute", "seat": seat, "on": True}
        # Engines whose rules treat substitutes specially (Color Clash scoring) are told.
        with contextlib.suppress(IllegalAction):
            _apply(game, engine, control, None, notice, None, now())
        _save(game, seats)
        return True


def game_void(*, game_id: int, reason: str) -> bool:
    """Stop a game that no longer counts (a corrected result reset its match). It ends as
    ``aborted`` with no winner and its log whole, so the seed is revealed and it still
    verifies; nothing listens for its result. A game already over is left as it ended."""
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        if game.is_over:
            return False
        # A paused game stops as it stood at the pause: the pause costs nobody time.
        moment = game.paused_at if game.is_paused else now()
        game.paused_at = None
        if game.state is not None:
            control = game.control(engine_for(game.engine))
            game.clocks = {key: clocks.stop(control, c, moment) for key, c in game.clocks.items()}
        game.windows = []
        game.next_deadline = None
        game.status = GameSession.Status.ABORTED
        game.outcome = {"voided": True, "reason": reason, "winners": [], "ranking": []}
        game.finished = datetime.fromtimestamp(moment, tz=UTC)
        _save(game, seats)
        return True


def game_pause(*, game_id: int) -> float:
    """Hold a running game's clocks and windows (a dispute is looked at): nobody acts and no
    deadline passes until ``game_resume``. Returns the moment it paused."""
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        if not game.is_running:
            raise Conflict(_("only a running game can be paused"))
        if game.is_paused:
            raise Conflict(_("this game is already paused"))
        moment = now()
        engine = engine_for(game.engine)
        if _apply_overdue(game, engine, game.control(engine), moment) and not game.is_running:
            _save(game, seats)  # it ran out of time before the pause: nothing left to hold
            raise Conflict(_("this game ended before it could be paused"))
        game.paused_at = moment
        game.next_deadline = None
        _save(game, seats)
        return moment


def game_resume(*, game_id: int) -> float:
    """Let a paused game run on: every running clock and open window gets back exactly the
    time the pause lasted (``clocks.resumed``). Returns how many seconds it was paused."""
    with transaction.atomic():
        game, seats, _repeated = _lock(game_id)
        if not game.is_paused:
            raise Conflict(_("this game is not paused"))
        moment = now()
        paused_at, game.paused_at = game.paused_at, None
        if game.is_running:
            engine = engine_for(game.engine)
            game.clocks = {
                key: clocks.resumed(clock, paused_at, moment) for key, clock in game.clocks.items()
            }
            game.windows = clocks.resumed_windows(game.windows, paused_at, moment)
            _settle(game, engine, game.control(engine), moment)
        _save(game, seats)
        return moment - paused_at


# -- the shared core --------------------------------------------------------------------------


def _lock(
    game_id: int, repeat_of: tuple[str, Any, str] | None = None
) -> tuple[GameSession, list[Seat], int | None]:
    """The game, locked, its seats (every write renders them into the payloads) and the
    version ``repeat_of`` (see ``store.lock_game``) produced, if it was submitted before."""
    held = store.lock_game(game_id, repeat_of)
    if held is None:
        raise NotFound(_("no game %(id)s") % {"id": game_id})
    return held


def _seat(seats: list[Seat], number: int) -> Seat:
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise NotFound(_("this game has no seat %(seat)s") % {"seat": number})
    return seat


def _apply(
    game: GameSession,
    engine: Engine,
    control: TimeControl,
    seat: int | None,
    action: dict[str, Any],
    client_action_id: str | None,
    moment: float,
) -> None:
    step = game.version + 1
    events = engine.apply(game.state, seat, action, StepRng(game.rng_seed, step))
    entry = store.LogEntry(step, seat, action, events, client_action_id or "", timezone.now())
    game.unsaved_log.append(entry)
    game.version = step
    _settle(game, engine, control, moment)


def _settle(game: GameSession, engine: Engine, control: TimeControl, moment: float) -> None:
    """Bring clocks, windows, deadline and status in line with the new state."""
    state = game.state
    owed = {key: engine.decision(state, int(key)) for key in game.clocks}
    game.clocks = clocks.settle(control, game.clocks, owed, moment)
    game.windows = clocks.open_windows(game.windows, engine.windows(state), moment)
    outcome = engine.outcome(state)
    if outcome is not None:
        _finish(game, control, outcome.to_json(), moment)
    deadlines = [w["deadline"] for w in game.windows]
    clock_deadline = clocks.next_deadline(control, game.clocks)
    if clock_deadline is not None:
        deadlines.append(clock_deadline)
    game.next_deadline = (
        datetime.fromtimestamp(min(deadlines), tz=UTC) if deadlines and game.is_running else None
    )


def _finish(game: GameSession, control: TimeControl, outcome: dict, moment: float) -> None:
    game_id = game.pk
    transaction.on_commit(lambda: game_finished.send(sender=GameSession, game_id=game_id))
    game.status = GameSession.Status.FINISHED
    game.outcome = outcome
    game.finished = datetime.fromtimestamp(moment, tz=UTC)
    game.clocks = {key: clocks.stop(control, clock, moment) for key, clock in game.clocks.items()}
    game.windows = []


def _apply_overdue(game: GameSession, engine: Engine, control: TimeControl, moment: float) -> int:
    """Apply what is due by ``moment``, earliest first: windows closing and clocks running out
    (seats that ran out at the same instant together)."""
    applied = 0
    while game.is_running and applied < MAX_SYSTEM_STEPS:
        action = _earliest_due(game, engine, control, moment)
        if action is None:
            break
        # Clocks that start now start at ``moment``: a late worker never eats the next
        # player's allowance.
        _apply(game, engine, control, None, action, None, moment)
        applied += 1
    return applied


def _earliest_due(
    game: GameSession, engine: Engine, control: TimeControl, moment: float
) -> dict[str, Any] | None:
    candidates: list[tuple[float, dict[str, Any]]] = [
        (w["deadline"], {"type": WINDOW_CLOSED, "name": w["name"]})
        for w in game.windows
        if w["deadline"] <= moment
    ]
    groups = clocks.overdue(control, game.clocks, moment)
    if groups:
        when = clocks.deadline(control, game.clocks[str(groups[0][0])])
        candidates.append((when, engine.timeout_action(game.state, groups[0])))
    if not candidates:
        return None
    return min(candidates, key=lambda item: item[0])[1]


def _save(game: GameSession, seats: list[Seat]) -> dict[str, str]:
    """Persist the game's progress and, once committed, publish each audience's payload and
    schedule what comes next; returns those payloads. Every caller holds the game's lock."""
    saved = game.unsaved_log
    store.save_progress(game, saved)
    game.unsaved_log = []
    payloads = render_all(game, seats, now(), saved)
    update = Update(version=game.version, final=game.is_over, parts=payloads)
    # A task already waits for an unchanged deadline: one per deadline, not one per commit.
    moved = game.next_deadline != getattr(game, "loaded_deadline", None)
    deadline = game.next_deadline.timestamp() if game.next_deadline and moved else None
    bots = _bots_to_move(game, seats)
    game_id = game.pk
    transaction.on_commit(lambda: timers.after_commit(game_id, update, deadline, bots))
    return payloads


def _bots_to_move(game: GameSession, seats: list[Seat]) -> list[int]:
    if not game.is_running:
        return []
    computers = [s.number for s in seats if s.is_computer]
    return _bots_due(engine_for(game.engine), game.state, computers) if computers else []


def _bots_due(engine: Engine, state: dict[str, Any], seats: list[int]) -> list[int]:
    """Those of ``seats`` whose clock runs and who can act now: a clock may run on a seat
    that has nothing to play (DropMix: the side's extra moves), which only waits."""
    acting = set(engine.to_act(state))
    return [seat for seat in seats if seat in acting and engine.decision(state, seat)]


def legal_actions(game: GameSession, seat: int) -> list[dict[str, Any]]:
    if not game.is_running:
        return []
    return engine_for(game.engine).legal_actions(game.state, seat)
