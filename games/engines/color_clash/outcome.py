"""How a finished match is ranked.

One-round matches rank by the round's places (the first out wins; seats left when a round
stalls share the last place, and a stalled round with nobody out has no winner). Longer
matches rank by totals, highest first, and tied totals share the place (Family night: "ties
share the win"). First to 500 ends as soon as one total reaches 500, so it has one winner.
"""

from __future__ import annotations

from games.engines.base import Outcome, State


def outcome(state: State) -> Outcome:
    seats = len(state["hands"])
    totals = state["scores"]
    rounds = state["rounds"]
    if state["config"]["match"] == "one_round":
        placed = rounds[-1]["places"]
        ranking = [[seat] for seat in placed]
        rest = [seat for seat in range(seats) if seat not in placed]
        if rest:
            ranking.append(rest)
        winners = [] if not placed else ranking[0]
    else:
        ranking = [
            [seat for seat in range(seats) if totals[seat] == total]
            for total in sorted(set(totals), reverse=True)
        ]
        winners = ranking[0]
    wins = {seat: sum(1 for record in rounds if record["winner"] == seat) for seat in range(seats)}
    return Outcome(
        winners=list(winners),
        ranking=ranking,
        scores={seat: totals[seat] for seat in range(seats)},
        reason=state["end_reason"],
        metrics={"rounds_won": wins},
        details={
            "rounds": [
                {key: record[key] for key in ("round", "places", "winner", "points", "stalled")}
                for record in rounds
            ],
            "totals": {str(seat): totals[seat] for seat in range(seats)},
        },
    )
