"""A whole Genius season run through the services: main matches, candidates, tokens, opponents,
Death Matches, eliminations, garnets and the final."""

from datetime import timedelta

import pytest
from django.utils import timezone

from hosting.core.errors import Conflict, Forbidden
from tests.tournaments.builders import open_tournament
from tournaments import services
from tournaments.formats import FormatError, genius
from tournaments.models import AuditEntry, Entrant, Episode, LedgerEntry
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db

RULES = {"ec_rule": "chosen_by_winners", "on_elimination": "to_dm_winner", "final_best_of": 3}


@pytest.fixture
def season():
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    return tournament, cast, episode


def still_in(tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(eliminated_in__isnull=True).order_by("seed"))


def play_episode(tournament, episode, *, dm_draw: bool = False):
    """The top seed still in wins the MM alone, names the bottom seed EC and gives their
    spare token to the second seed; the EC picks the third seed; the better seed wins the DM
    (or the organiser enters a draw)."""
    host = tournament.organiser
    players = still_in(tournament)
    winner, ec = players[0], players[-1]
    seasons.main_match_record(
        episode=episode, by=host, winners=[winner.pk], losers=[p.pk for p in players[1:]]
    )
    seasons.candidates_choose(episode=episode, by=winner.user, chosen=[ec.pk])
    episode.refresh_from_db()
    if len(players) > 3:
        assert episode.status == Episode.Status.TOKENS
        seasons.token_give(episode=episode, by=winner.user, giver=winner.pk, receiver=players[1].pk)
        episode.refresh_from_db()
        # The token of life is used: its holder cannot be picked.
        with pytest.raises(services.TournamentUserError, match="holds a Token of Life"):
            seasons.opponent_choose(episode=episode, by=ec.user, ec=ec.pk, dmo=players[1].pk)
        dmo = players[2]
    else:  # giving a token away would leave the candidate nobody to choose: it lapses
        assert episode.status == Episode.Status.OPPONENTS
        dmo = players[1]
    seasons.opponent_choose(episode=episode, by=ec.user, ec=ec.pk, dmo=dmo.pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DEATH_MATCH
    match = tournament.stages.get().matches.get(code=f"E{episode.number}.DM1")
    assert (match.home, match.away) == (ec, dmo)
    winner_of_dm = None if dm_draw else min((match.home, match.away), key=lambda e: e.seed)
    services.match_report_result(match=match, by=host, winner=winner_of_dm)
    return match


def test_a_six_player_season_is_played_to_a_winner(season):
    tournament, cast, episode = season
    host = tournament.organiser
    seasons.ledger_record(
        tournament=tournament, by=host, kind="award", entrant=cast[5].pk, amount=7, reason="MM"
    )
    # Episode 1: the DMO wins a tie (the organiser enters a drawn Death Match).
    match = play_episode(tournament, episode, dm_draw=True)
    assert match.winner is None
    assert Entrant.objects.get(pk=cast[5].pk).eliminated_in == 1
    tie = AuditEntry.objects.get(action="tournaments.season.eliminated", data__episode=1)
    assert tie.data["dmo_won_tie"] is True and tie.data["winner"] == cast[2].pk
    # The eliminated EC's garnets went to the DM winner, by this season's rule.
    balances = seasons.balances(tournament)
    assert balances[cast[2].pk] == 7 and balances.get(cast[5].pk, 0) == 0
    for number in (2, 3, 4):
        episode = tournament.episodes.get(number=number)
        play_episode(tournament, episode)
    final = tournament.episodes.get(number=5)
    assert final.kind == Episode.Kind.FINAL
    finalists = still_in(tournament)
    assert len(finalists) == 2
    final_match = tournament.stages.get().matches.get(code="FINAL")
    assert final_match.best_of == 3
    services.match_report_result(match=final_match, by=host, winner=finalists[1])
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert still_in(tournament) == [finalists[1]]
    eliminated = Entrant.objects.filter(tournament=tournament).order_by("eliminated_in")
    assert [e.eliminated_in for e in eliminated if e.eliminated_in] == [1, 2, 3, 4, 5]
    assert LedgerEntry.objects.filter(tournament=tournament, kind="transfer").exists()


def test_only_the_right_people_decide_each_step(season):
    tournament, cast, episode = season
    host = tournament.organiser
    seasons.main_match_record(
        episode=episode, by=host, winners=[cast[0].pk], losers=[p.pk for p in cast[1:]]
    )
    with pytest.raises(Forbidden, match="main match winners choose"):
        seasons.candidates_choose(episode=episode, by=cast[3].user, chosen=[cast[4].pk])
    with pytest.raises(services.TournamentUserError, match="did not lose the main match"):
        seasons.candidates_choose(episode=episode, by=cast[0].user, chosen=[cast[0].pk])
    seasons.candidates_choose(episode=episode, by=cast[0].user, chosen=[cast[4].pk])
    with pytest.raises(services.TournamentUserError, match="elimination candidate"):
        seasons.token_give(episode=episode, by=cast[0].user, giver=cast[0].pk, receiver=cast[4].pk)
    with pytest.raises(Conflict, match="not being chosen now"):
        seasons.opponent_choose(episode=episode, by=cast[4].user, ec=cast[4].pk, dmo=cast[3].pk)


def test_sealed_submissions_are_private_until_the_deadline_and_frozen_after(season):
    tournament, cast, episode = season
    host = tournament.organiser
    deadline = timezone.now() + timedelta(minutes=5)
    seasons.sealed_open(episode=episode, by=host, prompt="Pick a number", deadline=deadline)
    first = seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="7")
    seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="8")
    with pytest.raises(Forbidden):
        seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[1].user, text="1")
    with pytest.raises(Conflict, match="after the deadline"):
        seasons.sealed_reveal(episode=episode, by=host)
    Episode.objects.filter(pk=episode.pk).update(mm_deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Conflict, match="deadline has passed"):
        seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="9")
    revealed = seasons.sealed_reveal(episode=episode, by=host)
    assert [(s.entrant_id, s.text) for s in revealed] == [(cast[0].pk, "8")]
    assert revealed[0].submitted_at >= first.submitted_at


def test_garnets_never_go_below_zero(season):
    tournament, cast, _ = season
    host = tournament.organiser
    seasons.ledger_record(
        tournament=tournament, by=host, kind="award", entrant=cast[0].pk, amount=3, reason="win"
    )
    with pytest.raises(services.TournamentUserError):
        seasons.ledger_record(
            tournament=tournament,
            by=cast[0].user,
            kind="transfer",
            entrant=cast[0].pk,
            to=cast[1].pk,
            amount=4,
            reason="deal",
        )
    seasons.ledger_record(
        tournament=tournament,
        by=cast[0].user,
        kind="transfer",
        entrant=cast[0].pk,
        to=cast[1].pk,
        amount=2,
        reason="deal",
    )
    assert seasons.balances(tournament) == {cast[0].pk: 1, cast[1].pk: 2}


def test_a_ledger_entry_names_only_this_seasons_entrants(season):
    tournament, cast, _ = season
    host = tournament.organiser
    with pytest.raises(services.TournamentUserError, match="must be in this season"):
        seasons.ledger_record(
            tournament=tournament, by=host, kind="award", entrant=999999, amount=1, reason="x"
        )
    with pytest.raises(services.TournamentUserError, match="a transfer needs"):
        seasons.ledger_record(
            tournament=tournament,
            by=host,
            kind="transfer",
            entrant=cast[0].pk,
            amount=1,
            reason="x",
        )


def test_an_anonymous_visitor_decides_nothing(season):
    from django.contrib.auth.models import AnonymousUser

    tournament, cast, episode = season
    seasons.main_match_record(
        episode=episode,
        by=tournament.organiser,
        winners=[cast[0].pk],
        losers=[c.pk for c in cast[1:]],
    )
    with pytest.raises(Forbidden):
        seasons.candidates_choose(episode=episode, by=AnonymousUser(), chosen=[cast[5].pk])


def test_a_season_may_keep_each_players_first_sealed_answer():
    tournament, cast = open_tournament("genius", 4, format_options={**RULES, "sealed_edits": False})
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    soon = timezone.now() + timedelta(hours=1)
    seasons.sealed_open(episode=episode, by=tournament.organiser, prompt="1-10?", deadline=soon)
    seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="7")
    with pytest.raises(Conflict, match="first answer"):
        seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="8")
    assert episode.submissions.get().text == "7"
    with pytest.raises(FormatError, match="sealed_edits is true or false"):
        genius.SeasonRules(sealed_edits="yes")
