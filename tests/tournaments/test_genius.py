import json
from dataclasses import asdict, replace

import pytest

from tournaments.formats import FORMATS, FormatError, ledger
from tournaments.formats import genius as g
from tournaments.formats.ledger import GARNETS, award, balance, balances, spend, transfer

RULES = g.SeasonRules()
CHOSEN = g.SeasonRules(ec_rule="chosen_by_winners")
MM_LOSER = g.SeasonRules(ec_rule="mm_loser")


def season_of(n: int) -> g.Season:
    return g.start_season(range(1, n + 1))


def test_genius_is_a_registered_format():
    assert FORMATS["genius"] is g


def test_the_mm_loser_is_the_candidate_and_winners_get_a_token_each():
    season, episode = g.main_match(season_of(5), 1, (1, 2, 3, 5), (4,), RULES)
    episode = g.name_elimination_candidates(episode, RULES)
    assert episode.ecs == (4,)
    assert dict(season.tokens) == {1: 1, 2: 1, 3: 1, 5: 1}


def test_the_mm_loser_rule_needs_as_many_losers_as_candidates():
    _, episode = g.main_match(season_of(5), 1, (1, 2), (3, 4, 5), MM_LOSER)
    with pytest.raises(FormatError, match="exactly 1 MM loser"):
        g.name_elimination_candidates(episode, MM_LOSER)


@pytest.mark.parametrize(
    ("winners", "losers", "message"),
    [
        ((1, 2), (3, 4), "leaves out player 5"),
        ((1, 2, 3), (3, 4, 5), "cannot both win and lose"),
        ((1, 2, 3, 4), (5, 9), "9 is not a player still in"),
        ((1, 2, 3, 4, 5), (), "at least one loser"),
    ],
)
def test_main_match_results_are_validated(winners, losers, message):
    with pytest.raises(FormatError, match=message):
        g.main_match(season_of(5), 1, winners, losers, RULES)


def test_winners_choose_several_candidates_among_the_losers():
    rules = g.SeasonRules(ec_rule="chosen_by_winners", ec_count=2)
    season, episode = g.main_match(season_of(7), 1, (1, 2), (3, 4, 5, 6, 7), rules)
    with pytest.raises(FormatError, match="player 1 did not lose"):
        g.name_elimination_candidates(episode, rules, (1, 3))
    with pytest.raises(FormatError, match="choose 2 different"):
        g.name_elimination_candidates(episode, rules, (3, 3))
    episode = g.name_elimination_candidates(episode, rules, (5, 3))
    assert episode.ecs == (5, 3)
    episode = g.choose_opponent(season, episode, 5, 4)
    with pytest.raises(FormatError, match="already another candidate's opponent"):
        g.choose_opponent(season, episode, 3, 4)
    with pytest.raises(FormatError, match="elimination candidate too"):
        g.choose_opponent(season, episode, 3, 5)
    episode = g.choose_opponent(season, episode, 3, 6)
    assert dict(episode.dmos) == {5: 4, 3: 6}


def test_a_sole_winner_gets_two_tokens_and_gives_one_away_never_to_the_ec():
    season, episode = g.main_match(season_of(5), 1, (1,), (2, 3, 4, 5), CHOSEN)
    assert season.tokens[1] == 2
    with pytest.raises(FormatError, match="name the elimination candidates"):
        g.give_token(season, episode, 1, 2)
    episode = g.name_elimination_candidates(episode, CHOSEN, (4,))
    with pytest.raises(FormatError, match="give away their token before"):
        g.choose_opponent(season, episode, 4, 2)
    with pytest.raises(FormatError, match="4 is an elimination candidate and cannot get a token"):
        g.give_token(season, episode, 1, 4)
    with pytest.raises(FormatError, match="someone else"):
        g.give_token(season, episode, 1, 1)
    with pytest.raises(FormatError, match="player 2 has no Token of Life to give"):
        g.give_token(season, episode, 2, 3)
    season, episode = g.give_token(season, episode, 1, 3)
    assert dict(season.tokens) == {1: 1, 3: 1}
    with pytest.raises(FormatError, match="player 1 has no Token of Life to give"):
        g.give_token(season, episode, 1, 2)
    assert g.eligible_opponents(season, episode) == [2, 5]


@pytest.fixture
def ready_for_choice():
    # Six players; 1 and 2 win the MM (one ToL each) and choose 6 as the candidate.
    season, episode = g.main_match(season_of(6), 1, (1, 2), (3, 4, 5, 6), CHOSEN)
    return season, g.name_elimination_candidates(episode, CHOSEN, (6,))


@pytest.mark.parametrize(
    ("ec", "dmo", "message"),
    [
        (6, 1, "player 1 holds a Token of Life"),
        (6, 6, "cannot choose themselves"),
        (6, 99, "99 is not a player still in"),
        (3, 4, "player 3 is not an elimination candidate"),
    ],
)
def test_invalid_opponent_choices_say_why(ready_for_choice, ec, dmo, message):
    season, episode = ready_for_choice
    with pytest.raises(FormatError, match=message):
        g.choose_opponent(season, episode, ec, dmo)


def test_an_ec_chooses_once(ready_for_choice):
    season, episode = ready_for_choice
    assert g.eligible_opponents(season, episode) == [3, 4, 5]
    episode = g.choose_opponent(season, episode, 6, 3)
    with pytest.raises(FormatError, match="already chosen player 3"):
        g.choose_opponent(season, episode, 6, 4)


@pytest.mark.parametrize(
    ("ec_score", "dmo_score", "winner", "tie"),
    [(10, 7, 6, False), (7, 10, 3, False), (8, 8, 3, True)],
)
def test_death_match_higher_score_wins_and_the_dmo_wins_a_tie(
    ready_for_choice, ec_score, dmo_score, winner, tie
):
    season, episode = ready_for_choice
    episode = g.choose_opponent(season, episode, 6, 3)
    result = g.death_match_result(episode, 6, ec_score, dmo_score)
    assert (result.winner, result.tie) == (winner, tie)
    assert result.loser == ({6, 3} - {winner}).pop()


def test_death_match_needs_an_opponent(ready_for_choice):
    _, episode = ready_for_choice
    with pytest.raises(FormatError, match="no Death Match opponent yet"):
        g.death_match_result(episode, 6, 1, 0)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("confiscated", {3: 5}), ("to_dm_winner", {3: 5 + 4})],
)
def test_elimination_settles_garnets_by_the_season_rule(ready_for_choice, rule, expected):
    season, episode = ready_for_choice
    rules = g.SeasonRules(ec_rule="chosen_by_winners", on_elimination=rule)
    episode = g.choose_opponent(season, episode, 6, 3)
    ledger = award(award((), 3, 5, "MM prize"), 6, 4, "MM prize")
    result = g.death_match_result(episode, 6, 2, 9)
    season, ledger = g.eliminate(season, result, rules, ledger, episode=1)
    assert season.players == (1, 2, 3, 4, 5)
    assert season.eliminated == (6,)
    assert {p: b for p, b in balances(ledger).items() if b} == expected
    assert balance(ledger, 6) == 0
    assert ledger[-1].reason.startswith("eliminated")
    assert ledger[-1].episode == 1


def test_an_eliminated_player_takes_their_tokens_along():
    season, episode = g.main_match(season_of(4), 1, (1, 2, 4), (3,), RULES)
    episode = g.name_elimination_candidates(episode, RULES)
    # Everyone else holds a token: the tokens protect nobody, the EC chooses among all.
    assert g.eligible_opponents(season, episode) == [1, 2, 4]
    episode = g.choose_opponent(season, episode, 3, 4)
    result = g.DeathMatchResult(ec=3, dmo=4, winner=3, loser=4, tie=False)
    season, _ = g.eliminate(season, result, RULES, ())
    assert 4 not in season.tokens


def test_a_whole_season_to_its_best_of_three_final():
    rules = g.SeasonRules(winner_tokens=0)  # only a sole winner earns tokens this season
    season, ledger = season_of(4), ()
    for number, (winners, loser) in enumerate([((1, 2, 3), 4), ((1, 2), 3)], start=1):
        season, episode = g.main_match(season, number, winners, (loser,), rules)
        episode = g.name_elimination_candidates(episode, rules)
        episode = g.choose_opponent(season, episode, loser, 1)
        result = g.death_match_result(episode, loser, 5, 5)  # a tie: the DMO survives
        season, ledger = g.eliminate(season, result, rules, ledger, episode=number)
    assert season.stage == "final"
    assert season.eliminated == (4, 3)
    assert g.final_winner(season, RULES, [1, None]) is None
    assert g.final_winner(season, RULES, [1, None, 2, 1]) == 1
    with pytest.raises(FormatError, match="after the final was decided"):
        g.final_winner(season, RULES, [1, 1, 2])
    with pytest.raises(FormatError, match="player 3 is not a finalist"):
        g.final_winner(season, RULES, [3])
    with pytest.raises(FormatError, match="nobody has won"):
        g.finish_season(season, RULES, [2])
    season = g.finish_season(season, RULES, [2, 2])
    assert season.stage == "finished"
    assert season.players == (2,)
    assert season.eliminated == (4, 3, 1)
    with pytest.raises(FormatError, match="not an episode"):
        g.main_match(g.Season((1, 2)), 9, (1,), (2,), RULES)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ec_rule": "vote"}, "ec_rule"),
        ({"on_elimination": "burn"}, "on_elimination"),
        ({"ec_count": 0}, "at least one"),
        ({"sole_winner_gives": 3}, "more tokens"),
        ({"final_best_of": 4}, "odd number"),
    ],
)
def test_bad_season_rules_are_refused(options, message):
    with pytest.raises(FormatError, match=message):
        g.SeasonRules(**options)


def test_ledger_awards_transfers_and_spending():
    ledger = award((), 1, 10, "won the main match", episode=1)
    ledger = transfer(ledger, 1, 2, 3, "deal in episode 2", episode=2)
    ledger = spend(ledger, 2, 2, "bought a hint")
    ledger = award(ledger, 1, 1, "bonus", currency="chips")
    assert balances(ledger) == {1: 7, 2: 1}
    assert balances(ledger, "chips") == {1: 1}
    assert [e.kind for e in ledger] == ["award", "transfer", "spend", "award"]
    assert ledger[0].currency == GARNETS


@pytest.mark.parametrize(
    ("operation", "message"),
    [
        (lambda ledger: spend(ledger, 1, 6, "too much"), "has 5 garnets, not the 6 needed"),
        (lambda ledger: transfer(ledger, 2, 1, 1, "nothing held"), "player 2 has 0 garnets"),
        (lambda ledger: transfer(ledger, 1, 1, 1, "to self"), "to themselves"),
        (lambda ledger: award(ledger, 1, 0, "zero"), "positive whole number"),
        (lambda ledger: award(ledger, 1, 1, " "), "needs a reason"),
        (lambda ledger: spend(ledger, 1, 1, "chips", currency="chips"), "0 chips"),
    ],
)
def test_ledger_never_goes_negative_and_explains(operation, message):
    ledger = award((), 1, 5, "start")
    with pytest.raises(FormatError, match=message):
        operation(ledger)
    assert balances(ledger) == {1: 5}  # append-only: the old ledger is untouched


def test_season_and_episode_are_plain_data():
    season, episode = g.main_match(season_of(5), 1, (1,), (2, 3, 4, 5), CHOSEN)
    episode = g.name_elimination_candidates(episode, CHOSEN, (4,))
    data = {"season": asdict(season), "episode": asdict(episode)}
    assert json.loads(json.dumps(data, default=sorted))["season"]["tokens"] == {"1": 2}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("ec_count", [1, 2, 3])
def test_every_main_match_result_can_be_played_on_with_any_candidate_count(players, ec_count):
    """The default rules (and any ec_count) never leave an episode stuck: whatever the MM
    split, the candidates are named, the sole winner's gift is possible or waived, and each
    candidate has an opponent."""
    rules = g.SeasonRules(ec_count=ec_count)
    for winners_count in range(1, players):
        season = season_of(players)
        winners, losers = range(1, winners_count + 1), range(winners_count + 1, players + 1)
        season, episode = g.main_match(season, 1, winners, losers, rules)
        needed = g.candidates_needed(episode, rules)
        assert 1 <= needed <= min(len(losers), players // 2)
        chosen = () if g.candidates_follow_from_result(episode, rules) else tuple(losers)[:needed]
        episode = g.name_elimination_candidates(episode, rules, chosen)
        assert len(episode.ecs) == needed
        if episode.tokens_to_give and len(g.eligible_opponents(season, episode)) > needed:
            receiver = next(p for p in season.players if p not in episode.ecs and p != 1)
            season, episode = g.give_token(season, episode, 1, receiver)
        else:
            episode = replace(episode, tokens_to_give={})  # the duty lapses (seasons.py)
        for ec in episode.ecs:
            options = g.eligible_opponents(season, episode)
            assert options, (players, winners_count, ec_count)
            episode = g.choose_opponent(season, episode, ec, options[0])
        assert len(episode.dmos) == needed
        assert players - needed >= 2  # two players always reach the final


def test_with_one_loser_the_winners_have_nobody_to_choose():
    season, episode = g.main_match(season_of(6), 1, (1, 2, 3, 4, 5), (6,), RULES)
    assert g.candidates_follow_from_result(episode, RULES)
    episode = g.name_elimination_candidates(episode, RULES)
    assert episode.ecs == (6,)
    # Every winner holds a Token of Life: this episode the tokens protect nobody.
    assert g.eligible_opponents(season, episode) == [1, 2, 3, 4, 5]
    with pytest.raises(FormatError, match="choose 1 different"):
        g.name_elimination_candidates(replace(episode, ecs=()), RULES, (6, 5))


def test_a_sole_winner_chooses_among_five_losers_by_default():
    season, episode = g.main_match(season_of(6), 1, (1,), (2, 3, 4, 5, 6), RULES)
    assert not g.candidates_follow_from_result(episode, RULES)
    with pytest.raises(FormatError, match="choose 1 different"):
        g.name_elimination_candidates(episode, RULES)
    episode = g.name_elimination_candidates(episode, RULES, (6,))
    season, episode = g.give_token(season, episode, 1, 2)
    assert g.eligible_opponents(season, episode) == [3, 4, 5]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"winner_tokens": -1}, "cannot be negative"),
        ({"ec_count": "2"}, "ec_count must be a whole number"),
        ({"final_best_of": True}, "odd number"),
        ({"currency": " "}, "currency must be a name"),
    ],
)
def test_more_bad_season_rules_are_refused(options, message):
    with pytest.raises(FormatError, match=message):
        g.SeasonRules(**options)


@pytest.mark.parametrize("rule", ["confiscated", "to_dm_winner"])
def test_a_returned_settlement_restores_the_balances_by_new_entries(rule):
    start = award(award((), 1, 5, "MM"), 2, 2, "MM")
    settled = ledger.settle_elimination(start, 1, 2, rule, episode=1)
    assert ledger.outstanding_settlement(settled, 1, 1) == settled[-1]
    returned = ledger.return_settlement(settled, 1, 1)
    assert returned[: len(settled)] == settled and len(returned) == len(settled) + 1
    assert balances(returned) == balances(start)
    assert ledger.outstanding_settlement(returned, 1, 1) is None
    assert ledger.return_settlement(returned, 1, 1) == returned  # nothing left to return
    # Settled again (the player is out once more), then returned again: one each.
    again = ledger.settle_elimination(returned, 1, 2, rule, episode=1)
    assert ledger.outstanding_settlement(again, 1, 1) == again[-1]
    assert balances(ledger.return_settlement(again, 1, 1)) == balances(start)


def test_a_settlement_paid_to_a_winner_who_spent_it_cannot_be_returned():
    settled = ledger.settle_elimination(award((), 1, 5, "MM"), 1, 2, "to_dm_winner", episode=1)
    spent = spend(settled, 2, 3, "a Token of Life")
    with pytest.raises(FormatError, match="has 2 garnets, not the 5 needed"):
        ledger.return_settlement(spent, 1, 1)
    assert ledger.return_settlement(award((), 1, 5, "MM"), 1, 1) == award((), 1, 5, "MM")
