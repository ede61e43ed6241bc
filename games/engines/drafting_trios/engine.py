"""The Drafting Trios engine: the protocol of ``games.engines.base`` over the modules here."""

from __future__ import annotations

from typing import Any

from games.engines.base import (
    TIMEOUT,
    WINDOW_CLOSED,
    Action,
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Rng,
    State,
    View,
    Window,
    public_events,
)
from games.engines.drafting_trios import (
    actions,
    bots,
    computer,
    config,
    ending,
    rounds,
    table,
    views,
)

PUBLIC_EVENTS: dict[str, tuple[str, ...]] = {
    # who has chosen, never what: picks stay secret until both chose (the view reveals them)
    "round_started": ("round",),
    "chosen": ("seat",),
    "card_named": ("seat",),
    "piles_swapped": (),
    "mulligan": ("seat",),
    "no_pile": ("seat",),
    "trio": ("seat", "category", "score"),
    "discarded": ("seat", "points"),
    "power": ("seat", "card"),
    "destroyed": ("seat", "category"),
    "earthquake_without_target": ("seat",),
    "burned": ("seat", "cards"),
    "burn_drawn": ("seat", "cards"),
    "reshuffled": ("seat",),
    "game_over": ("winner", "reason"),
}


class DraftingTrios:
    key = "drafting_trios"
    name = "Drafting Trios"
    min_seats = 2
    max_seats = 2
    default_time_control: dict[str, Any] = {
        "allowances": {"draft": 60, "play": 90, "choice": 30},
        "reserve": 300,
        "increment": 0,
        "policy": "lose",
    }
    # The first that is not "random" is what a computer seat plays (``default_bot``).
    bots = {
        "computer": computer.computer,
        "greedy": bots.greedy_bot,
        "random": bots.random_bot,
    }

    def validate_config(self, config_: dict[str, Any], seats: int) -> dict[str, Any]:
        return config.validate_config(config_, seats)

    def setup(self, config_: dict[str, Any], seats: int, rng: Rng) -> State:
        state = table.new_state(config.validate_config(config_, seats), rng)
        rounds.start_round(state, rng, [])
        return state

    def to_act(self, state: State) -> list[int]:
        return list(state["waiting"])

    def decision(self, state: State, seat: int) -> Decision | None:
        if seat not in state["waiting"]:
            return None
        return Decision(table.PHASE_OF_STAGE[state["stage"]], state["serial"])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return actions.legal_actions(state, seat)

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        self._checked(state, seat, action)

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        checked = self._checked(state, seat, action)
        if checked["type"] == TIMEOUT:
            events: list[Event] = []
            ending.time_out(state, checked["seats"], events)
            return events
        return rounds.submit(state, seat, checked, rng)

    def public_events(self, events: list[Event]) -> list[Event]:
        return public_events(events, PUBLIC_EVENTS)

    def view(self, state: State, seat: int | None) -> View:
        return views.view(state, seat)

    def timeout_action(self, state: State, seats: list[int]) -> Action:
        return {"type": TIMEOUT, "seats": sorted(seats)}

    def windows(self, state: State) -> list[Window]:
        return []

    def outcome(self, state: State) -> Outcome | None:
        return ending.outcome(state)

    def resample_hidden(self, state: State, viewer: int | None, rng: Rng) -> State:
        return views.resample_hidden(state, viewer, rng)

    def reshuffle_unseen(self, state: State, rng: Rng) -> State:
        return views.reshuffle_unseen(state, rng)

    def _checked(self, state: State, seat: int | None, action: Action) -> Action:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == WINDOW_CLOSED:
            raise IllegalAction("no_windows")
        if kind == TIMEOUT:
            self._check_timeout(state, seat, action)
            return action
        return actions.check(state, seat, action)

    def _check_timeout(self, state: State, seat: int | None, action: Action) -> None:
        if seat is not None:
            raise IllegalAction("timeout_host_clock")
        seats = action.get("seats")
        if set(action) != {"type", "seats"} or not isinstance(seats, list) or not seats:
            raise IllegalAction("timeout_shape")
        if len(set(seats)) != len(seats) or not set(seats) <= set(state["waiting"]):
            raise IllegalAction("timeout_owing_only")
