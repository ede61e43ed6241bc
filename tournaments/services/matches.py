"""One match: how its games are played and counted, and how its result is decided.

A match plays hosted games (when the tournament is played online) until one side has won
enough of them; ``count_game`` adds a finished game to its score and ``decide`` finishes it.
The rules a tournament sets for its games (``engine_config``, ``undecided_rule``) are read here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engines
from games import services as game_services
from games.engines.base import ConfigError
from hosting.core.errors import Conflict
from tournaments.core.errors import TournamentUserError
from tournaments.events import emit, match_data
from tournaments.models import Entrant, Match, MatchGame, Tournament

# Ruleset keys the tournament itself reads; the engine is given the rest as its config.
UNDECIDED_RULES = ("replay", "higher_seed")


def engine_config(ruleset: dict[str, Any]) -> dict[str, Any]:
    """The game's config: the tournament's ruleset without the tournament's own keys."""
    return {key: value for key, value in (ruleset or {}).items() if key != "undecided"}


def undecided_rule(tournament: Tournament) -> str:
    """What settles an elimination match whose games leave it level (a drawn game, a double
    timeout): ``replay`` (another game, the default) or ``higher_seed`` (the better seed)."""
    return (tournament.ruleset or {}).get("undecided", "replay")


def open_match(match: Match) -> None:
    """A match made ready starts its first game, when the tournament is played online (else
    the organiser enters its result)."""
    tournament = match.stage.tournament
    if tournament.play_online:
        start_next_game(match)


def seat_roles_known(engine_key: str, config: dict[str, Any]) -> bool:
    """Whether the game gives its seats the EC and DMO roles (Drafting Trios does); other
    engines refuse a ``roles`` setting and play a Death Match without them."""
    engine = engines.get(engine_key)
    try:
        engine.validate_config({**config, "roles": {"0": "EC", "1": "DMO"}}, 2)
    except ConfigError:
        return False
    return True


def start_next_game(match: Match) -> None:
    """Create and start the match's next game; home takes seat 0 in odd games."""
    tournament = match.stage.tournament
    number = match.match_games.count() + 1
    # A DM Advantage (``seasons.death_match_picks``) seats its holder first in game one.
    flip = int(match.extra.get("first_seat") not in (None, match.home_id))
    home_seat = (0 if number % 2 else 1) ^ flip
    entrants = [match.home, match.away] if home_seat == 0 else [match.away, match.home]
    three = match.extra.get("three")
    if three:  # a three-player Death Match: seated as its slots, EC first
        home_seat = 0
        by_id = Entrant.objects.in_bulk(three)
        entrants = [by_id[pk] for pk in three]
    # Death Matches seat the EC at home and the DMO away; the roles travel with the entrant.
    home_role, away_role = match.extra.get("roles", ["", ""])
    roles = [home_role, away_role] if home_seat == 0 else [away_role, home_role]
    roles += [""] * (len(entrants) - len(roles))
    # A Death Match carries the game its episode chose (seasons.death_match_setup).
    played = match.extra.get("game") or {}
    engine_key = played.get("engine", tournament.game)
    config = played.get("config", engine_config(tournament.ruleset))
    if any(roles) and not seat_roles_known(engine_key, config):
        roles = [""] * len(entrants)  # the season itself gives the DMO a tie, whatever the game
    game = game_services.game_create(
        engine_key=engine_key,
        seats=[
            game_services.SeatSpec(display_name=e.display_name, role=role)
            for e, role in zip(entrants, roles, strict=True)
        ],
        config=config,
        time_control=played.get("time_control", tournament.time_control),
        created_by=tournament.organiser,
    )
    for seat, entrant in zip(game.seats.order_by("number"), entrants, strict=True):
        seat.user = entrant.user
        seat.save(update_fields=["user"])
    MatchGame.objects.create(match=match, game=game, number=number, home_seat=home_seat)
    # The players' client seeds take part in the deal: it waits for them a short while.
    game_services.game_open_seed_window(
        game_id=game.pk,
        seconds=tournament.seed_window_seconds,
        by=None,  # the bracket's own start
    )
    match.status = Match.Status.LIVE
    match.save(update_fields=["status"])


# How an engine reports a game it gave to the Death Match Opponent only because it was level
# (Drafting Trios: a tie on points and power cards, or both reserves out at once).
DMO_TIE_DECISIONS = frozenset({"dmo", "timeout_tie_dmo"})


def _is_death_match(match: Match) -> bool:
    """ "Ties go to the DMO" is a rule of Genius Death Matches, not of the season's final."""
    return match.stage.format == "genius" and match.code != "FINAL"


def count_game(match: Match, link: MatchGame, outcome: dict[str, Any]) -> None:
    home, away = str(link.home_seat), str(1 - link.home_seat)
    winners = [str(seat) for seat in outcome.get("winners", [])]
    decided_by = (outcome.get("details") or {}).get("decided_by")
    undecided = (home in winners and away in winners) or not winners
    if decided_by in DMO_TIE_DECISIONS and not _is_death_match(match):
        undecided = True  # level, whatever seat the engine's Death Match rule favoured
    if undecided:
        match.home_score += 0.5
        match.away_score += 0.5
    elif home in winners:
        match.home_score += 1
    else:
        match.away_score += 1
    scores = outcome.get("scores", {})
    totals = match.metrics.setdefault("scores", [0.0, 0.0])
    totals[0] += float(scores.get(home, 0))
    totals[1] += float(scores.get(away, 0))
    for name, values in outcome.get("metrics", {}).items():
        pair = match.metrics.setdefault("metrics", {}).setdefault(name, [0.0, 0.0])
        pair[0] += float(values.get(home, 0) or 0)
        pair[1] += float(values.get(away, 0) or 0)
    match.save()


def draws_allowed(match: Match) -> bool:
    """Swiss and round robin score draws; a drawn Death Match goes to the DMO."""
    return match.stage.format in ("swiss", "round_robin") or _is_death_match(match)


def goes_to_higher_seed(match: Match) -> bool:
    """A classic bracket's ruleset may settle a level match by seeding; a season's final is
    always replayed (it has no seeds to favour, only two survivors)."""
    return (
        match.stage.format != "genius" and undecided_rule(match.stage.tournament) == "higher_seed"
    )


def decide_three(match: Match, seats: list[int], outcome: dict[str, Any]) -> None:
    """A three-player Death Match's game ended: first place wins, last place loses. A shared
    last place loses its EC if the EC shares it, else its lowest seed (highest number)."""
    ranking = outcome.get("ranking") or [[seat] for seat in range(len(seats))]
    entrant_at = {seat: pk for seat, pk in enumerate(seats)}
    last = [entrant_at[int(seat)] for seat in ranking[-1]]
    first = entrant_at[int(ranking[0][0])]
    if match.home_id in last:
        loser = match.home_id
    else:
        seeds = dict(Entrant.objects.filter(pk__in=last).values_list("pk", "seed"))
        loser = max(last, key=lambda pk: (seeds.get(pk) or 0, pk))
    if first == loser:  # everyone shares one place: nobody came first
        first = next(pk for pk in seats if pk != loser)
    match.status = Match.Status.FINISHED
    match.result_kind = Match.ResultKind.PLAYED
    match.winner_id, match.loser_id = first, loser
    match.extra = {**match.extra, "ranking": [[entrant_at[int(s)] for s in p] for p in ranking]}
    match.save()
    emit(match.stage.tournament_id, "match.result", **match_data(match))


def decide(match: Match, kind: str, winner: Entrant | None = None) -> None:
    """Finish the match: the higher score wins, or ``winner`` when given; level is a draw."""
    match.status = Match.Status.FINISHED
    # The players' own reports (``services.claims``) are settled with it.
    match.extra = {k: v for k, v in match.extra.items() if k not in ("claim", "contested")}
    if winner is None and match.home_score == match.away_score:
        match.result_kind = Match.ResultKind.DRAW
        match.winner = match.loser = None
    else:
        home_won = match.home_score > match.away_score if winner is None else winner == match.home
        match.result_kind = kind
        match.winner, match.loser = (
            (match.home, match.away) if home_won else (match.away, match.home)
        )
    match.save()
    emit(match.stage.tournament_id, "match.result", **match_data(match))


def checked_result(
    match: Match, winner: Entrant | None, home_score: float | None, away_score: float | None
) -> tuple[float, float]:
    """The home and away scores of a result the match allows, or a refusal saying why."""
    if match.home is None or match.away is None:
        raise Conflict(_("this match does not have both entrants yet"))
    if match.extra.get("three"):
        raise Conflict(_("a three-player Death Match is decided by its game's last place"))
    if winner is not None and winner not in (match.home, match.away):
        raise TournamentUserError(_("the winner must be one of the match's two entrants"))
    if winner is None and not draws_allowed(match):
        raise TournamentUserError(_("an elimination match needs a winner"))
    if winner is None:
        drawn = home_score if home_score is not None else 0.5
        return drawn, drawn
    home_won = winner == match.home
    won, lost = 1.0, 0.0
    home = home_score if home_score is not None else (won if home_won else lost)
    away = away_score if away_score is not None else (lost if home_won else won)
    if (home > away) != home_won:
        raise TournamentUserError(_("the score contradicts the winner"))
    return home, away
