"""A Genius season as pure functions over frozen dataclasses.

An episode goes: the main match (MM) splits the players still in into winners and losers;
MM winners receive Tokens of Life (ToL); one or more elimination candidates (EC) are named
(chosen by the MM winners among the losers, or the MM losers themselves); a sole winner who
received extra tokens gives them away (never to an EC); each EC picks a Death Match opponent
(DMO) among the players who hold no ToL; the Death Match (DM) is played and on a tie the DMO
wins; the loser is eliminated and their currency settled by the season's rule. When two
players remain, the final is a best of N Death Matches between them.

Every main-match result can be played on, whatever the rules: an episode has at most one
Death Match per two players still in (so at least two always reach the final) and never
more candidates than losers; when only the losers could be candidates, nobody has to choose
them; and a Token of Life protects only while someone unprotected is left to be chosen.

Every function returns new values and raises ``FormatError`` with a reason a host can show.
``dataclasses.asdict`` of a ``Season`` or ``Episode`` is plain JSON-able data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from games.engines.messages import Message, gettext_noop
from tournaments.formats.errors import FormatError
from tournaments.formats.ledger import GARNETS, Ledger, settle_elimination

KEY = "genius"
LABEL = "Genius season"


EC_RULES = ("chosen_by_winners", "mm_loser")
ON_ELIMINATION = ("confiscated", "to_dm_winner")
TRANSFERS = ("immediate", "receiver_accepts", "host_approves")
TRANSFER_VISIBILITY = ("public", "private", "choice")
NO_SHOW = ("warning", "fine", "eliminate", "replace")


@dataclass(frozen=True)
class SeasonRules:
    """A season's rules; every key, its default and its choices are in docs/formats-json.md."""

    ec_rule: Literal["chosen_by_winners", "mm_loser"] = "chosen_by_winners"
    ec_count: int = 1  # elimination candidates (and Death Matches) per episode, at most
    winner_tokens: int = 1  # ToL each MM winner receives when there are several winners
    sole_winner_tokens: int = 2  # ToL a sole MM winner receives ...
    sole_winner_gives: int = 1  # ... of which they must give this many away
    on_elimination: Literal["confiscated", "to_dm_winner"] = "confiscated"
    final_best_of: int = 3
    currency: str = GARNETS
    sealed_edits: bool = True  # a sealed MM answer may be replaced until the deadline
    # A garnet transfer between players: done at once, once the receiver accepts, or once
    # the host approves; public, private (the two players and the hosts), or the payer's choice.
    transfers: Literal["immediate", "receiver_accepts", "host_approves"] = "immediate"
    transfer_visibility: Literal["public", "private", "choice"] = "public"
    # Tokens of Life: spare ones carry over to the next episode (one is used per episode in
    # which it protects its holder); otherwise a token lasts the episode it was won in.
    tokens_carry_over: bool = False
    # After the season: everyone reads the confessionals; the lounge shows the handouts.
    confessionals_after_season: bool = False
    handouts_after_season: bool = True
    # A player who misses an activity check's cut-off: a warning, a garnet fine of
    # ``no_show_fine``, elimination, or replacement by a waiting (waitlisted) player.
    no_show: Literal["warning", "fine", "eliminate", "replace"] = "warning"
    no_show_fine: int = 1
    # Players in a Death Match: 2 (EC and DMO), or 3 (the EC picks two DMOs; last place loses).
    dm_players: int = 2

    def __post_init__(self) -> None:
        if self.ec_rule not in EC_RULES:
            raise FormatError(
                Message(
                    gettext_noop("ec_rule must be chosen_by_winners or mm_loser: {ec_rule!r}"),
                    ec_rule=self.ec_rule,
                )
            )
        if self.on_elimination not in ON_ELIMINATION:
            raise FormatError(
                Message(
                    gettext_noop(
                        "on_elimination must be confiscated or to_dm_winner: {on_elimination!r}"
                    ),
                    on_elimination=self.on_elimination,
                )
            )
        for name in ("ec_count", "winner_tokens", "sole_winner_tokens", "sole_winner_gives"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise FormatError(
                    Message(
                        gettext_noop("{name} must be a whole number, got {value!r}"),
                        name=name,
                        value=value,
                    )
                )
        if self.ec_count < 1:
            raise FormatError(
                Message(gettext_noop("an episode needs at least one elimination candidate"))
            )
        if self.winner_tokens < 0:
            raise FormatError(
                Message(
                    gettext_noop("winner_tokens cannot be negative, got {winner_tokens}"),
                    winner_tokens=self.winner_tokens,
                )
            )
        if not 0 <= self.sole_winner_gives <= self.sole_winner_tokens:
            raise FormatError(
                Message(
                    gettext_noop("a sole winner cannot give away more tokens than they receive")
                )
            )
        if (
            isinstance(self.final_best_of, bool)
            or not isinstance(self.final_best_of, int)
            or self.final_best_of < 1
            or self.final_best_of % 2 == 0
        ):
            raise FormatError(
                Message(
                    gettext_noop("the final is best of an odd number, got {final_best_of!r}"),
                    final_best_of=self.final_best_of,
                )
            )
        if not isinstance(self.currency, str) or not self.currency.strip():
            raise FormatError(
                Message(
                    gettext_noop("currency must be a name, e.g. garnets, got {currency!r}"),
                    currency=self.currency,
                )
            )
        _choice("transfers", self.transfers, TRANSFERS)
        _choice("transfer_visibility", self.transfer_visibility, TRANSFER_VISIBILITY)
        _choice("no_show", self.no_show, NO_SHOW)
        if self.dm_players not in (2, 3) or isinstance(self.dm_players, bool):
            raise FormatError(
                Message(
                    gettext_noop("dm_players is 2 or 3, got {players!r}"), players=self.dm_players
                )
            )
        if (
            isinstance(self.no_show_fine, bool)
            or not isinstance(self.no_show_fine, int)
            or self.no_show_fine < 0
        ):
            raise FormatError(
                Message(
                    gettext_noop("no_show_fine is a whole number of 0 or more, got {fine!r}"),
                    fine=self.no_show_fine,
                )
            )
        for name in ("tokens_carry_over", "confessionals_after_season", "handouts_after_season"):
            if not isinstance(getattr(self, name), bool):
                raise FormatError(
                    Message(
                        gettext_noop("{name} is true or false, got {value!r}"),
                        name=name,
                        value=getattr(self, name),
                    )
                )
        if not isinstance(self.sealed_edits, bool):
            raise FormatError(
                Message(
                    gettext_noop("sealed_edits is true or false, got {sealed_edits!r}"),
                    sealed_edits=self.sealed_edits,
                )
            )


def _choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise FormatError(
            Message(
                gettext_noop("{name} must be one of {choices}: {value!r}"),
                name=name,
                choices=", ".join(choices),
                value=value,
            )
        )


def _nonzero(mapping: Mapping[int, int]) -> dict[int, int]:
    """A fresh dict without zero counts; functions here never mutate a dict they were given."""
    return {k: v for k, v in mapping.items() if v}


@dataclass(frozen=True)
class Season:
    players: tuple[int, ...]  # still in, in seeding order
    eliminated: tuple[int, ...] = ()  # in order of elimination
    tokens: dict[int, int] = field(default_factory=dict)  # ToL held

    @property
    def stage(self) -> Literal["episodes", "final", "finished"]:
        if len(self.players) > 2:
            return "episodes"
        return "final" if len(self.players) == 2 else "finished"


@dataclass(frozen=True)
class Episode:
    number: int
    winners: frozenset[int]
    losers: frozenset[int]
    ecs: tuple[int, ...] = ()
    dmos: dict[int, int] = field(default_factory=dict)  # EC -> DMO
    tokens_to_give: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class DeathMatchResult:
    ec: int
    dmo: int
    winner: int
    loser: int
    tie: bool


def start_season(players: Iterable[int]) -> Season:
    roster = tuple(players)
    if len(roster) < 2:
        raise FormatError(Message(gettext_noop("a season needs at least 2 players")))
    if len(set(roster)) != len(roster):
        raise FormatError(Message(gettext_noop("a player is listed twice in the season")))
    return Season(roster)


def _require_in(season: Season, player: int, role: str) -> None:
    if player not in season.players:
        raise FormatError(
            Message(
                gettext_noop("{role} {player!r} is not a player still in the season"),
                role=role,
                player=player,
            )
        )


def main_match(
    season: Season, number: int, winners: Iterable[int], losers: Iterable[int], rules: SeasonRules
) -> tuple[Season, Episode]:
    """Record the MM result and hand out Tokens of Life to the winners."""
    if season.stage != "episodes":
        raise FormatError(
            Message(
                gettext_noop("with two players left the season goes to the final, not an episode")
            )
        )
    won, lost = frozenset(winners), frozenset(losers)
    for player in won | lost:
        _require_in(season, player, Message(gettext_noop("MM player")))
    if won & lost:
        raise FormatError(
            Message(
                gettext_noop("player {player} cannot both win and lose the main match"),
                player=min(won & lost),
            )
        )
    missing = set(season.players) - won - lost
    if missing:
        raise FormatError(
            Message(
                gettext_noop("the main match result leaves out player {player}"),
                player=min(missing),
            )
        )
    if not lost:
        raise FormatError(Message(gettext_noop("the main match needs at least one loser")))
    tokens = dict(season.tokens)
    to_give: dict[int, int] = {}
    if len(won) == 1:
        (sole,) = won
        tokens[sole] = tokens.get(sole, 0) + rules.sole_winner_tokens
        to_give[sole] = rules.sole_winner_gives
    else:
        for player in won:
            tokens[player] = tokens.get(player, 0) + rules.winner_tokens
    episode = Episode(number, won, lost, tokens_to_give=_nonzero(to_give))
    return replace(season, tokens=_nonzero(tokens)), episode


def candidates_needed(episode: Episode, rules: SeasonRules) -> int:
    """How many ECs this episode has: ``ec_count``, but never more than the MM losers nor
    more Death Matches than the players still in (all in the MM) can pair off, so that two
    players always reach the final."""
    players_left = len(episode.winners | episode.losers)
    # Each Death Match takes ``dm_players`` of them (two, or the EC and two DMOs).
    return max(1, min(rules.ec_count, len(episode.losers), players_left // rules.dm_players))


def candidates_follow_from_result(episode: Episode, rules: SeasonRules) -> bool:
    """Whether the MM result itself names the ECs: by the rules (``mm_loser``), or because
    every loser must be a candidate, leaving the winners nothing to choose."""
    return rules.ec_rule == "mm_loser" or len(episode.losers) == candidates_needed(episode, rules)


def name_elimination_candidates(
    episode: Episode, rules: SeasonRules, chosen: Iterable[int] = ()
) -> Episode:
    """The ECs: ``chosen`` by the MM winners among the losers, or the MM losers themselves
    when the result names them (``candidates_follow_from_result``)."""
    if episode.ecs:
        raise FormatError(Message(gettext_noop("the elimination candidates are already named")))
    picked = tuple(chosen)
    needed = candidates_needed(episode, rules)
    if rules.ec_rule == "mm_loser" or (not picked and len(episode.losers) == needed):
        if picked:
            raise FormatError(
                Message(
                    gettext_noop(
                        "this season's rules make the MM losers the candidates; none chosen"
                    )
                )
            )
        if len(episode.losers) != needed:
            raise FormatError(
                Message(
                    gettext_noop(
                        "the rules need exactly {needed} MM loser(s) as candidates, "
                        "the main match has {losers}"
                    ),
                    needed=needed,
                    losers=len(episode.losers),
                )
            )
        return replace(episode, ecs=tuple(sorted(episode.losers)))
    if len(picked) != needed or len(set(picked)) != len(picked):
        raise FormatError(
            Message(
                gettext_noop("the MM winners must choose {needed} different candidate(s)"),
                needed=needed,
            )
        )
    outsiders = [p for p in picked if p not in episode.losers]
    if outsiders:
        raise FormatError(
            Message(
                gettext_noop("player {player} did not lose the main match and cannot be EC"),
                player=outsiders[0],
            )
        )
    return replace(episode, ecs=picked)


def give_token(
    season: Season, episode: Episode, giver: int, receiver: int
) -> tuple[Season, Episode]:
    """A sole MM winner gives away a Token of Life they owe; never to an EC or themselves."""
    owed = episode.tokens_to_give.get(giver, 0)
    if not owed:
        raise FormatError(
            Message(gettext_noop("player {giver} has no Token of Life to give away"), giver=giver)
        )
    if not episode.ecs:
        raise FormatError(
            Message(gettext_noop("name the elimination candidates before tokens are given away"))
        )
    _require_in(season, receiver, Message(gettext_noop("token receiver")))
    if receiver == giver:
        raise FormatError(
            Message(gettext_noop("a sole winner must give the token to someone else"))
        )
    if receiver in episode.ecs:
        raise FormatError(
            Message(
                gettext_noop(
                    "player {receiver} is an elimination candidate and cannot get a token"
                ),
                receiver=receiver,
            )
        )
    tokens = dict(season.tokens)
    tokens[giver] -= 1
    tokens[receiver] = tokens.get(receiver, 0) + 1
    to_give = dict(episode.tokens_to_give)
    to_give[giver] = owed - 1
    return replace(season, tokens=_nonzero(tokens)), replace(
        episode, tokens_to_give=_nonzero(to_give)
    )


def eligible_opponents(season: Season, episode: Episode) -> list[int]:
    """Who an EC may pick: still in, not an EC, not picked by another EC, holding no ToL.

    When everyone left to pick holds a Token of Life (five MM winners against one loser),
    the tokens protect nobody: a Death Match always has an opponent.
    """
    taken = set(episode.dmos.values())
    free = [p for p in season.players if p not in episode.ecs and p not in taken]
    unprotected = [p for p in free if not season.tokens.get(p)]
    return unprotected or free


def choose_opponent(season: Season, episode: Episode, ec: int, dmo: int) -> Episode:
    """Record ``ec``'s choice of Death Match opponent, or say why it is not allowed."""
    if ec not in episode.ecs:
        raise FormatError(
            Message(gettext_noop("player {ec} is not an elimination candidate this episode"), ec=ec)
        )
    if ec in episode.dmos:
        raise FormatError(
            Message(
                gettext_noop("player {ec} has already chosen player {chosen}"),
                ec=ec,
                chosen=episode.dmos[ec],
            )
        )
    if any(episode.tokens_to_give.values()):
        raise FormatError(
            Message(
                gettext_noop(
                    "the sole winner must give away their token before opponents are chosen"
                )
            )
        )
    _require_in(season, dmo, Message(gettext_noop("the chosen opponent")))
    if dmo == ec:
        raise FormatError(
            Message(gettext_noop("an elimination candidate cannot choose themselves"))
        )
    if dmo in episode.ecs:
        raise FormatError(
            Message(
                gettext_noop("player {dmo} is an elimination candidate too and cannot be chosen"),
                dmo=dmo,
            )
        )
    if dmo in episode.dmos.values():
        raise FormatError(
            Message(gettext_noop("player {dmo} is already another candidate's opponent"), dmo=dmo)
        )
    if dmo not in eligible_opponents(season, episode):
        raise FormatError(
            Message(
                gettext_noop("player {dmo} holds a Token of Life and cannot be chosen"), dmo=dmo
            )
        )
    return replace(episode, dmos=_nonzero({**episode.dmos, ec: dmo}))


def death_match_result(
    episode: Episode, ec: int, ec_score: float, dmo_score: float
) -> DeathMatchResult:
    """The higher score wins the Death Match; on a tie the DMO wins."""
    if ec not in episode.dmos:
        raise FormatError(
            Message(gettext_noop("player {ec} has no Death Match opponent yet"), ec=ec)
        )
    dmo = episode.dmos[ec]
    ec_wins = ec_score > dmo_score
    return DeathMatchResult(
        ec=ec,
        dmo=dmo,
        winner=ec if ec_wins else dmo,
        loser=dmo if ec_wins else ec,
        tie=ec_score == dmo_score,
    )


def eliminate(
    season: Season,
    result: DeathMatchResult,
    rules: SeasonRules,
    ledger: Ledger,
    *,
    episode: int | None = None,
) -> tuple[Season, Ledger]:
    """Remove the DM loser; their tokens go with them, their currency by the season's rule."""
    _require_in(season, result.loser, Message(gettext_noop("the Death Match loser")))
    tokens = {p: n for p, n in season.tokens.items() if p != result.loser}
    remaining = tuple(p for p in season.players if p != result.loser)
    new_ledger = settle_elimination(
        ledger,
        result.loser,
        result.winner,
        rules.on_elimination,
        currency=rules.currency,
        episode=episode,
    )
    return Season(remaining, (*season.eliminated, result.loser), _nonzero(tokens)), new_ledger


def final_winner(season: Season, rules: SeasonRules, games: Iterable[int | None]) -> int | None:
    """The season's winner once someone has won a majority of the best-of-N final, else None.

    ``games`` are the winners of the final's Death Matches in order; ``None`` is a tie,
    which is replayed (it counts for nobody, as there is no DMO in the final).
    """
    if season.stage != "final":
        raise FormatError(
            Message(gettext_noop("the final is played when exactly two players remain"))
        )
    needed = rules.final_best_of // 2 + 1
    wins = dict.fromkeys(season.players, 0)
    for number, winner in enumerate(games, start=1):
        if any(count >= needed for count in wins.values()):
            raise FormatError(
                Message(
                    gettext_noop("final game {number} was played after the final was decided"),
                    number=number,
                )
            )
        if winner is None:
            continue
        if winner not in wins:
            raise FormatError(
                Message(gettext_noop("player {winner} is not a finalist"), winner=winner)
            )
        wins[winner] += 1
    return next((p for p, count in wins.items() if count >= needed), None)


def finish_season(season: Season, rules: SeasonRules, games: Iterable[int | None]) -> Season:
    """The season after its final: the runner-up eliminated, the winner the only player in."""
    winner = final_winner(season, rules, games)
    if winner is None:
        raise FormatError(
            Message(
                gettext_noop("nobody has won the best of {final_best_of} final yet"),
                final_best_of=rules.final_best_of,
            )
        )
    (runner_up,) = (p for p in season.players if p != winner)
    return Season((winner,), (*season.eliminated, runner_up), _nonzero({}))
