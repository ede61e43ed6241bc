"""A game from its creation to its start: created (or continued from an ended one), its seats
claimed, its players' client seeds sent, then the deal, at once or when a seed window ends."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clocks, fairness, invites, notices, replays
from games.access import SeatKey
from games.clocks import TimeControl, TimeControlError
from games.engines.base import ConfigError, StepRng, reshuffled_unseen
from games.models import GameSession, Seat, hash_token
from games.services import commit, core, steering
from hosting.core.errors import Conflict, Forbidden, UserError
from hosting.core.identity import Guest


@dataclass(frozen=True)
class SeatSpec:
    kind: str = Seat.Kind.HUMAN
    bot: str = ""
    role: str = ""
    display_name: str = ""
    user: Any = None  # the account the seat is reserved for: only they may hold it


@dataclass(frozen=True)
class Claim:
    seat: Seat
    token: str  # the seat's API token, shown once
    game: GameSession  # as the claim left it, with all its seats
    seats: list[Seat]


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
    engine = core.engine_for(engine_key)
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
            time_control or {}, core.time_control_defaults(engine, full_config)
        )
    except (ConfigError, TimeControlError) as error:
        raise UserError(str(error), code="invalid_config") from None
    for spec in seats:
        if spec.kind not in Seat.Kind.values:
            raise UserError(
                _("a seat is one of: %(kinds)s") % {"kinds": ", ".join(Seat.Kind.values)}
            )
        if (
            spec.kind != Seat.Kind.HUMAN
            and (spec.bot or core.default_bot(engine)) not in engine.bots
        ):
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
                bot=(spec.bot or core.default_bot(engine)) if spec.kind != Seat.Kind.HUMAN else "",
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
    source = GameSession.objects.get(pk=source_game_id)
    if not source.is_over:
        raise Conflict(_("a game continues from another once that one has ended"))
    if not 0 <= seq <= source.version:
        raise UserError(
            _("the log has events 0 to %(last)s; there is no event %(seq)s")
            % {"last": source.version, "seq": seq}
        )
    engine = core.engine_for(source.engine)
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
        game, seats, _repeated = core.lock(game_id)
        seat = core.find_seat(seats, number)
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
        game, seats, _repeated = core.lock(game_id)
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


def game_start(*, game_id: int, by: Any) -> GameSession:
    """Deal and start every clock that is owed, ``by`` one who steers the game
    (``steering``). The deal comes from the committed server seed and the client seeds the
    seats sent (``games.fairness``), fixed here for good. A game in its seed window is not
    started early (409 ``seed_window``): its players' seeds would be left out of the deal; it
    deals itself when they are all in or the window closes."""
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        steering.check_steers(game, by)
        if game.status != GameSession.Status.WAITING:
            raise Conflict(_("this game has already started"))
        if in_seed_window(game):
            raise Conflict(
                _(
                    "this game waits for its players' client seeds: it deals itself once "
                    "they are all in, or when its seed window closes"
                ),
                code="seed_window",
            )
        _check_all_claimed(seats)
        deal(game, seats)
        started_id = game.pk
        transaction.on_commit(lambda: notices.tell_seated(started_id))
    return game


def game_open_seed_window(*, game_id: int, seconds: float, by: Any) -> GameSession:
    """Start a game whose seats are all held (a tournament's, reserved for its players) once
    every person's seat has sent its client seed, or when ``seconds`` have passed, whichever
    comes first; 0 starts it now. Until then the game waits, its ``next_deadline`` the end
    of the window, which the deadline timer and the overdue sweep enforce like any other:
    a seat that sent nothing by then counts as "" (``games.fairness``). ``by`` steers the
    game (``steering``)."""
    if seconds <= 0:
        return game_start(game_id=game_id, by=by)
    with transaction.atomic():
        game, seats, _repeated = core.lock(game_id)
        steering.check_steers(game, by)
        if game.status != GameSession.Status.WAITING:
            raise Conflict(_("this game has already started"))
        _check_all_claimed(seats)
        opened_id = game.pk
        # Its seated players are told at once: their seeds are awaited, then their moves.
        transaction.on_commit(lambda: notices.tell_seated(opened_id))
        if _deal_if_all_seeded(game, seats, window=False):
            return game
        ends = core.now() + seconds
        game.next_deadline = datetime.fromtimestamp(ends, tz=UTC)
        game.save(update_fields=["next_deadline"])
        game_id = game.pk
        # No live update: a waiting game's streams send the start as the first version 0.
        transaction.on_commit(lambda: commit.after_seed_window_opens(game_id, ends))
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
    deal(game, seats)
    return True


def deal(game: GameSession, seats: list[Seat]) -> None:
    """Fix the deal from the server seed and the client seeds, and start the clocks. The
    caller holds the game's lock and has checked that it waits with every seat held."""
    engine = core.engine_for(game.engine)
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
    core.settle(game, engine, control, core.now())
    commit.save(game, seats)
