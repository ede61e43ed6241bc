"""A hosted game through the HTTP API alone: seats, actions, refusals, clocks, fair play."""

import pytest
from django.contrib.sessions.models import Session
from rest_framework.test import APIClient

from games.models import GameEvent, GameSession
from tests.games.hosting_helpers import (
    bot_client,
    claim,
    create_game,
    invite,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(organiser, engine, clock):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    response = organiser.post(f"/api/games/{game_id}/start")
    assert response.status_code == 200, response.content
    return game_id, players


def test_two_players_finish_a_game_through_the_api_alone(started, clock, engine):
    game_id, players = started
    state = players[0].state(game_id)
    assert len(state["seed_sha256"]) == 64 and "seed" not in state
    while state["status"] == "running":
        acted = False
        for player in players:
            legal = player.legal(game_id)
            if legal:
                response = player.act(game_id, legal[0], client_action_id=f"{state['version']}")
                assert response.status_code == 200, response.content
                acted = True
        if not acted:
            clock.advance(1.01)  # the applause window closes on the next read
        state = players[0].state(game_id)
    assert state["status"] == "finished"
    assert state["outcome"]["winners"]
    verified = players[1].client.get(f"/api/games/{game_id}/verify").json()
    assert verified["verified"] is True and verified["seed"] == state["seed"]
    log = players[1].client.get(f"/api/games/{game_id}/log").json()["log"]
    assert [e["seq"] for e in log] == list(range(1, state["version"] + 1))


def test_a_seat_sees_its_own_hand_and_nobody_elses(started, engine):
    game_id, players = started
    game = GameSession.objects.get(pk=game_id)
    for player in players:
        view = player.state(game_id)["view"]
        assert view == engine.view(game.state, player.seat)
    spectator = bot_client("no-such-token").get(f"/api/games/{game_id}/").json()
    assert "hand" not in spectator["view"] and "legal" not in spectator
    first, second = (player.state(game_id) for player in players)
    assert first["legal"] == engine.legal_actions(game.state, 0) and first["legal"]
    assert second["legal"] == []  # not its turn


def test_a_repeated_client_action_id_returns_the_first_answer(started):
    game_id, players = started
    card = players[0].legal(game_id)[0]
    first = players[0].act(game_id, card, client_action_id="abc")
    again = players[0].act(game_id, card, client_action_id="abc")
    assert first.status_code == again.status_code == 200
    assert again.json()["repeated"] is True
    assert again.json()["version"] == first.json()["version"] == 1
    assert GameEvent.objects.filter(game_id=game_id).count() == 1


def test_a_stale_expected_version_is_a_409(started, clock):
    game_id, players = started
    players[0].act(game_id, players[0].legal(game_id)[0], expected_version=0)
    clock.advance(1.01)
    response = players[1].act(game_id, players[1].legal(game_id)[0], expected_version=0)
    assert response.status_code == 409
    assert response.json()["error"] == "stale_version"
    assert "version 2" in response.json()["detail"]


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "play", "card": 99}, "you do not hold that card"),
        ({"type": "dance"}, "unknown action"),
        ({"type": "timeout", "seats": [0]}, "applied by the server only"),
        ({"no_type": 1}, 'with a "type"'),
    ],
)
def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing(started, action, message):
    game_id, players = started
    before = GameSession.objects.get(pk=game_id)
    response = players[0].act(game_id, action)
    assert response.status_code == 400
    assert message in response.json()["detail"]
    after = GameSession.objects.get(pk=game_id)
    assert (after.version, after.state) == (before.version, before.state)


def test_acting_out_of_turn_is_refused(started):
    game_id, players = started
    card = players[1].state(game_id)["view"]["hand"][0]
    response = players[1].act(game_id, {"type": "play", "card": card})
    assert response.status_code == 400
    # the English sentence for people, and its code for pages that say it translated
    assert response.json() == {
        "error": "illegal_action",
        "detail": "it is not your turn",
        "refusal": "not_your_turn",
        "params": {},
    }


def test_nobody_can_act_for_another_seat(started):
    game_id, players = started
    stranger = bot_client("forged-token")
    response = stranger.post(
        f"/api/games/{game_id}/actions", {"action": {"type": "play", "card": 1}}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "you hold no seat in this game"
    by_token = bot_client(players[0].token)
    assert by_token.get(f"/api/games/{game_id}/").json()["seat"] == 0


def test_malformed_requests_are_400s(started):
    game_id, players = started
    response = players[0].client.post(
        f"/api/games/{game_id}/actions", "not json", content_type="application/json"
    )
    assert response.status_code == 400
    response = players[0].act(game_id, {"type": "play"}, expected_version=-3)
    assert response.status_code == 400
    assert "expected_version" in response.json()["fields"]
    for body, field in [
        ([{"type": "play"}], "non_field_errors"),
        ({"client_action_id": "a"}, "action"),
        ({"action": {"type": "play"}, "client_action_id": "x" * 65}, "client_action_id"),
        ({"action": {"type": "play"}, "expected_version": "1"}, "expected_version"),
        ({"action": {"type": "play"}, "expected_version": True}, "expected_version"),
    ]:
        response = players[0].client.post(f"/api/games/{game_id}/actions", body, format="json")
        assert response.status_code == 400, body
        assert field in response.json()["fields"], body
    response = players[0].act(game_id, "play")
    assert response.status_code == 400
    assert "JSON object" in response.json()["detail"]
    assert players[0].state(game_id)["version"] == 0


def test_the_log_and_the_seed_stay_secret_until_the_end(started):
    game_id, players = started
    assert players[0].client.get(f"/api/games/{game_id}/log").status_code == 409
    assert players[0].client.get(f"/api/games/{game_id}/verify").status_code == 409


def test_an_overdue_clock_is_applied_by_the_next_read(started, clock):
    game_id, players = started
    assert players[0].state(game_id)["clocks"]["0"]["allowance"] == 10.0
    clock.advance(10.5)
    state = players[1].state(game_id)
    assert state["version"] == 1  # seat 0 timed out: it played its lowest card
    event = GameEvent.objects.get(game_id=game_id, seq=1)
    assert event.seat is None and event.action == {"type": "timeout", "seats": [0]}


def test_seats_cannot_be_claimed_twice_or_after_the_start(organiser, engine, clock):
    game_id = create_game(organiser, "high_card", 2)
    body = {"invite": invite(game_id)}
    player = claim(game_id, 0)
    again = player.client.post(f"/api/games/{game_id}/seats/1/claim", body, format="json")
    assert again.status_code == 409 and "already hold a seat" in again.json()["detail"]
    taken = claim(game_id, 1).client.post(
        f"/api/games/{game_id}/seats/0/claim", body, format="json"
    )
    assert taken.status_code == 409
    organiser.post(f"/api/games/{game_id}/start")
    late = organiser.post(f"/api/games/{game_id}/seats/1/claim", body, format="json")
    assert late.status_code == 409


def test_a_bot_can_claim_by_token_alone_without_a_session(organiser, engine, clock):
    game_id = create_game(organiser, "high_card", 2)
    sessions = Session.objects.count()
    bot = APIClient()
    url = f"/api/games/{game_id}/seats/0/claim"
    refused = bot.post(url, {"credential": "cookie"}, format="json")
    assert refused.status_code == 400 and "credential" in refused.json()["fields"]
    claimed = bot.post(url, {"credential": "token", "invite": invite(game_id)}, format="json")
    assert claimed.status_code == 201
    assert Session.objects.count() == sessions and "sessionid" not in claimed.cookies
    # The seat is the bot's by its token; the client holds nothing else.
    assert bot.get(f"/api/games/{game_id}/").json()["seat"] is None
    browser = claim(game_id, 1)
    assert Session.objects.count() == sessions + 1
    organiser.post(f"/api/games/{game_id}/start")
    state = bot_client(claimed.json()["token"]).get(f"/api/games/{game_id}/").json()
    assert state["seat"] == 0 and browser.state(game_id)["seat"] == 1


def test_only_the_creator_starts_a_game_of_no_tournament(organiser, engine, django_user_model):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    other = django_user_model.objects.create_user("someone", password="pw-someone-123")
    signed_in = players[0].client
    signed_in.force_authenticate(other)
    for stranger in (players[1].client, signed_in):
        refused = stranger.post(f"/api/games/{game_id}/start")
        assert refused.status_code == 403 and "the game's creator" in refused.json()["detail"]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200


def test_only_organisers_create_games_and_bad_config_is_a_400(organiser, engine, client):
    response = client.post(
        "/api/games/", {"engine": "high_card", "seats": [{}, {}]}, content_type="application/json"
    )
    assert response.status_code == 403
    response = organiser.post(
        "/api/games/",
        {"engine": "high_card", "seats": [{}, {}], "config": {"hand_size": 99}},
        format="json",
    )
    assert response.status_code == 400 and "hand_size" in response.json()["detail"]
    response = organiser.post("/api/games/", {"engine": "chess", "seats": [{}]}, format="json")
    assert response.status_code == 400 and "unknown game" in response.json()["detail"]
    response = organiser.post(
        "/api/games/",
        {"engine": "high_card", "seats": [{}, {}], "time_control": {"reserve": -5}},
        format="json",
    )
    assert response.status_code == 400 and "reserve" in response.json()["detail"]


def test_computer_seats_are_labelled_and_play_through_the_same_service(organiser, engine, clock):
    from games import services

    response = organiser.post(
        "/api/games/",
        {"engine": "high_card", "seats": [{}, {"kind": "computer", "bot": "lowest"}]},
        format="json",
    )
    game_id = response.json()["game"]
    player = claim(game_id, 0)
    organiser.post(f"/api/games/{game_id}/start")
    state = player.state(game_id)
    assert state["seats"][1]["name"] == "Seat 2 (Computer)"
    assert services.bot_act(game_id=game_id, seat=1, version=0) is False  # not its turn
    player.act(game_id, player.legal(game_id)[0])
    clock.advance(1.01)
    version = player.state(game_id)["version"]
    assert services.bot_act(game_id=game_id, seat=1, version=version - 1) is False  # stale
    assert services.bot_act(game_id=game_id, seat=1, version=version) is True
    event = GameEvent.objects.get(game_id=game_id, seq=version + 1)
    game = GameSession.objects.get(pk=game_id)
    assert event.seat == 1 and event.action["card"] == game.state["table"][1][0]


def test_verify_game_command_confirms_a_finished_game(started, clock):
    from io import StringIO

    from django.core.management import CommandError, call_command

    game_id, players = started
    with pytest.raises(CommandError, match="once it has ended"):
        call_command("verify_game", game_id, stdout=StringIO())
    while players[0].state(game_id)["status"] == "running":
        clock.advance(10.5)  # every clock runs out in turn until the hands are empty
    out = StringIO()
    call_command("verify_game", game_id, "--json", stdout=out)
    assert '"verified": true' in out.getvalue()
    GameSession.objects.filter(pk=game_id).update(state={"tampered": True})
    with pytest.raises(CommandError, match="does NOT verify"):
        call_command("verify_game", game_id, stdout=StringIO())


def test_a_seat_holder_can_issue_a_bot_token_and_the_old_one_stops_working(started):
    game_id, players = started
    response = players[0].client.post(f"/api/games/{game_id}/token")
    assert response.status_code == 200
    fresh = response.json()["token"]
    assert bot_client(fresh).get(f"/api/games/{game_id}/").json()["seat"] == 0
    assert bot_client(players[0].token).get(f"/api/games/{game_id}/").json()["seat"] is None
    assert bot_client("nope").post(f"/api/games/{game_id}/token").status_code == 403


def test_a_move_costs_two_round_trips_on_postgresql(started, postgres_only):
    """A bot's move: the lock, the seats (its token's among them) and the repeat check; then
    the log entry and the game update. (The transaction's own statements are not counted.)
    Guards the move path against creeping queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game_id, players = started
    player = next(p for p in players if p.legal(game_id))
    action = player.legal(game_id)[0]
    bot = bot_client(player.token)
    with CaptureQueriesContext(connection) as captured:
        response = bot.post(
            f"/api/games/{game_id}/actions",
            {"action": action, "client_action_id": "once"},
            format="json",
        )
    assert response.status_code == 200, response.content
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(queries) == 2, [q[:80] for q in queries]
    assert GameEvent.objects.get(game_id=game_id, client_action_id="once").seq == 1


def test_a_credential_that_holds_no_seat_cannot_act(started, organiser):
    game_id, players = started
    action = {"type": "play", "card": 0}
    strangers = [bot_client("not-a-seat-token"), organiser]
    for stranger in strangers:
        response = stranger.post(f"/api/games/{game_id}/actions", {"action": action}, format="json")
        assert response.status_code == 403, response.content
        assert response.json()["detail"] == "you hold no seat in this game"
    response = bot_client("not-a-seat-token").post(
        "/api/games/999999/actions", {"action": action}, format="json"
    )
    assert response.status_code == 404
    assert players[0].state(game_id)["version"] == 0
