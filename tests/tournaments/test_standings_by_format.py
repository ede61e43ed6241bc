"""``GET …/standings`` and ``standings --tournament`` rank each format by its own rule:
knockouts by placement, Genius seasons by episode of elimination, round robin and Swiss by
points and the chain."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import open_tournament, organiser, started
from tests.tournaments.test_api import client_for, get, post, ready_matches
from tournaments import services
from tournaments.models import Entrant, Tournament
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def play_out(tournament, pick) -> dict:
    """Enter every ready match through the API until none is left; ``pick(code, home,
    away)`` returns the winner's entrant id."""
    organiser = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    detail = get(organiser, f"{base}/")
    while ready := ready_matches(detail):
        for match in ready:
            winner = pick(match["code"], match["home"]["id"], match["away"]["id"])
            post(organiser, f"{base}/matches/{match['code']}/result", {"winner": winner})
        detail = get(organiser, f"{base}/")
    return detail


def by_seed(players):
    seed = dict(Entrant.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "seed"))

    def better(code, home, away):
        return min(home, away, key=seed.__getitem__)

    return better


def test_an_eight_player_knockout_with_a_third_place_match():
    tournament, players = open_tournament(
        "single_elimination", 8, format_options={"third_place": True}
    )
    post(client_for(tournament.organiser), f"/api/tournaments/{tournament.slug}/start")
    better = by_seed(players)

    def pick(code, home, away):  # the lower seed takes bronze; elsewhere the better seed wins
        winner = better(code, home, away)
        return ({home, away} - {winner}).pop() if code == "P3" else winner

    assert play_out(tournament, pick)["status"] == "finished"
    answer = get(client_for(), f"/api/tournaments/{tournament.slug}/standings")
    assert answer["ranking"] == "single_elimination"
    rows = [
        (r["name"], r["rank"], r["eliminated_in"], r["round_reached"]) for r in answer["standings"]
    ]
    assert rows == [
        ("p1", 1, None, "W3"),
        ("p2", 2, "W3", "W3"),
        ("p4", 3, "W2", "P3"),
        ("p3", 4, "P3", "P3"),
        ("p5", 5, "W1", "W1"),
        ("p6", 5, "W1", "W1"),
        ("p7", 5, "W1", "W1"),
        ("p8", 5, "W1", "W1"),
    ]
    # The command prints the same table from the database.
    out = StringIO()
    call_command("standings", "--tournament", tournament.slug, stdout=out)
    assert json.loads(out.getvalue()) == answer


def test_a_double_elimination_bracket_ranks_by_the_losers_round():
    tournament, _, players = started(
        "double_elimination", 6, format_options={"grand_final": "reset"}
    )
    assert play_out(tournament, by_seed(players))["status"] == "finished"
    rows = services.standings(tournament=tournament)
    assert [(r["name"], r["rank"], r["eliminated_in"]) for r in rows] == [
        ("p1", 1, None),
        ("p2", 2, "GF1"),
        ("p3", 3, "L4"),
        ("p4", 4, "L3"),
        ("p5", 5, "L2"),
        ("p6", 5, "L2"),
    ]


def test_swiss_rows_name_no_elimination():
    tournament, _, players = started("swiss", 4, format_options={"rounds": 2})
    play_out(tournament, by_seed(players))
    table = services.standings_table(tournament=tournament)
    assert table["ranking"] == "points"
    assert [r["points"] for r in table["standings"]] == [2, 1, 1, 0]
    assert {(r["eliminated_in"], r["round_reached"]) for r in table["standings"]} == {(None, None)}


def test_a_genius_season_ranks_the_champion_first_and_the_eliminated_by_episode():
    rules = {"ec_rule": "chosen_by_winners", "final_best_of": 1}
    tournament, cast = open_tournament("genius", 4, format_options=rules)
    host = tournament.organiser
    seasons.season_start(tournament=tournament, by=host)
    for number, (ec, dmo) in ((1, (3, 2)), (2, (2, 1))):
        # Seed 1 wins each main match alone and names the bottom seed; the DMO wins the DM.
        still_in = [p for p in cast if p.pk in seasons.season_for(tournament).players]
        episode = tournament.episodes.get(number=number)
        seasons.main_match_record(
            episode=episode,
            by=host,
            winners=[still_in[0].pk],
            losers=[p.pk for p in still_in[1:]],
        )
        seasons.candidates_choose(episode=episode, by=host, chosen=[cast[ec].pk])
        episode.refresh_from_db()
        if episode.status == "tokens":
            seasons.token_give(episode=episode, by=host, giver=cast[0].pk, receiver=cast[1].pk)
            dmo = 2
        seasons.opponent_choose(episode=episode, by=host, ec=cast[ec].pk, dmo=cast[dmo].pk)
        match = tournament.stages.get().matches.get(code=f"E{number}.DM1")
        services.match_report_result(match=match, by=host, winner=cast[dmo])
        mid = {r["entrant"]: r["rank"] for r in services.standings(tournament=tournament)}
        assert mid[cast[ec].pk] == 4 - number + 1  # below the players still in
    final = tournament.stages.get().matches.get(code="FINAL")
    services.match_report_result(match=final, by=host, winner=final.away)
    answer = get(client_for(), f"/api/tournaments/{tournament.slug}/standings")
    assert answer["ranking"] == "genius"
    assert [(r["entrant"], r["rank"], r["eliminated_in"]) for r in answer["standings"]] == [
        (final.away_id, 1, None),
        (final.home_id, 2, 3),
        (cast[2].pk, 3, 2),
        (cast[3].pk, 4, 1),
    ]


def test_regulations_are_chosen_per_tournament_and_named_in_the_standings():
    register_tiny()
    host = client_for(organiser())
    body = {"name": "R", "slug": "r", "game": "high_card", "format": "swiss"}
    refused = host.post(
        "/api/tournaments/", body | {"tiebreak_regulations": "fide-2022"}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "unknown tie-break regulations 'fide-2022'; choose one of fide-2024, fide-2026"
    )
    assert not Tournament.objects.exists()  # nothing was created
    default = post(host, "/api/tournaments/", body, status=201)
    assert default["tiebreak_regulations"] == "fide-2026"
    older = post(
        host,
        "/api/tournaments/",
        body | {"slug": "r24", "tiebreak_regulations": "fide-2024"},
        status=201,
    )
    assert older["tiebreak_regulations"] == "fide-2024"


def test_unplayed_rounds_count_by_the_tournaments_regulations():
    """p1 wins round 1 by forfeit. Its dummy opponent scores p1's own 2.0 under fide-2024
    (16.4); the 2026 amendment caps it at the forfeiter's adjusted score (16.4.1)."""
    tournament, _, players = started(
        "swiss",
        4,
        format_options={"rounds": 2},
        tiebreaks=["points", "buchholz"],
        tiebreak_regulations="fide-2024",
    )
    organiser = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    first = tournament.stages.get().matches.get(home=players[0])
    post(
        organiser, f"{base}/matches/{first.code}/result", {"winner": players[0].pk, "forfeit": True}
    )
    play_out(tournament, by_seed(players))
    older = get(client_for(), f"{base}/standings")
    newer = get(client_for(), f"{base}/standings?regulations=fide-2026")
    assert (older["regulations"], newer["regulations"]) == ("fide-2024", "fide-2026")
    forfeiter = Entrant.objects.get(pk=first.away_id)
    adjusted = next(r["points"] for r in newer["standings"] if r["entrant"] == forfeiter.pk)
    p1_old, p1_new = (t["standings"][0] for t in (older, newer))
    assert p1_old["entrant"] == p1_new["entrant"] == players[0].pk and p1_old["points"] == 2.0
    assert p1_old["tiebreaks"]["buchholz"] - p1_new["tiebreaks"]["buchholz"] == 2.0 - adjusted
    out = StringIO()
    call_command(
        "standings", "--tournament", tournament.slug, "--regulations", "fide-2026", stdout=out
    )
    assert json.loads(out.getvalue()) == newer
    bad = client_for().get(f"{base}/standings?regulations=fide-1999")
    assert bad.status_code == 400 and "fide-1999" in bad.json()["detail"]
