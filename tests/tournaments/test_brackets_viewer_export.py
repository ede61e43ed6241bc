"""The bracket in brackets-viewer.js's data model, from the same matches as our own pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.builders import report_top_seed_wins, started

pytestmark = pytest.mark.django_db


def viewer_data(slug: str) -> dict:
    answer = APIClient().get(f"/api/tournaments/{slug}/export.json", {"format": "brackets-viewer"})
    assert answer.status_code == 200, answer.content
    return answer.json()


def ours(slug: str) -> dict[str, dict]:
    detail = APIClient().get(f"/api/tournaments/{slug}/").json()
    return {m["code"]: m for s in detail["stages"] for r in s["rounds"] for m in r["matches"]}


def test_a_double_elimination_bracket_in_the_viewers_model():
    tournament, stage, _ = started("double_elimination", 4)
    report_top_seed_wins(stage, "W1.1")
    data = viewer_data(tournament.slug)
    assert set(data) == {"stages", "groups", "rounds", "matches", "matchGames", "participants"}
    assert [(s["type"], s["settings"]["size"]) for s in data["stages"]] == [
        ("double_elimination", 4)
    ]
    assert sorted(g["number"] for g in data["groups"]) == [1, 2, 3]
    names = {p["id"]: p["name"] for p in data["participants"]}
    expected = ours(tournament.slug)
    assert {m["code"] for m in data["matches"]} == set(expected)
    rounds = {r["id"]: r for r in data["rounds"]}
    for match in data["matches"]:
        mine = expected[match.pop("code")]
        assert rounds[match["round_id"]]["group_id"] == match["group_id"]
        for side, opponent in (("home", match["opponent1"]), ("away", match["opponent2"])):
            if mine[side] is None:
                assert opponent in (None, {"id": None})
            else:
                assert names[opponent["id"]] == mine[side]["name"]
                played = mine["status"] in ("live", "finished")
                assert opponent.get("score") == (mine[f"{side}_score"] if played else None)
    decided = next(m for m in data["matches"] if m["status"] == 4)
    results = {decided["opponent1"]["result"], decided["opponent2"]["result"]}
    assert results == {"win", "loss"}


def test_byes_and_the_third_place_match():
    tournament, _, _ = started("single_elimination", 5, format_options={"third_place": True})
    data = viewer_data(tournament.slug)
    byes = [m for m in data["matches"] if m["opponent2"] is None]
    assert len(byes) == 3  # seeds 1-3 wait for round 2
    third = next(m for m in data["matches"] if m["code"] == "P3")
    group = next(g for g in data["groups"] if g["id"] == third["group_id"])
    assert group["number"] == 2  # the viewer's consolation final
    assert next(m for m in data["matches"] if m["code"] == "W1.2")["opponent1"]["position"] == 4


def test_round_robin_pools_are_groups():
    pools, _, _ = started("round_robin", 6, format_options={"groups": 2})
    data = viewer_data(pools.slug)
    assert data["stages"][0]["type"] == "round_robin"
    assert sorted(g["number"] for g in data["groups"]) == [1, 2]
    assert len(data["matches"]) == 6  # two pools of three


def test_an_unknown_export_format_is_refused():
    tournament, _, _ = started("single_elimination", 2)
    answer = APIClient().get(f"/api/tournaments/{tournament.slug}/export.json", {"format": "x"})
    assert answer.status_code == 400 and answer.json()["error"] == "invalid"
