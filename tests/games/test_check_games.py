"""``check_games`` finds a game whose log, state or clocks contradict each other."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import GameEvent, GameSession
from games.services import SeatSpec

pytestmark = pytest.mark.django_db


def check() -> tuple[int, list[str]]:
    out = StringIO()
    try:
        call_command("check_games", stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


def high_card(clock) -> GameSession:
    """A running High Card game (hand of 2 each) two actions in: a play and the applause."""
    game = services.game_create(
        engine_key="high_card",
        seats=[SeatSpec(), SeatSpec()],
        config={"hand_size": 2},
        time_control={"allowances": {"turn": 5}},
    )
    game.seats.update(guest_id="g")
    game = services.game_start(game_id=game.pk, by=None)
    hand = game.state["hands"][0]
    services.act(game_id=game.pk, seat=0, action={"type": "play", "card": hand[0]})
    clock.advance(1.1)  # the applause window closes
    assert services.enforce_deadline(game_id=game.pk) == 1
    return GameSession.objects.get(pk=game.pk)


def finished(clock) -> GameSession:
    game = high_card(clock)
    while game.is_running:  # every later turn ends by the clock
        clock.advance(6)
        services.enforce_deadline(game_id=game.pk)
        game = GameSession.objects.get(pk=game.pk)
    return game


def test_sound_games_have_no_problems(engine, clock):
    services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])  # waiting
    high_card(clock)
    done = finished(clock)
    assert done.status == "finished" and done.next_deadline is None
    assert check() == (0, ["3 games, 0 problems"])


def test_a_gap_in_the_log_and_a_version_beyond_it_are_listed_and_exit_1(engine, clock):
    game = high_card(clock)
    GameEvent.objects.filter(game=game, seq=1).delete()
    status, lines = check()
    assert status == 1
    assert lines == [
        f"game {game.pk} (high_card): the log is not contiguous: 1 actions, versions 2..2, "
        "missing 1",
        f"game {game.pk} (high_card): its version is 2 but its log has 1 actions",
        "1 games, 2 problems",
    ]


def test_a_state_the_log_does_not_give_is_listed(engine, clock):
    game = high_card(clock)
    state = game.state
    state["hands"][1] = [20]  # a card that was never dealt to seat 1
    GameSession.objects.filter(pk=game.pk).update(state=state)
    assert check() == (
        1,
        [
            f"game {game.pk} (high_card): replaying its log from the seed does not give "
            "the stored state",
            "1 games, 1 problems",
        ],
    )


def test_a_finished_game_with_a_deadline_pending_is_listed(engine, clock):
    game = finished(clock)
    running = {**game.clocks["0"], "phase": "turn", "serial": 9, "started": clock.now}
    GameSession.objects.filter(pk=game.pk).update(
        next_deadline=game.finished, clocks={**game.clocks, "0": running}
    )
    status, lines = check()
    assert status == 1
    assert lines == [
        f"game {game.pk} (high_card): the game is over but seat 0's clock still runs",
        f"game {game.pk} (high_card): the game is over but a deadline is pending "
        f"({game.finished.isoformat()})",
        "1 games, 2 problems",
    ]


def test_clocks_that_do_not_follow_the_rules_are_listed(engine, clock):
    game = high_card(clock)
    stopped = {**game.clocks["1"], "phase": None, "serial": None, "started": None}
    GameSession.objects.filter(pk=game.pk).update(clocks={**game.clocks, "1": stopped})
    prefix = f"game {game.pk} (high_card): "
    assert check() == (
        1,
        [
            prefix + "seat 1 owes a turn decision but its clock is stopped",
            prefix + f"a deadline is pending ({game.next_deadline.isoformat()}) but no clock "
            "runs and no window is open",
            "1 games, 2 problems",
        ],
    )


def test_an_effective_seed_its_seeds_do_not_give_is_listed(engine, clock):
    game = high_card(clock)
    assert game.effective_seed  # every game dealt now draws from one
    GameSession.objects.filter(pk=game.pk).update(effective_seed="00" * 32)
    assert check() == (
        1,
        [
            f"game {game.pk} (high_card): its effective seed is not the one its server and "
            "client seeds give",
            "1 games, 1 problems",
        ],
    )
