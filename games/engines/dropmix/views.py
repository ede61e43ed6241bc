"""What each seat may see, and the redeal that proves views hide the rest.

The board is public (every stack, covered cards included), as are scores, hand and deck
sizes, and the turn's moves. Hands are private; deck order is hidden from everyone; a player
choosing a card from their deck sees its contents (sorted) while choosing.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Rng
from games.engines.dropmix import board, turns
from games.engines.dropmix.catalogue import Catalogue, catalogue_of

State = dict[str, Any]


def view(state: State, seat: int | None) -> dict[str, Any]:
    missing = board.missing_colours(state)
    pending = state["pending"]
    choice = state["choices"][0] if state["choices"] else None
    shown: dict[str, Any] = {
        "format": state["format"],
        "sides": state["sides"],
        "target": state["target"],
        "scores": list(state["scores"]),
        "winner": state["winner"],
        "turn": state["turn"],
        "active_side": state["active"],
        "board": [_slot(state, slot, missing) for slot in range(board.SLOT_COUNT)],
        "missing_colours": missing,
        "full_mix": state["full_mix"],
        "players": [_player(state, s) for s in range(len(state["hands"]))],
        "moves_left": {
            "base": state["base_left"],
            "extras": [{"kind": kind, "filter": rule} for kind, rule in state["extras"]],
            # who may make a base move; whether a partner holds a card fitting an extra
            # move depends on their hand, so it is not shown
            "base_movers": [
                s for s in state["sides"][state["active"]] if turns.base_move_allowed(state, s)
            ],
        },
        "pending": None
        if pending is None
        else {k: pending.get(k) for k in ("kind", "seat", "card", "slot")},
        "choosing": None if choice is None else {"seat": choice[0], "count": choice[1]},
        "last_spin": state["last_spin"],
        "wheel": {"labels": list(state["wheel"][0]), "weights": list(state["wheel"][1])},
    }
    seen = [entry[0] for stack in state["stacks"] for entry in stack]
    if seat is not None:
        shown["seat"] = seat
        shown["hand"] = list(state["hands"][seat])
        seen += shown["hand"]
        if choice is not None and choice[0] == seat:
            shown["choose_from"] = sorted(state["decks"][seat])
            seen += shown["choose_from"]
    # What the page draws each card with, for the cards this view shows and no other: the
    # board's, and the seat's own hand (and deck while it chooses from it).
    shown["cards"] = card_data(catalogue_of(state), seen)
    return shown


def card_data(catalogue: Catalogue, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The catalogue's record of each card in ``ids``, with its song's title and artist."""
    records = _records(catalogue)
    return {card_id: dict(records[card_id]) for card_id in sorted(set(ids))}


_RECORDS: dict[str, dict[str, dict[str, Any]]] = {}


def _records(catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    # built once per catalogue (by fingerprint): every view of every commit reads them
    records = _RECORDS.get(catalogue.fingerprint)
    if records is None:
        songs = {song["id"]: song for song in catalogue.data.get("songs", [])}
        playlists = {p["id"]: p["name"] for p in catalogue.data.get("playlists", [])}
        records = {}
        for card in catalogue.data["cards"]:
            record = {key: value for key, value in card.items() if key != "id"}
            song = songs.get(card.get("song"))
            if song:
                record["title"], record["artist"] = song["title"], song["artist"]
            record["playlist_name"] = playlists.get(card["playlist"], card["playlist"])
            records[card["id"]] = record
        _RECORDS[catalogue.fingerprint] = records
    return records


def _slot(state: State, slot: int, missing: list[str]) -> dict[str, Any]:
    accepts = state["accepts"][slot]
    return {
        "slot": slot + 1,
        "accepts": accepts,
        "stack": [
            {"card": c, "seat": s, "colour": colour} for c, s, colour in state["stacks"][slot]
        ],
        "controller": board.controller(state, slot),
        "highlighted": [colour for colour in accepts if colour in missing],
    }


def _player(state: State, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "side": state["side_of"][seat],
        "role": state["roles"][seat],
        "check_in": state["checkin"][seat],
        "hand_count": len(state["hands"][seat]),
        "deck_count": len(state["decks"][seat]),
        "discard_count": len(state["discards"][seat]),
        "cards_owed": turns.cards_owed(state, seat),
    }


def reshuffle_unseen(state: State, rng: Rng) -> State:
    """In place on a copy: each side's deck (its order unseen by anyone) is shuffled again."""
    for deck in state["decks"]:
        rng.shuffle(deck)
    return state


def resample_hidden(state: State, viewer: int | None, rng: Rng) -> State:
    """Redeal, in place on a copy, every card ``viewer`` cannot see, keeping zone sizes."""
    for seat in range(len(state["hands"])):
        deck = state["decks"][seat]
        if seat == viewer:
            rng.shuffle(deck)
            continue
        zones = (state["hands"][seat], deck, state["discards"][seat])
        pool = [card for zone in zones for card in zone]
        rng.shuffle(pool)
        for zone in zones:
            size = len(zone)
            zone[:], pool = pool[:size], pool[size:]
    return state
