"""Scenario builders for Swiss tests: simulated events and the properties every round keeps."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tournaments.formats.json_api import swiss_json


def new_event(n: int, total_rounds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = [{"id": i, "rating": rng.randint(1000, 2800)} for i in range(1, n + 1)]
    return {"players": players, "total_rounds": total_rounds, "rounds": []}


def play_round(state: dict[str, Any], pairing: dict[str, Any], rng: random.Random) -> None:
    """Record results where the higher rating wins more often, draws now and then."""
    rating = {p["id"]: p["rating"] for p in state["players"]}
    games = []
    for pair in pairing["pairings"]:
        white, black = pair["white"], pair["black"]
        expected = 1 / (1 + 10 ** ((rating[black] - rating[white]) / 400))
        roll = rng.random()
        result = (
            "1-0" if roll < 0.8 * expected else "1/2-1/2" if roll < 0.8 * expected + 0.2 else "0-1"
        )
        games.append({"white": white, "black": black, "result": result})
    byes = [{"player": pairing["bye"], "points": 1, "kind": "pab"}] if pairing["bye"] else []
    state["rounds"].append({"games": games, "byes": byes})


def swiss_after_round(n: int, rounds: int, seed: int = 1) -> tuple[dict, list[dict]]:
    """An event of ``n`` players after ``rounds`` simulated rounds, and each round's pairing."""
    state = new_event(n, rounds + 1, seed)
    rng = random.Random(seed)
    pairings = []
    for _ in range(rounds):
        pairing = swiss_json(state)
        pairings.append(pairing)
        play_round(state, pairing, rng)
    return state, pairings


def scores_before(state: dict[str, Any], round_index: int) -> dict[int, float]:
    points = dict.fromkeys((p["id"] for p in state["players"]), 0.0)
    values = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5), "+-": (1, 0), "-+": (0, 1)}
    for round_ in state["rounds"][:round_index]:
        for game in round_["games"]:
            white, black = values[game["result"]]
            points[game["white"]] += white
            points[game["black"]] += black
        for bye in round_["byes"]:
            points[bye["player"]] += bye["points"]
    return points


def assert_swiss_properties(state: dict[str, Any], *, group_order_rounds: int = 0) -> None:
    """No rematch, one bye at most, colour limits and boards in score order, every round.

    For the first ``group_order_rounds`` rounds the Dutch score-group order must also show:
    few, short floats and the bye in the lowest score group it may go to. Late in a small
    event few legal opponents remain and long floats are rightly forced, so callers choose.
    """
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    colours = {p["id"]: "" for p in state["players"]}
    for index, round_ in enumerate(state["rounds"]):
        score = scores_before(state, index)
        seated = [p for g in round_["games"] for p in (g["white"], g["black"])]
        seated += [b["player"] for b in round_["byes"]]
        assert sorted(seated) == sorted(score), f"round {index + 1}: everyone exactly once"
        tops = []
        for game in round_["games"]:
            pair = frozenset((game["white"], game["black"]))
            assert pair not in met, f"round {index + 1}: rematch {sorted(pair)}"
            met.add(pair)
            colours[game["white"]] += "W"
            colours[game["black"]] += "B"
            tops.append(max(score[p] for p in pair))
        assert tops == sorted(tops, reverse=True), f"round {index + 1}: boards in score order"
        for bye in round_["byes"]:
            assert byes[bye["player"]] == 0, f"round {index + 1}: second bye"
            if index < group_order_rounds:
                eligible = [p for p in score if byes[p] == 0]
                assert score[bye["player"]] == min(score[p] for p in eligible)
            byes[bye["player"]] += 1
        if index < group_order_rounds:
            assert_score_group_order(round_, score, index + 1)
    for player, history in colours.items():
        for end in range(1, len(history) + 1):
            played = history[:end]
            assert abs(played.count("W") - played.count("B")) <= 2, (player, history)
        assert "WWW" not in history and "BBB" not in history, (player, history)


def assert_score_group_order(round_: dict[str, Any], score: dict[int, float], number: int) -> None:
    """Floats are few and short: their total span, in score groups, is under the group count.

    (A lone leader who has met the only player of the next group must float two groups, so
    a single float may be long; what the Dutch order rules out is many or far floats.)
    """
    levels = {points: level for level, points in enumerate(sorted(set(score.values()))[::-1])}
    span = sum(abs(levels[score[g["white"]]] - levels[score[g["black"]]]) for g in round_["games"])
    assert span < len(levels), f"round {number}: floats span {span} of {len(levels)} groups"
