"""The "Last card!" call, the 3-second window and the Catch (Classic only).

Playing your second-to-last card without having called opens a 3-second window for your seat.
While it is open nobody plays; you may still call, and any other seat in the round may Catch
you, which makes you draw two. The first of call, Catch or the window closing shuts it. You may
also call beforehand, on your turn while holding two cards, and then no window opens. A Catch
outside an open window (too late, or against a seat that called) has no effect, so it is
refused. Family night calls automatically (see ``turns.play``).

The caller has the window's first second to themselves, because a script reacts in a few
milliseconds and a person does not: a Catch pressed in that second is held, and takes effect
when the second ends only if the player has not called by then. The second is a window of its
own (``GRACE``) that opens with the 3-second one, so the host closes it at 1.0 s like any other
window and a replay sees the same order of call, Catch and close: no clock reading enters the
engine.
"""

from __future__ import annotations

from games.engines.base import Action, Event, IllegalAction, Rng, State, Window
from games.engines.color_clash.table import draw_cards

WINDOW = "last_card"
WINDOW_SECONDS = 3.0
GRACE = "last_card_grace"
GRACE_SECONDS = 1.0


def open_window(state: State, seat: int) -> Event:
    state["window"] = seat
    state["grace"] = True
    state["held"] = []
    return {"type": "window_opened", "name": WINDOW, "seat": seat}


def shut(state: State) -> None:
    state["window"] = None
    state["grace"] = False
    state["held"] = []


def in_grace(state: State) -> bool:
    # states saved before the grace second existed have no such key: no grace there
    return state["window"] is not None and state.get("grace", False)


def held_catchers(state: State) -> list[int]:
    return list(state.get("held", []))


def windows(state: State) -> list[Window]:
    window = state["window"]
    if window is None:
        return []
    opened = [Window(WINDOW, WINDOW_SECONDS, window)]
    if in_grace(state):
        opened.append(Window(GRACE, GRACE_SECONDS, window))
    return opened


def window_actions(state: State, seat: int, window: int) -> list[Action]:
    """While ``window``'s seat may still call: it calls, the other seats in the round Catch
    (once: a Catch held in the first second is not pressed again)."""
    if seat == window:
        return [{"type": "call_last_card"}]
    if state["hands"][seat] and seat not in held_catchers(state):
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
        held = held_catchers(state)
        if held:
            events.append({"type": "catch_dropped", "seats": held, "target": seat})
        events.extend(_closed(state, seat))
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
    if seat in held_catchers(state):
        raise IllegalAction("catch_pending")
    return seat, target


def catch(state: State, seat: int, target: int, rng: Rng) -> list[Event]:
    if in_grace(state):
        state["held"] = [*held_catchers(state), seat]
        return [{"type": "catch_held", "seat": seat, "target": target}]
    return _penalty(state, seat, target, rng)


def check_window_closed(state: State, seat: int | None, action: Action) -> tuple[int, str]:
    if seat is not None:
        raise IllegalAction("windows_host_only")
    window = state["window"]
    name = action.get("name")
    if window is None or name not in (WINDOW, GRACE) or (name == GRACE and not in_grace(state)):
        raise IllegalAction("no_such_window")
    return window, name


def close_window(state: State, seat: int, name: str, rng: Rng) -> list[Event]:
    """The grace second ends: a held Catch now takes effect (the player has not called), or
    the window runs on to its 3 seconds. The 3-second window ends: nothing happens, unless a
    Catch is still held (a host can only close it before the second if it fell behind)."""
    held = held_catchers(state)
    if held:
        return _penalty(state, held[0], seat, rng)
    if name == GRACE:
        state["grace"] = False
        return [{"type": "window_closed", "name": GRACE, "seat": seat}]
    return _closed(state, seat)


def _penalty(state: State, catcher: int, target: int, rng: Rng) -> list[Event]:
    count = draw_cards(state, target, 2, rng)
    return [
        {"type": "caught", "seat": catcher, "target": target},
        {"type": "drew", "seat": target, "count": count, "penalty": True},
        *_closed(state, target),
    ]


def _closed(state: State, seat: int) -> list[Event]:
    grace = in_grace(state)
    shut(state)
    events: list[Event] = [{"type": "window_closed", "name": WINDOW, "seat": seat}]
    if grace:
        events.insert(0, {"type": "window_closed", "name": GRACE, "seat": seat})
    return events
