"""A tournament's brackets in the data model of brackets-viewer.js and brackets-manager.js
(the ``brackets-model`` package): ``stages``, ``groups``, ``rounds``, ``matches``,
``matchGames`` and ``participants``, so community sites can draw it with the viewer they use.

Their model numbers groups inside a stage: an elimination stage's group 1 is the (winners)
bracket, group 2 the losers bracket (double) or the third-place match (single), group 3 the
grand final; a round-robin stage has one group per pool. Swiss rounds are drawn as one
round-robin group (the viewer has no Swiss layout). An opponent ``null`` is a bye;
``{"id": null}`` a side not known yet; in a pool, the one who sits a round out has no match.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from hosting.core.errors import UserError
from tournaments import selectors
from tournaments.formats import genius
from tournaments.models import Tournament

# brackets-model's Status: Locked, Waiting, Ready, Running, Completed.
LOCKED, WAITING, READY, RUNNING, COMPLETED = range(5)
STAGE_TYPES = {
    "single_elimination": "single_elimination",
    "double_elimination": "double_elimination",
    "round_robin": "round_robin",
    "swiss": "round_robin",
}
ELIMINATION_GROUPS = {"main": 1, "winners": 1, "losers": 2, "final": 3}


def _is_third_place(match: dict[str, Any]) -> bool:
    return all(isinstance(s, str) and s.endswith(":loser") for s in match["slots"])


def _group_of(stage_type: str, bracket: str, match: dict[str, Any], pools: list[str]) -> int:
    if stage_type == "round_robin":
        return pools.index(bracket) + 1
    if stage_type == "single_elimination" and _is_third_place(match):
        return 2
    return ELIMINATION_GROUPS[bracket]


def _status(match: dict[str, Any]) -> int:
    known = (match["home"] is not None) + (match["away"] is not None)
    return {
        "pending": WAITING if known else LOCKED,
        "ready": READY,
        "live": RUNNING,
        "finished": COMPLETED,
        "closed": LOCKED,  # a bye, or a bracket reset that was not needed
    }[match["status"]]


def _opponent(match: dict[str, Any], index: int, first_round: bool) -> dict[str, Any] | None:
    side = match["home" if index == 0 else "away"]
    slot = match["slots"][index] if index < len(match["slots"]) else None
    if side is None:
        return None if slot is None else {"id": None}  # a bye, or to be decided
    opponent: dict[str, Any] = {"id": side["id"]}
    if first_round and isinstance(slot, int):
        opponent["position"] = slot
    score = match["home_score" if index == 0 else "away_score"]
    if score is not None and match["status"] in ("live", "finished"):  # else "-", not 0
        opponent["score"] = score
    if match["status"] == "finished":
        if match["winner"] is None:
            opponent["result"] = "draw"
        else:
            opponent["result"] = "win" if match["winner"] == side["id"] else "loss"
            if match["result_kind"] == "forfeit" and opponent["result"] == "loss":
                opponent["forfeit"] = True
    return opponent


def brackets_viewer_data(tournament: Tournament) -> dict[str, Any]:
    if tournament.format == genius.KEY:
        raise UserError(_("a Genius season is played in episodes: it has no bracket to draw"))
    detail = selectors.detail(tournament.slug)
    data: dict[str, list[dict[str, Any]]] = {
        "stages": [],
        "groups": [],
        "rounds": [],
        "matches": [],
        "matchGames": [],
        "participants": [
            {"id": e["id"], "tournament_id": tournament.pk, "name": e["name"]}
            for e in detail["entrants"]
        ],
    }
    for stage_index, stage in enumerate(detail["stages"]):
        stage_type = STAGE_TYPES[stage["format"]]
        stage_id = stage_index
        pools = sorted({r["bracket"] for r in stage["rounds"]})
        seeds = {s for r in stage["rounds"] for m in r["matches"] for s in m["slots"]}
        size = sum(isinstance(s, int) for s in seeds)
        settings: dict[str, Any] = {"size": size}
        if stage_type == "double_elimination":
            finals = [r for r in stage["rounds"] if r["bracket"] == "final"]
            settings["grandFinal"] = "double" if len(finals) > 1 else "simple"
        if stage_type == "round_robin":
            settings["groupCount"] = len(pools)
        data["stages"].append(
            {
                "id": stage_id,
                "tournament_id": tournament.pk,
                "name": f"{detail['name']}" + (f" — {stage['number']}" if stage_index else ""),
                "type": stage_type,
                "number": stage["number"],
                "settings": settings,
            }
        )
        # brackets-manager's order (and the viewer's): group by group, round by round, each
        # match in bracket order; ids follow that order.
        placed = []
        for round_ in stage["rounds"]:
            for match in round_["matches"]:
                if stage_type == "round_robin" and None in match["slots"]:
                    continue  # a pool's odd one out sits the round out: no match to draw
                group = _group_of(stage_type, round_["bracket"], match, pools)
                third_place = group == 2 and stage_type == "single_elimination"
                placed.append((group, 1 if third_place else round_["number"], round_, match))
        placed.sort(key=lambda item: item[:2])  # stable: bracket order within a round
        groups: dict[int, int] = {}  # group number -> id
        rounds: dict[tuple[int, int], dict[str, Any]] = {}  # (group, number) -> round
        for group, number, round_, match in placed:
            if group not in groups:
                groups[group] = len(data["groups"])
                data["groups"].append({"id": groups[group], "stage_id": stage_id, "number": group})
            if (group, number) not in rounds:
                rounds[group, number] = {
                    "id": len(data["rounds"]),
                    "stage_id": stage_id,
                    "group_id": groups[group],
                    "number": number,
                    "matches": 0,
                }
                data["rounds"].append(rounds[group, number])
            round_row = rounds[group, number]
            round_row["matches"] += 1
            first = round_["number"] == 1
            data["matches"].append(
                {
                    "id": len(data["matches"]),
                    "stage_id": stage_id,
                    "group_id": groups[group],
                    "round_id": round_row["id"],
                    "number": round_row["matches"],
                    "child_count": 0,
                    "status": _status(match),
                    "opponent1": _opponent(match, 0, first),
                    "opponent2": _opponent(match, 1, first),
                    # Ours, for sites that link back: the match code and its games.
                    "code": match["code"],
                    "games": match["games"],
                }
            )
    for round_row in data["rounds"]:
        del round_row["matches"]
    return data
