"""What each seat sees, and the redeal that proves it sees nothing more.

Public: categories, totals, the actions revealed by the last resolution, power effects in
force, zone counts, who has chosen in the current step (never what). Private to the owner:
hand, the pile in front of them, this round's picks and draft discards, the discard pile's
contents, the named card and whether it was found, their own pending choice.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from games.engines.base import Rng, State, View
from games.engines.drafting_trios.cards import ALL_CARDS, POWER_SET
from games.engines.drafting_trios.ending import total
from games.engines.drafting_trios.scoring import score
from games.engines.drafting_trios.table import OVER, PHASE_OF_STAGE, SEATS, open_categories


def view(state: State, seat: int | None) -> View:
    """A fresh dict sharing no mutable part with the state (the host may annotate it)."""
    over = state["stage"] == OVER
    public: View = {
        "round": state["round"],
        "stage": state["stage"],
        "phase": PHASE_OF_STAGE.get(state["stage"]),
        "step": state["step"],
        "to_act": list(state["waiting"]),
        "chosen": {str(s): s in state["order"] for s in SEATS},
        "roles": dict(state["config"]["roles"]),
        "flags": {key: value for key, value in state["config"].items() if key != "roles"},
        "revealed": json.loads(json.dumps(state["revealed"])),
        "seats": {str(s): _public_seat(state, s, over) for s in SEATS},
        "result": dict(state["result"]) if state["result"] else None,
    }
    if seat is None:
        return public
    public["you"] = seat
    public["hand"] = sorted(state["hands"][seat])
    public["pile"] = sorted(state["piles"][seat])
    public["picks"] = list(state["picks"][seat])
    public["discards"] = list(state["tossed"][seat])
    public["discard_pile"] = sorted(state["discard_piles"][seat])
    public["named_card"] = state["named"][seat]
    public["named_card_found"] = state["heart_found"][seat]
    public["my_choice"] = json.loads(json.dumps(state["pending"][seat]))
    if state["config"]["assist_previews"]:
        public["previews"] = previews(state, seat)
    return public


def _public_seat(state: State, seat: int, over: bool) -> dict[str, Any]:
    return {
        "categories": {
            name: {**entry, "trio": entry["trio"] and list(entry["trio"])}
            for name, entry in state["categories"][seat].items()
        },
        "total": total(state, seat, final=over),
        "extra_points": state["extra_points"][seat],
        "power_cards_activated": state["activated"][seat],
        "once_used": list(state["used"][seat]),
        "mulligan_charges": state["mulligans"][seat],
        "heart_rounds": state["heart_rounds"][seat],
        "burn_rounds": state["burn_rounds"][seat],
        "burn_draw": state["burn_draw"][seat],
        "get_even": state["get_even"][seat],
        "hand_count": len(state["hands"][seat]),
        "pile_count": len(state["piles"][seat]),
        "deck_count": len(state["decks"][seat]),
        "discard_count": len(state["discard_piles"][seat]),
    }


def previews(state: State, seat: int) -> dict[str, int]:
    """``assist_previews``: the best score each open category would take from the hand now."""
    sheet = state["categories"][seat]
    allow_power = state["config"]["power_cards_in_trios"]
    colour_flag = state["config"]["colour_bonus_on_failed_trio"]
    triples = [
        triple
        for triple in set(combinations(sorted(state["hands"][seat]), 3))
        if allow_power or POWER_SET.isdisjoint(triple)
    ]
    return {
        category: max(
            (score(sheet[category]["rule"], triple, colour_flag) for triple in triples),
            default=0,
        )
        for category in open_categories(state, seat)
    }


def resample_hidden(state: State, viewer: int | None, rng: Rng) -> State:
    """A copy where ``viewer``'s deck is reshuffled and, for every other seat, the hand, pile,
    deck and discard pile are redealt from their pooled cards with the same sizes; its picks,
    draft discards, named card and pending choice are replaced by random ones."""
    copied = json.loads(json.dumps(state))  # the state is JSON; far cheaper than deepcopy
    for seat in SEATS:
        if seat == viewer:
            rng.shuffle(copied["decks"][seat])
            continue
        zones = [copied[key][seat] for key in ("hands", "piles", "decks", "discard_piles")]
        pool = [card for zone in zones for card in zone]
        rng.shuffle(pool)
        for zone in zones:
            size = len(zone)
            zone[:] = pool[:size]
            del pool[:size]
        for key in ("picks", "tossed"):
            copied[key][seat] = [rng.choice(ALL_CARDS) for _ in copied[key][seat]]
        if copied["named"][seat] is not None:
            copied["named"][seat] = rng.choice(ALL_CARDS)
            copied["heart_found"][seat] = rng.random() < 0.5
        if copied["pending"][seat] is not None:
            copied["pending"][seat] = {"type": "name", "card": rng.choice(ALL_CARDS)}
    return copied


def reshuffle_unseen(state: State, rng: Rng) -> State:
    """A copy where each seat's deck (cards nobody has seen: hands, piles, picks and discards
    stay as they are) is shuffled again."""
    copied = json.loads(json.dumps(state))
    for seat in SEATS:
        rng.shuffle(copied["decks"][seat])
    return copied
