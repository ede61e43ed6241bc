"""The tournaments HTTP API: organisers, players and spectators drive tournaments over JSON."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games import services as game_services
from games.models import GameSession
from hosting.core.roles import ORGANISER, STAFF_ADMIN
from tests.games.hosting_helpers import FakeClock, register_tiny
from tests.tournaments.builders import open_tournament, started, user
from tournaments.models import Episode, Tournament

pytestmark = pytest.mark.django_db

GENIUS_RULES = {"ec_rule": "chosen_by_winners", "on_elimination": "to_dm_winner"}


def client_for(person=None) -> APIClient:
    client = APIClient()
    if person is not None:
        client.force_authenticate(person)
    return client


def post(client: APIClient, url: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(url, body or {}, format="json")
    assert response.status_code == status, response.content
    return response.json()


def get(client: APIClient, url: str, status: int = 200) -> dict:
    response = client.get(url)
    assert response.status_code == status, response.content
    return response.json()


def ready_matches(detail: dict) -> list[dict]:
    return [
        match
        for stage in detail["stages"]
        for round_ in stage["rounds"]
        for match in round_["matches"]
        if match["status"] == "ready"
    ]


def by_name(detail: dict) -> dict[str, dict]:
    return {e["name"]: e for e in detail["entrants"]}


def better_seed(detail: dict, match: dict) -> int:
    seeds = {e["id"]: e["seed"] for e in detail["entrants"]}
    return min(match["home"]["id"], match["away"]["id"], key=seeds.__getitem__)


@pytest.fixture
def host():
    register_tiny()
    return client_for(user("host", ORGANISER))


def test_a_single_elimination_cup_is_run_from_creation_to_champion(host):
    created = post(
        host,
        "/api/tournaments/",
        {
            "name": "Spring Cup",
            "slug": "spring-cup",
            "game": "high_card",
            "format": "single_elimination",
            "capacity": 4,
            "play_online": False,
        },
        status=201,
    )
    assert created["status"] == "draft" and created["entrants"] == []
    base = "/api/tournaments/spring-cup"
    post(host, f"{base}/registration/open")
    players = {name: client_for(user(name)) for name in ("ann", "bob", "cat", "dan", "eve")}
    statuses = {
        name: post(client, f"{base}/register", {"rating": rating}, status=201)["status"]
        for (name, client), rating in zip(
            players.items(), (1900, 1800, 1700, 1600, 2000), strict=True
        )
    }
    assert statuses == {
        "ann": "registered",
        "bob": "registered",
        "cat": "registered",
        "dan": "registered",
        "eve": "waitlisted",
    }
    # Dan withdraws; Eve, first on the waitlist, takes the place.
    assert post(players["dan"], f"{base}/withdraw")["status"] == "withdrawn"
    assert by_name(get(host, f"{base}/"))["eve"]["status"] == "registered"
    seeded = post(host, f"{base}/seeding", {"method": "rating"})["entrants"]
    assert [(e["name"], e["seed"]) for e in seeded] == [
        ("eve", 1),
        ("ann", 2),
        ("bob", 3),
        ("cat", 4),
    ]
    detail = post(host, f"{base}/start")
    assert detail["status"] == "running"
    while ready := ready_matches(detail):
        for match in ready:
            winner = better_seed(detail, match)
            result = post(host, f"{base}/matches/{match['code']}/result", {"winner": winner})
            assert result["status"] == "finished" and result["winner"] == winner
        detail = get(host, f"{base}/")
    assert detail["status"] == "finished"
    # Spectators see names and seeds, never accounts or self-declared ratings.
    assert all(
        set(e) == {"id", "name", "status", "seed", "eliminated_in"} for e in detail["entrants"]
    )
    final = detail["stages"][0]["rounds"][-1]["matches"][0]
    assert final["code"] == "W2.1" and final["winner"] == by_name(detail)["eve"]["id"]
    listed = get(client_for(), "/api/tournaments/")["results"]
    assert [(t["slug"], t["entrant_count"]) for t in listed] == [("spring-cup", 4)]


def test_swiss_standings_follow_the_results_entered_through_the_api(host):
    tournament, players = open_tournament(
        "swiss", 4, format_options={"rounds": 2}, tiebreaks=["points", "buchholz"]
    )
    organiser = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    detail = post(organiser, f"{base}/start")
    while ready := ready_matches(detail):
        for match in ready:
            winner = better_seed(detail, match)
            post(organiser, f"{base}/matches/{match['code']}/result", {"winner": winner})
        detail = get(organiser, f"{base}/")
    assert detail["status"] == "finished"
    table = get(client_for(), f"{base}/standings")["standings"]
    assert [row["points"] for row in table] == [2, 1, 1, 0]
    assert table[0]["entrant"] == players[0].pk and table[0]["name"] == "p1"
    assert set(table[0]["tiebreaks"]) == {"buchholz"}


def test_check_in_keeps_those_who_came_and_the_organiser_withdraws_for_a_player():
    tournament, players = open_tournament("swiss", 4)
    organiser = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    post(organiser, f"{base}/check-in/open")
    for entrant in players[1:3]:
        assert post(client_for(entrant.user), f"{base}/check-in")["status"] == "checked_in"
    withdrawn = post(organiser, f"{base}/withdraw", {"entrant": players[3].pk})
    assert withdrawn["status"] == "withdrawn"
    seeded = post(organiser, f"{base}/seeding", {"method": "rating"})["entrants"]
    # p1 did not check in: the seeding drops them below those who did.
    assert [e["name"] for e in seeded] == ["p2", "p3", "p1"]
    detail = post(organiser, f"{base}/start")
    statuses = {e["name"]: e["status"] for e in detail["entrants"]}
    assert statuses == {
        "p1": "withdrawn",
        "p2": "checked_in",
        "p3": "checked_in",
        "p4": "withdrawn",
    }
    assert [m["code"] for m in ready_matches(detail)] == ["S1.1"]


def test_a_correction_after_a_later_match_started_takes_a_staff_admin_and_is_audited():
    tournament, stage, players = started("single_elimination", 4, online=True)
    organiser = client_for(tournament.organiser)
    base = f"/api/tournaments/{tournament.slug}"
    semis = {m.code: m for m in stage.matches.filter(round__number=1)}
    for match in semis.values():
        post(organiser, f"{base}/matches/{match.code}/result", {"winner": match.home_id})
    assert stage.matches.get(code="W2.1").status == "live"  # the final is being played
    correction = {"winner": semis["W1.1"].away_id}
    refused = organiser.post(f"{base}/matches/W1.1/result", correction, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "error": "conflict",
        "detail": "W2.1 already started; a staff admin may force the correction with a reason",
    }
    forced = organiser.post(
        f"{base}/matches/W1.1/result", correction | {"force": True}, format="json"
    )
    assert forced.status_code == 403
    assert forced.json()["detail"] == "forcing a correction takes a staff admin and a reason"
    referee = client_for(user("referee", STAFF_ADMIN))
    body = correction | {"force": True, "reason": "score sheet misread"}
    preview = post(referee, f"{base}/matches/W1.1/result", body | {"dry_run": True})
    assert preview["dry_run"] is True and preview["resets"] == ["W2.1"]
    body |= {"resets": preview["resets"]}
    assert post(referee, f"{base}/matches/W1.1/result", body)["winner"] == semis["W1.1"].away_id
    entries = {e["action"]: e for e in get(organiser, f"{base}/audit")["results"]}
    corrected = entries["tournaments.match.result_corrected"]
    assert corrected["actor"] == "referee" and corrected["reason"] == "score sheet misread"
    assert corrected["data"]["forced"] is True and corrected["data"]["resets"] == ["W2.1"]
    assert entries["tournaments.match.reset"]["data"]["match"] == "W2.1"
    player = client_for(players[0].user)
    assert player.get(f"{base}/audit").json() == {
        "error": "permission_denied",
        "detail": "only the organiser and staff admins read the audit trail",
    }


@pytest.fixture
def season():
    tournament, cast = open_tournament("genius", 4, format_options=GENIUS_RULES)
    organiser = client_for(tournament.organiser)
    post(organiser, f"/api/tournaments/{tournament.slug}/start")
    return tournament, cast, organiser


def test_a_genius_episode_is_played_step_by_step_through_the_api(season):
    tournament, cast, organiser = season
    p1, p2, p3, p4 = cast
    base = f"/api/tournaments/{tournament.slug}"
    episode = f"{base}/episodes/1"
    post(
        organiser,
        f"{base}/ledger",
        {"kind": "award", "entrant": p4.pk, "amount": 5, "reason": "MM"},
        status=201,
    )
    state = post(
        organiser, f"{episode}/main-match", {"winners": [p1.pk], "losers": [p2.pk, p3.pk, p4.pk]}
    )
    assert state["status"] == "candidates" and state["winners"] == [p1.pk]
    state = post(client_for(p1.user), f"{episode}/candidates", {"chosen": [p4.pk]})
    assert state["status"] == "tokens" and state["ecs"] == [p4.pk]
    state = post(client_for(p1.user), f"{episode}/token", {"giver": p1.pk, "receiver": p2.pk})
    assert state["status"] == "opponents" and state["tokens"] == {str(p1.pk): 1, str(p2.pk): 1}
    # The Token of Life protects p2; the EC picks p3 instead.
    protected = client_for(p4.user).post(
        f"{episode}/opponent", {"ec": p4.pk, "dmo": p2.pk}, format="json"
    )
    assert protected.status_code == 400
    # Named as people know them (issue #27, finding 7), not by an internal number.
    detail = protected.json()["detail"]
    assert detail == f"player {p2.display_name} holds a Token of Life and cannot be chosen"
    state = post(client_for(p4.user), f"{episode}/opponent", {"ec": p4.pk, "dmo": p3.pk})
    assert state["status"] == "death_match" and state["dmos"] == {str(p4.pk): p3.pk}
    result = post(organiser, f"{base}/matches/E1.DM1/result", {"winner": p3.pk})
    assert (result["home"]["id"], result["away"]["id"], result["winner"]) == (p4.pk, p3.pk, p3.pk)
    detail = get(client_for(), f"{base}/")
    assert [(e["number"], e["status"]) for e in detail["episodes"]] == [
        (1, "finished"),
        (2, "main_match"),
    ]
    assert by_name(detail)["p4"]["eliminated_in"] == 1
    # The eliminated EC's garnets go to the Death Match winner under these rules.
    assert detail["balances"] == {str(p3.pk): 5, str(p4.pk): 0}


def test_a_main_match_played_as_a_hosted_game_records_its_result(
    season, monkeypatch, django_capture_on_commit_callbacks
):
    clock = FakeClock()
    monkeypatch.setattr("games.services.core.now", clock)
    tournament, cast, organiser = season
    episode = f"/api/tournaments/{tournament.slug}/episodes/1"
    state = post(organiser, f"{episode}/main-match", {"engine": "high_card"})
    game = get(client_for(), f"/api/games/{state['mm_game']}/")
    assert game["status"] == "running"
    assert [s["name"] for s in game["seats"]] == [e.display_name for e in cast]
    with django_capture_on_commit_callbacks(execute=True):
        while GameSession.objects.get(pk=state["mm_game"]).status == "running":
            clock.advance(11)  # every clock runs out: each timeout plays the lowest card
            game_services.enforce_deadline(game_id=state["mm_game"])
    outcome = GameSession.objects.get(pk=state["mm_game"]).outcome
    entrant_of_seat = {str(seat): entrant.pk for seat, entrant in enumerate(cast)}
    recorded = get(client_for(), f"/api/tournaments/{tournament.slug}/")["episodes"][0]
    assert recorded["status"] == "candidates"
    assert recorded["winners"] == sorted(entrant_of_seat[str(s)] for s in outcome["winners"])


def test_sealed_answers_stay_private_until_the_reveal(season):
    tournament, cast, organiser = season
    episode = f"/api/tournaments/{tournament.slug}/episodes/1"
    deadline = (timezone.now() + timedelta(minutes=5)).isoformat()
    post(organiser, f"{episode}/sealed", {"prompt": "Pick a number", "deadline": deadline})
    ann, bob = client_for(cast[0].user), client_for(cast[1].user)
    post(ann, f"{episode}/submit", {"text": "7"}, status=201)
    post(bob, f"{episode}/submit", {"text": "3"}, status=201)
    seen = get(ann, f"{episode}/submissions")
    assert seen["revealed"] is False and [s["text"] for s in seen["submissions"]] == ["7"]
    for outsider in (organiser, client_for()):
        assert get(outsider, f"{episode}/submissions")["submissions"] == []
    early = organiser.post(f"{episode}/reveal")
    assert (
        early.status_code == 409
        and early.json()["detail"] == "submissions are revealed after the deadline"
    )
    Episode.objects.filter(tournament=tournament).update(
        mm_deadline=timezone.now() - timedelta(seconds=1)
    )
    revealed = post(organiser, f"{episode}/reveal")["submissions"]
    assert sorted(s["text"] for s in revealed) == ["3", "7"]
    assert sorted(
        s["text"] for s in get(client_for(), f"{episode}/submissions")["submissions"]
    ) == ["3", "7"]


def test_drafts_are_hidden_and_unlisted_tournaments_are_reachable_only_by_slug(host):
    post(
        host,
        "/api/tournaments/",
        {
            "name": "Quiet",
            "slug": "quiet",
            "game": "high_card",
            "format": "swiss",
            "visibility": "unlisted",
        },
        status=201,
    )
    spectator = client_for()
    assert spectator.get("/api/tournaments/quiet/").status_code == 404
    post(host, "/api/tournaments/quiet/registration/open")
    assert get(spectator, "/api/tournaments/quiet/")["visibility"] == "unlisted"
    assert get(spectator, "/api/tournaments/")["results"] == []


# who asks, method, path under /api/tournaments/ ({t}: the slug), body (a str goes as raw
# text), and the answer
BAD_REQUESTS = [
    ("spectator", "get", "nope/", None, 404, "not_found", "no tournament 'nope'"),
    ("host", "post", "{t}/matches/Z9/result", {"winner": None}, 404, "not_found", "no match 'Z9'"),
    ("host", "post", "{t}/episodes/3/reveal", {}, 404, "not_found", "no episode 3"),
    ("host", "post", "{t}/seeding", "{not json", 400, "parse_error", "JSON parse error"),
    ("host", "post", "{t}/seeding", {"method": "coin"}, 400, "invalid", "invalid input"),
    ("host", "post", "{t}/seeding", {"method": "manual", "order": [1]}, 400, "invalid",
     "a manual seeding lists every entrant exactly once"),
    ("host", "post", "{t}/withdraw", {"entrant": 99}, 400, "invalid",
     "no entrant 99 in this tournament"),
    ("host", "post", "", {"name": "X", "slug": "x", "game": "chess", "format": "swiss"}, 400,
     "invalid", "unknown game 'chess'"),
    ("player", "post", "", {"name": "X", "slug": "x", "game": "high_card", "format": "swiss"},
     403, "permission_denied", "only organisers can create tournaments"),
    ("player", "post", "{t}/start", {}, 403, "permission_denied",
     "only this tournament's organiser can do that"),
    ("spectator", "post", "{t}/check-in", {}, 403, "not_authenticated",
     "Authentication credentials were not provided."),
    ("host", "post", "{t}/registration/open", {}, 409, "conflict",
     "registration opens once, from a draft tournament"),
    ("player", "post", "{t}/register", {}, 409, "conflict", "you are already registered"),
    ("player", "post", "{t}/check-in", {}, 409, "conflict", "check-in is not open"),
]  # fmt: skip


@pytest.mark.parametrize("who, method, path, body, status, error, detail", BAD_REQUESTS)
def test_every_bad_request_gets_a_readable_4xx(who, method, path, body, status, error, detail):
    tournament, players = open_tournament("swiss", 3)
    client = {
        "host": client_for(tournament.organiser),
        "player": client_for(players[0].user),
        "spectator": client_for(),
    }[who]
    url = "/api/tournaments/" + path.format(t=tournament.slug)
    if method == "get":
        response = client.get(url)
    elif isinstance(body, str):
        response = client.post(url, body, content_type="application/json")
    else:
        response = client.post(url, body, format="json")
    assert response.status_code == status, response.content
    assert response.json()["error"] == error
    assert detail in response.json()["detail"]


def test_a_taken_slug_and_a_malformed_field_name_the_field():
    tournament, _ = open_tournament("swiss", 2)
    body = {
        "name": "Again",
        "slug": tournament.slug,
        "game": "high_card",
        "format": "swiss",
        "capacity": "lots",
    }
    response = client_for(tournament.organiser).post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "slug": ["the slug 'swiss-cup' is taken"],
        "capacity": ["A valid integer is required."],
    }
    assert Tournament.objects.count() == 1


def detail_queries(client: APIClient, slug: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/api/tournaments/{slug}/").status_code == 200
    return len(queries)


def test_the_detail_endpoint_costs_a_fixed_few_queries_however_many_matches_and_games():
    tournament, stage, _ = started("single_elimination", 8, online=True)
    client = client_for()
    first = detail_queries(client, tournament.slug)
    organiser = client_for(tournament.organiser)
    for match in stage.matches.filter(round__number=1):
        post(
            organiser,
            f"/api/tournaments/{tournament.slug}/matches/{match.code}/result",
            {"winner": match.home_id},
        )
    assert stage.matches.filter(match_games__isnull=False).distinct().count() == 6
    assert detail_queries(client, tournament.slug) == first <= 8
