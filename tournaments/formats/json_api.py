"""JSON in, JSON out: the functions the management commands and the adapter call.

Every shape is documented in ``docs/formats-json.md``. Input errors raise ``FormatError``.
"""

from __future__ import annotations

from typing import Any

from games.engines.messages import Message, gettext_noop
from tournaments.formats import (
    double_elimination,
    placements,
    round_robin,
    single_elimination,
    swiss,
)
from tournaments.formats.bracket import bracket_to_json
from tournaments.formats.errors import FormatError
from tournaments.formats.history import parse_history
from tournaments.tiebreaks import DEFAULT_REGULATIONS, Crosstable, check_regulations, rank


def _brackets(
    format: str,
    participants: int,
    *,
    third_place: bool = False,
    grand_final: str = "single",
    cycles: int = 1,
    groups: int = 1,
) -> list:
    if isinstance(participants, bool) or not isinstance(participants, int):
        raise FormatError(
            Message(
                gettext_noop("participants must be a whole number, got {participants!r}"),
                participants=participants,
            )
        )
    builders = {
        single_elimination.KEY: lambda: single_elimination.generate(
            participants, third_place=third_place
        ),
        double_elimination.KEY: lambda: double_elimination.generate(
            participants, grand_final=grand_final
        ),
        round_robin.KEY: lambda: round_robin.generate(participants, cycles=cycles, groups=groups),
    }
    if format not in builders:
        raise FormatError(
            Message(
                gettext_noop("unknown bracket format {format!r}; choose one of {builders}"),
                format=format,
                builders=", ".join(builders),
            )
        )
    return builders[format]()


def bracket_json(
    format: str,
    participants: int,
    *,
    third_place: bool = False,
    grand_final: str = "single",
    cycles: int = 1,
    groups: int = 1,
) -> dict[str, Any]:
    """The whole bracket (or round-robin schedule) for ``participants`` seeds."""
    brackets = _brackets(
        format,
        participants,
        third_place=third_place,
        grand_final=grand_final,
        cycles=cycles,
        groups=groups,
    )
    return {
        "format": format,
        "participants": participants,
        "brackets": [bracket_to_json(bracket) for bracket in brackets],
    }


def swiss_json(state: dict[str, Any]) -> dict[str, Any]:
    """Pair the next Swiss round of ``state``; absent players are left out."""
    pairing = swiss.pair_round(parse_history(state))
    return {
        "pairings": [{"white": p.white, "black": p.black} for p in pairing.pairings],
        "bye": pairing.bye,
    }


def standings_json(
    state: dict[str, Any], tiebreaks: list[str], regulations: str = DEFAULT_REGULATIONS
) -> dict[str, Any]:
    """Rank ``state`` (the Swiss state shape) by points, then ``tiebreaks`` in order, under
    the named version of the FIDE tie-break regulations (``tiebreaks.REGULATIONS``).

    An optional ``"dmo"`` id in the state marks the Death Match Opponent for ``dmo_wins_tie``;
    ``"system": "round_robin"`` (default ``"swiss"``) switches the handling of unplayed rounds
    from FIDE C.07 Article 16 to Article 15.2.
    """
    check_regulations(regulations)
    if not isinstance(tiebreaks, list) or not all(isinstance(k, str) for k in tiebreaks):
        raise FormatError(
            Message(gettext_noop("tie-breaks must be a list of keys, e.g. ['buchholz', 'wins']"))
        )
    history = parse_history(state)
    dmo = state.get("dmo")
    if dmo is not None and dmo not in {p.id for p in history.players}:
        raise FormatError(Message(gettext_noop('unknown player id {dmo!r} in "dmo"'), dmo=dmo))
    system = state.get("system", "swiss")
    if system not in ("swiss", "round_robin"):
        raise FormatError(
            Message(
                gettext_noop('"system" must be "swiss" or "round_robin", got {system!r}'),
                system=system,
            )
        )
    table = Crosstable(history, dmo=dmo, swiss=system == "swiss", regulations=regulations)
    standings = rank(table, tiebreaks)
    return {
        "regulations": regulations,
        "standings": [
            {"id": s.id, "rank": s.rank, "points": s.points, "tiebreaks": s.tiebreaks}
            for s in standings
        ],
    }


def placements_json(state: dict[str, Any]) -> dict[str, Any]:
    """Placements of a knockout bracket or a Genius season (shapes in docs/formats-json.md)."""
    if not isinstance(state, dict):
        raise FormatError(Message(gettext_noop("the placements state must be a JSON object")))
    format = state.get("format")
    if format == "genius":
        found = _season_placements(state)
    elif format in placements.PLACEMENTS:
        participants = state.get("participants")
        brackets = _brackets(
            format,
            participants,
            third_place=bool(state.get("third_place", False)),
            grand_final=state.get("grand_final", "single"),
        )
        found = placements.PLACEMENTS[format](participants, brackets, _results(state))
    else:
        choices = ", ".join([*placements.PLACEMENTS, "genius"])
        raise FormatError(
            Message(
                gettext_noop("placements are by format: {choices}; got {format!r}"),
                choices=choices,
                format=format,
            )
        )
    return {
        "ranking": format,
        "standings": [
            {
                "id": p.id,
                "rank": p.rank,
                "points": float(p.wins),
                "tiebreaks": {},
                "eliminated_in": p.eliminated_in,
                "round_reached": p.round_reached,
            }
            for p in found
        ],
    }


def _results(state: dict[str, Any]) -> dict[str, placements.Result]:
    raw = state.get("results", {})
    if not isinstance(raw, dict):
        raise FormatError(
            Message(gettext_noop('"results" maps match ids to {{"winner": seed, "loser": seed}}'))
        )
    results = {}
    for match_id, result in raw.items():
        if not isinstance(result, dict) or not {"winner", "loser"} <= result.keys():
            raise FormatError(
                Message(
                    gettext_noop('{match_id}: a result is {{"winner": seed, "loser": seed}}'),
                    match_id=match_id,
                )
            )
        results[match_id] = placements.Result(result["winner"], result["loser"])
    return results


def _season_placements(state: dict[str, Any]) -> list[placements.Placement]:
    raw = state.get("players")
    if not isinstance(raw, list) or not raw:
        raise FormatError(
            Message(gettext_noop('"players" lists {{"id": ..., "eliminated_in": episode or null}}'))
        )
    players: dict[int, int | None] = {}
    for item in raw:
        if not isinstance(item, dict) or isinstance(item.get("id"), bool):
            raise FormatError(
                Message(
                    gettext_noop(
                        'each player is {{"id": ..., "eliminated_in": ...}}, got {item!r}'
                    ),
                    item=item,
                )
            )
        player, episode = item.get("id"), item.get("eliminated_in")
        if not isinstance(player, int) or player in players:
            raise FormatError(
                Message(
                    gettext_noop("player ids are distinct whole numbers, got {player!r}"),
                    player=player,
                )
            )
        if episode is not None and (
            isinstance(episode, bool) or not isinstance(episode, int) or episode < 1
        ):
            raise FormatError(
                Message(
                    gettext_noop("player {player}: eliminated_in is an episode number or null"),
                    player=player,
                )
            )
        players[player] = episode
    episodes = state.get("episodes", max((e or 1 for e in players.values()), default=1))
    if isinstance(episodes, bool) or not isinstance(episodes, int):
        raise FormatError(Message(gettext_noop('"episodes" is the number of the current episode')))
    return placements.season_placements(players, episodes)
