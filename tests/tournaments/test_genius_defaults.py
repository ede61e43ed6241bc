"""A Genius season with ``format_options: {}`` runs to its final through the documented API,
whatever the main matches' splits; so does the seeded demo season."""

from io import StringIO

import pytest
from django.core.management import call_command

from games import services as game_services
from hosting.core.roles import ORGANISER
from tests.games.hosting_helpers import FakeClock, register_tiny
from tests.tournaments.builders import user
from tests.tournaments.test_api import client_for, get, post
from tournaments.models import Entrant, Match, Tournament

pytestmark = pytest.mark.django_db


def create_season(host, slug: str, **fields) -> str:
    body = {"name": "Defaults", "slug": slug, "game": "high_card", "format": "genius"}
    post(host, "/api/tournaments/", body | fields, status=201)
    base = f"/api/tournaments/{slug}"
    post(host, f"{base}/registration/open")
    return base


def still_in(base: str) -> list[dict]:
    detail = get(client_for(), f"{base}/")
    live = [e for e in detail["entrants"] if e["eliminated_in"] is None]
    return sorted(live, key=lambda e: e["seed"])


def tie_entered_by_the_host(host, base: str, number: int) -> None:
    post(host, f"{base}/matches/E{number}.DM1/result", {"winner": None})


def play_episode(
    base: str, number: int, host, users: dict, winners_count: int, settle=tie_entered_by_the_host
) -> int:
    """The top ``winners_count`` seeds still in win the main match; the winners (or nobody,
    when the result names the candidate) choose the bottom seed; a sole winner gives their
    spare token to the best loser; the EC picks the first opponent the rules allow; the DMO
    wins the Death Match (a tie, by default entered by the host). Returns the eliminated
    entrant."""
    players = still_in(base)
    winners, losers = players[:winners_count], players[winners_count:]
    episode = post(
        host,
        f"{base}/episodes/{number}/main-match",
        {"winners": [p["id"] for p in winners], "losers": [p["id"] for p in losers]},
    )
    ec = losers[-1]
    if episode["status"] == "candidates":
        chooser = users[winners[0]["id"]]
        episode = post(chooser, f"{base}/episodes/{number}/candidates", {"chosen": [ec["id"]]})
    assert episode["ecs"] == [ec["id"]]
    if episode["status"] == "tokens":
        giver = winners[0]
        episode = post(
            users[giver["id"]],
            f"{base}/episodes/{number}/token",
            {"giver": giver["id"], "receiver": losers[0]["id"]},
        )
    assert episode["status"] == "opponents"
    protected = {int(k) for k, v in episode["tokens"].items() if v}
    candidates = [p for p in players if p["id"] != ec["id"]]
    dmo = next((p for p in candidates if p["id"] not in protected), candidates[0])
    episode = post(
        users[ec["id"]], f"{base}/episodes/{number}/opponent", {"ec": ec["id"], "dmo": dmo["id"]}
    )
    assert episode["status"] == "death_match"
    settle(host, base, number)
    assert Entrant.objects.get(pk=ec["id"]).eliminated_in == number  # the DMO won the tie
    return ec["id"]


def test_a_six_player_season_with_default_rules_reaches_its_final_and_ranks_everyone():
    register_tiny()
    organiser = user("host", ORGANISER)
    host = client_for(organiser)
    base = create_season(host, "defaults", format_options={}, play_online=False)
    users = {}
    for i in range(1, 7):
        person = user(f"g{i}")
        entry = post(client_for(person), f"{base}/register", {"rating": 2000 - i}, status=201)
        users[entry["id"]] = client_for(person)
    post(host, f"{base}/seeding", {"method": "rating"})
    post(host, f"{base}/start")
    # 5 winners v 1 loser (the old deadlock), a sole winner, an even split, a sole winner of 3.
    eliminated = [
        play_episode(base, number, host, users, winners)
        for number, winners in enumerate((5, 1, 2, 1), start=1)
    ]
    detail = get(client_for(), f"{base}/")
    assert [e["kind"] for e in detail["episodes"]] == ["episode"] * 4 + ["final"]
    finalists = still_in(base)
    assert len(finalists) == 2
    final = next(
        m
        for stage in detail["stages"]
        for round_ in stage["rounds"]
        for m in round_["matches"]
        if m["code"] == "FINAL"
    )
    assert final["best_of"] == 3
    post(host, f"{base}/matches/FINAL/result", {"winner": finalists[1]["id"]})
    table = get(client_for(), f"{base}/standings")
    assert table["ranking"] == "genius"
    rows = [(r["entrant"], r["rank"], r["eliminated_in"]) for r in table["standings"]]
    assert rows == [
        (finalists[1]["id"], 1, None),
        (finalists[0]["id"], 2, 5),
        *[(pk, 7 - n, n) for n, pk in reversed(list(enumerate(eliminated, start=1)))],
    ]
    assert get(client_for(), f"{base}/")["status"] == "finished"


def test_unknown_or_bad_season_rules_are_refused_at_creation():
    register_tiny()
    host = client_for(user("host", ORGANISER))
    for options, message in (
        ({"ec_rulle": "mm_loser"}, "unknown rule 'ec_rulle'"),
        ({"final_best_of": 2}, "odd number"),
    ):
        body = {"name": "x", "slug": "x", "game": "high_card", "format": "genius"}
        response = host.post("/api/tournaments/", body | {"format_options": options}, format="json")
        assert response.status_code == 400, response.content
        assert message in response.json()["detail"]
    assert not Tournament.objects.exists()


def test_the_demo_season_is_played_to_its_end(
    monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # 7 accounts
    clock = FakeClock()
    monkeypatch.setattr("games.services.core.now", clock)
    call_command("seed_demo", stdout=StringIO())
    tournament = Tournament.objects.get(slug="demo-season")
    assert tournament.format_options == {} and tournament.format == "genius"
    host = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    assert get(client_for(), f"{base}/standings")["standings"] == []
    post(host, f"{base}/start")
    users = {e.pk: client_for(e.user) for e in tournament.entrants.all()}

    def both_clocks_run_out(_host, _base, number):
        """The Death Match is a hosted Drafting Trios game; nobody moves and both reserves
        run out at once, which the DMO wins."""
        match = Match.objects.get(stage__tournament=tournament, code=f"E{number}.DM1")
        game = match.match_games.get().game
        with django_capture_on_commit_callbacks(execute=True):
            # Nobody opens the game, so nobody sends a client seed: it deals at the window's
            # end (the demo keeps the product's default window).
            clock.advance(tournament.seed_window_seconds + 1)
            game_services.enforce_deadline(game_id=game.pk)
            clock.advance(60 + 300 + 1)
            game_services.enforce_deadline(game_id=game.pk)

    for number, winners in enumerate((1, 3, 1, 2), start=1):
        play_episode(base, number, host, users, winners, settle=both_clocks_run_out)
    final = Match.objects.get(stage__tournament=tournament, code="FINAL")
    assert final.status == "live"
    post(host, f"{base}/matches/FINAL/result", {"winner": final.home_id})  # settled by the host
    table = get(client_for(), f"{base}/standings")
    assert [r["rank"] for r in table["standings"]] == [1, 2, 3, 4, 5, 6]
    assert table["standings"][0]["entrant"] == final.home_id
    assert get(client_for(), f"{base}/")["status"] == "finished"
