"""Whose clock runs is public: it never depends on what a hand holds (team formats)."""

import pytest

from games.engines import conformance
from games.engines.dropmix import ENGINE
from tests.games.engines.dropmix.scenario import drop, game


@pytest.mark.parametrize("fits", [True, False])
def test_a_team_members_clock_after_their_move_does_not_say_if_an_extra_fits(fits):
    # Seat 0 has made its base move and earned an extra drop of a card of candy-r2's song:
    # whether seat 0 holds one is its own secret, so its clock runs either way.
    held = "candy-y2" if fits else "discovery-y1"
    state = game(
        4,
        hands={0: ["lab-extra-move", held], 2: ["velvet-r1a"]},
        on_board={2: [("candy-r2", 1, "red")]},
    )
    drop(state, 0, "lab-extra-move", 3)
    assert state["extras"] == [["drop", {"same_song": True}]] and state["base_left"] == 1
    assert ENGINE.decision(state, 0) is not None and ENGINE.decision(state, 2) is not None
    drops = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "drop"]
    assert bool(drops) == fits  # what seat 0 itself can do still depends on its hand


@pytest.mark.parametrize("seats", [3, 4])
def test_the_hosted_payload_hides_hands_in_team_formats(seats):
    # The seeds where a clock used to follow a partner's hand (38 of 400 random games).
    report = conformance.simulate(ENGINE, games=12, seed=f"dropmix-{seats}", seats=seats)
    assert report.failures == []
