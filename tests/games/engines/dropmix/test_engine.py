"""Config, views, bots and the shared conformance playouts for 1v1, 1v2 and 2v2."""

import random

import pytest

from games.engines import conformance
from games.engines.base import ConfigError, StepRng, seed_bytes
from games.engines.dropmix import ENGINE
from tests.games.engines.dropmix.scenario import drop, game

MODES = {2: "1v1", 3: "1v2", 4: "2v2"}


# --- config ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "sides"), [(2, [[0], [1]]), (3, [[0], [1, 2]]), (4, [[0, 2], [1, 3]])]
)
def test_the_seat_count_decides_the_format(seats, sides):
    state = ENGINE.setup(ENGINE.validate_config({}, seats), seats, StepRng(seed_bytes(1), 0))
    assert state["format"] == MODES[seats] and state["sides"] == sides


def test_defaults_are_filled_in():
    config = ENGINE.validate_config({}, 2)
    assert config["target"] == 21 and config["middle_slot_colour"] == "yellow"
    assert config["wheel"] == {"1": 4, "2": 4, "3": 3, "X": 1}
    assert (config["retract_seconds"], config["spin_retract_seconds"]) == (3, 2)
    assert (config["score_floor"], config["clear_mode"]) == (0, "stack")
    assert len(config["decks"]) == 2


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"target": 30}, "target must be 15 or 21"),
        ({"middle_slot_colour": "pink"}, "middle_slot_colour must be one of"),
        ({"wheel": {"1": 1}}, "wheel must give"),
        ({"wheel": {"1": 0, "2": 0, "3": 0, "X": 0}}, "wheel must give"),
        ({"retract_seconds": 0}, "retract_seconds must be a positive"),
        ({"turn_seconds": 45}, "unknown config keys: turn_seconds"),
        ({"colour": "red"}, "unknown config keys: colour"),
        ({"decks": [None]}, "one deck (or null) per seat"),
        ({"score_floor": 1}, "score_floor must be a whole number of 0 or less, or null"),
        ({"score_floor": "0"}, "score_floor must be a whole number"),
        ({"score_floor": True}, "score_floor must be a whole number"),
        ({"clear_mode": "all"}, "clear_mode must be one of stack, top"),
    ],
)
def test_bad_config_is_refused_with_a_reason(config, message):
    with pytest.raises(ConfigError) as error:
        ENGINE.validate_config(config, 2)
    assert message in str(error.value)


def test_five_seats_are_refused():
    with pytest.raises(ConfigError, match="2, 3 or 4 seats"):
        ENGINE.validate_config({}, 5)


# --- views ----------------------------------------------------------------------------------


def test_a_player_sees_their_hand_the_board_and_counts_and_a_spectator_no_hand():
    state = game(hands={0: ["candy-r1a", "candy-b1a"], 1: ["steel-y3"]})
    drop(state, 0, "candy-r1a", 2)
    mine, theirs, spectator = ENGINE.view(state, 0), ENGINE.view(state, 1), ENGINE.view(state, None)
    assert mine["hand"] == ["candy-b1a"] and theirs["hand"] == ["steel-y3"]
    assert "hand" not in spectator
    assert "candy-b1a" not in str(theirs) and "steel-y3" not in str(mine)
    assert spectator["board"][1]["stack"] == [{"card": "candy-r1a", "seat": 0, "colour": "red"}]
    assert spectator["board"][1]["controller"] == 0
    assert spectator["players"][0]["hand_count"] == 1
    assert spectator["players"][0]["cards_owed"] == 2
    assert spectator["moves_left"]["base"] == 1
    assert spectator["pending"] == {"kind": "drop", "seat": 0, "card": "candy-r1a", "slot": 2}
    assert spectator["scores"] == [2, 0]  # red was missing from the mix


def test_resampling_redeals_hidden_cards_but_keeps_the_view():
    state = ENGINE.setup(ENGINE.validate_config({}, 2), 2, StepRng(seed_bytes(4), 0))
    redealt = ENGINE.resample_hidden(state, 0, random.Random(1))
    assert redealt["hands"][0] == state["hands"][0]
    assert redealt["hands"][1] != state["hands"][1] or redealt["decks"][1] != state["decks"][1]
    assert ENGINE.view(redealt, 0) == ENGINE.view(state, 0)


# --- bots -----------------------------------------------------------------------------------


def test_the_greedy_bot_takes_the_most_points_now():
    state = game(
        hands={0: ["candy-r1a", "candy-b1a"]},
        on_board={2: [("steel-r2", 1, "red")]},
    )
    assert ENGINE.bots["greedy"](state, 0, random.Random(1)) == {
        "type": "drop",
        "card": "candy-b1a",
        "slot": 4,
    }  # the missing blue scores 2; the red cannot cover a level 2 anyway
    assert state["hands"][0] == ["candy-r1a", "candy-b1a"]  # tried on copies only


def test_the_greedy_bot_spins_when_the_opponent_holds_many_slots():
    held = {
        slot: [(card, 1, colour)]
        for slot, card, colour in [
            (1, "steel-r1a", "red"),
            (2, "steel-r2", "red"),
            (4, "steel-b2", "blue"),
        ]
    }
    state = game(hands={0: ["candy-g3"]}, on_board=held)
    assert ENGINE.bots["greedy"](state, 0, random.Random(1)) == {"type": "spin"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bots_play_whole_games_to_the_target(seats):
    for seed in range(3):
        rng = random.Random(seed)
        state = ENGINE.setup(ENGINE.validate_config({}, seats), seats, rng)
        names = ["greedy", "random"]
        for _ in range(5000):
            if ENGINE.outcome(state):
                break
            acting = [s for s in ENGINE.to_act(state) if ENGINE.decision(state, s)]
            if acting:
                seat = acting[0]
                action = ENGINE.bots[names[state["side_of"][seat]]](state, seat, rng)
                ENGINE.apply(state, seat, action, rng)
            else:
                window = ENGINE.windows(state)[0]
                ENGINE.apply(state, None, {"type": "window_closed", "name": window.name}, rng)
        outcome = ENGINE.outcome(state)
        assert outcome is not None and max(state["scores"]) >= 21


# --- conformance ----------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "games"), [(2, 50), (3, 35), (4, 30)])
def test_conformance_with_every_check(seats, games):
    report = conformance.simulate(
        ENGINE, games=games, seed=f"dropmix-{seats}", seats=seats, timeout_rate=0.01
    )
    assert report.failures == []
    assert report.games == games


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("target", [15, 21])
def test_hundreds_of_random_games_per_mode_end_with_a_side_at_the_target(seats, target):
    config = ENGINE.validate_config({"target": target}, seats)
    for number in range(300):
        result = conformance.play_game(
            ENGINE,
            config,
            seats,
            conformance.game_seed(f"end-{target}", number),
            random.Random(f"end-{target}:{number}"),
            game=number,
            check=False,
            timeout_rate=0.01,
        )
        outcome = result.outcome
        assert result.failures == [] and outcome["reason"] == "target"
        assert max(outcome["scores"].values()) >= target
        assert sorted(outcome["winners"] + outcome["ranking"][1]) == list(range(seats))


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_many_more_games_with_every_check(seats):
    report = conformance.simulate(
        ENGINE, games=1000, seed=f"slow-{seats}", seats=seats, timeout_rate=0.02
    )
    assert report.failures == []
