"""High Card: the smallest game that exercises the whole engine protocol.

Each seat is dealt a hidden hand; in turn, seats play one card face up; after every play a
one-second "applause" window must close before the next seat plays. When every hand is empty
the highest total wins. Timing out plays the lowest card. It lives in tests/ only, to prove the
protocol, the conformance checks and the ``simulate`` command before real engines exist.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.engines.base import (
    TIMEOUT,
    WINDOW_CLOSED,
    Action,
    ConfigError,
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Rng,
    State,
    Window,
    public_events,
    refuse_unknown_fields,
)

FIELDS = {"play": ("card",), WINDOW_CLOSED: ("name",), TIMEOUT: ("seats",)}


def _lowest_card_bot(state: State, seat: int, rng: Rng) -> Action:
    return {"type": "play", "card": min(state["hands"][seat])}


class HighCard:
    key = "high_card"
    name = "High Card"
    min_seats = 2
    max_seats = 4
    default_time_control = {"allowances": {"turn": 10}, "reserve": 0, "policy": "engine"}
    bots = {"lowest": _lowest_card_bot}

    def validate_config(self, config: dict[str, Any], seats: int) -> dict[str, Any]:
        if not self.min_seats <= seats <= self.max_seats:
            raise ConfigError(f"High Card needs 2 to 4 seats, not {seats}")
        full = {"hand_size": 3, "applause_seconds": 1.0, **config}
        if not isinstance(full["hand_size"], int) or not 1 <= full["hand_size"] <= 5:
            raise ConfigError("hand_size must be a whole number from 1 to 5")
        if not isinstance(full["applause_seconds"], int | float) or full["applause_seconds"] < 0:
            raise ConfigError("applause_seconds must be a number of seconds")
        return full

    def setup(self, config: dict[str, Any], seats: int, rng: Rng) -> State:
        deck = list(range(1, 21))
        rng.shuffle(deck)
        size = config["hand_size"]
        hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(seats)]
        return {
            "deck": deck[seats * size :],
            "hands": hands,
            "table": [[] for _ in range(seats)],
            "turn": 0,
            "plays": 0,
            "applause": False,
            "applause_seconds": config["applause_seconds"],
        }

    def to_act(self, state: State) -> list[int]:
        if state["applause"] or self._over(state):
            return []
        return [state["turn"]]

    def decision(self, state: State, seat: int) -> Decision | None:
        return Decision("turn", state["plays"]) if seat in self.to_act(state) else None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "play", "card": card} for card in state["hands"][seat]]

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        kind = action.get("type")
        if kind in FIELDS:
            refuse_unknown_fields(action, *FIELDS[kind])
        if kind == WINDOW_CLOSED:
            if seat is not None or not state["applause"] or action.get("name") != "applause":
                raise IllegalAction("no_such_window")
            return
        if kind == TIMEOUT:
            if seat is not None or action.get("seats") != [state["turn"]]:
                raise IllegalAction("timeout_turn_only")
            return
        if kind != "play":
            raise IllegalAction("unknown_action", type=repr(kind))
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn")
        if action.get("card") not in state["hands"][seat]:
            raise IllegalAction("card_not_held")

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        self.validate(state, seat, action)
        if action["type"] == WINDOW_CLOSED:
            state["applause"] = False
            return [{"type": "window_closed", "name": "applause"}]
        if action["type"] == TIMEOUT:
            seat = state["turn"]
            action = {"type": "play", "card": min(state["hands"][seat])}
        state["hands"][seat].remove(action["card"])
        state["table"][seat].append(action["card"])
        state["plays"] += 1
        state["turn"] = (seat + 1) % len(state["hands"])
        state["applause"] = not self._over(state)
        return [{"type": "played", "seat": seat, "card": action["card"]}]

    def public_events(self, events: list[Event]) -> list[Event]:
        return public_events(events, {"played": ("seat", "card")})

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = {
            "hand_counts": {str(s): len(hand) for s, hand in enumerate(state["hands"])},
            "table": state["table"],
            "turn": state["turn"],
            "deck": len(state["deck"]),
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
        return view

    def timeout_action(self, state: State, seats: list[int]) -> Action:
        return {"type": TIMEOUT, "seats": seats}

    def windows(self, state: State) -> list[Window]:
        return [Window("applause", state["applause_seconds"])] if state["applause"] else []

    def outcome(self, state: State) -> Outcome | None:
        if not self._over(state) or state["applause"]:
            return None
        totals = {seat: sum(cards) for seat, cards in enumerate(state["table"])}
        ranking: list[list[int]] = []
        for total in sorted(set(totals.values()), reverse=True):
            ranking.append([seat for seat, value in totals.items() if value == total])
        return Outcome(winners=ranking[0], ranking=ranking, scores=totals, reason="hands empty")

    def resample_hidden(self, state: State, viewer: int | None, rng: Rng) -> State:
        copied = copy.deepcopy(state)
        others = [s for s in range(len(state["hands"])) if s != viewer]
        pool = copied["deck"] + [card for s in others for card in copied["hands"][s]]
        rng.shuffle(pool)
        for s in others:
            size = len(copied["hands"][s])
            copied["hands"][s], pool = sorted(pool[:size]), pool[size:]
        copied["deck"] = pool
        return copied

    def _over(self, state: State) -> bool:
        return not any(state["hands"])


ENGINE = HighCard()


class LaxHighCard(HighCard):
    """Takes any extra field along with a move (and so stores it in the log)."""

    key = "lax_high_card"

    def validate(self, state: State, seat: int | None, action: Action) -> None:
        super().validate(state, seat, {key: action[key] for key in action if key in _KNOWN})


_KNOWN = {"type", "card", "name", "seats"}


class LeakyHighCard(HighCard):
    """Shows every hand to everyone: the conformance checks must catch it."""

    key = "leaky_high_card"

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "all_hands": state["hands"]}


class UnreplayableHighCard(HighCard):
    """Draws from the global random module instead of the rng it is given."""

    key = "unreplayable_high_card"

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        state["luck"] = random.random()
        return events


class EndlessHighCard(HighCard):
    """Never ends: cards go back to the hand they came from."""

    key = "endless_high_card"

    def apply(self, state: State, seat: int | None, action: Action, rng: Rng) -> list[Event]:
        events = super().apply(state, seat, action, rng)
        if action["type"] == "play":
            state["table"][seat].remove(action["card"])
            state["hands"][seat].append(action["card"])
        return events
