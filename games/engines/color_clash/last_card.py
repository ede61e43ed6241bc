"""The "Last card!" call, the 3-second window and the Catch (Classic only).

Playing your second-to-last card without having called opens a 3-second window for your seat.
While it is open nobody plays; you may still call, and any other seat in the round may Catch
you, which makes you draw two. The first of call, Catch or the window closing shuts it. You may
also call beforehand, on your turn while holding two cards, and then no window opens. A Catch
outside an open window (too late, or against a seat that called) has no effect, so it is
refused. Family night calls automatically (see ``turns.play``).
"""

from __future__ import annotations

from games.engines.base import Action, Event, IllegalAction, Rng, State
from games.engines.color_clash.table import draw_cards

WINDOW = "last_card"
WINDOW_SECONDS = 3.0


def window_actions(state: State, seat: int, window: int) -> list[Action]:
    """While ``window``'s seat may still call: it calls, the other seats in the round Catch."""
    if seat == window:
        return [{"type": "call_last_card"}]
    if state["hands"][seat]:
        return [{"type": "catch", "target": window}]
    return []


def check_call(state: State, seat: int | None, action: Action) -> tuple[int]:
    if seat is None:
        raise IllegalAction("last_card_players_only")
    if state["config"]["mode"] == "family":
        raise IllegalAction("last_card_automatic")
    window = state["window"]
    if window == seat:
        return (seat,)
    if window is not None:
        raise IllegalAction("other_window_open")
    if seat != state["turn"] or state["choosing_color"]:
        raise IllegalAction("last_card_not_now")
    if state["called"][seat]:
        raise IllegalAction("last_card_already_called")
    if len(state["hands"][seat]) != 2:
        raise IllegalAction("last_card_needs_two")
    return (seat,)


def call(state: State, seat: int, rng: Rng) -> list[Event]:
    state["called"][seat] = True
    events: list[Event] = [{"type": "last_card_called", "seat": seat, "automatic": False}]
    if state["window"] == seat:
        state["window"] = None
        events.append({"type": "window_closed", "name": WINDOW, "seat": seat})
    return events


def check_catch(state: State, seat: int | None, action: Action) -> tuple[int, int]:
    if seat is None:
        raise IllegalAction("catch_players_only")
    window = state["window"]
    if window is None:
        raise IllegalAction("catch_too_late")
    target = action.get("target")
    if target != window or isinstance(target, bool):
        raise IllegalAction("catch_wrong_target")
    if seat == window:
        raise IllegalAction("catch_self")
    if not state["hands"][seat]:
        raise IllegalAction("left_round")
    return seat, target


def catch(state: State, seat: int, target: int, rng: Rng) -> list[Event]:
    state["window"] = None
    count = draw_cards(state, target, 2, rng)
    return [
        {"type": "caught", "seat": seat, "target": target},
        {"type": "drew", "seat": target, "count": count, "penalty": True},
        {"type": "window_closed", "name": WINDOW, "seat": target},
    ]


def check_window_closed(state: State, seat: int | None, action: Action) -> tuple[int]:
    if seat is not None:
        raise IllegalAction("windows_host_only")
    window = state["window"]
    if window is None or action.get("name") != WINDOW:
        raise IllegalAction("no_such_window")
    return (window,)


def close_window(state: State, seat: int, rng: Rng) -> list[Event]:
    state["window"] = None
    return [{"type": "window_closed", "name": WINDOW, "seat": seat}]
