"""Exports: a tournament's public record as JSON and CSV, never a running game's secrets."""

from __future__ import annotations

import csv
import io
import json

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from games.models import GameSession
from hosting.core.roles import ORGANISER
from tests.games.hosting_helpers import FakeClock
from tests.tournaments.builders import open_tournament, started, user
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr("games.services.core.now", fake)
    return fake


def play_out(game: GameSession, clock: FakeClock, callbacks) -> None:
    with callbacks(execute=True):
        while GameSession.objects.get(pk=game.pk).status == "running":
            clock.advance(11)
            game_services.enforce_deadline(game_id=game.pk)


def rows(answer) -> list[dict[str, str]]:
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def test_the_json_export_has_everything_public_and_no_running_games_secret(
    clock, django_capture_on_commit_callbacks
):
    # a level game goes to the better seed: the one game played decides W1.1 on any deal
    ruleset = {"undecided": "higher_seed"}
    tournament, stage, _ = started("single_elimination", 4, online=True, ruleset=ruleset)
    ended = stage.matches.get(code="W1.1").match_games.get().game
    running = stage.matches.get(code="W1.2").match_games.get().game
    play_out(ended, clock, django_capture_on_commit_callbacks)

    answer = APIClient().get(f"/api/tournaments/{tournament.slug}/export.json")
    assert answer.status_code == 200
    export = answer.json()
    assert export["tournament"]["slug"] == tournament.slug
    assert [e["name"] for e in export["entrants"]] == ["p1", "p2", "p3", "p4"]
    codes = {m["code"]: m for m in export["matches"]}
    assert codes["W1.1"]["status"] == "finished" and codes["W1.2"]["status"] == "live"
    assert export["standings"]["standings"] and export["standings"]["regulations"]
    games = {g["game"]: g for g in export["games"]}
    assert set(games) == {ended.pk, running.pk}
    finished = games[ended.pk]
    assert finished["seed"] == GameSession.objects.get(pk=ended.pk).seed and finished["log"]
    live = games[running.pk]
    assert live["log"] is None and "seed" not in live and "seed" not in live["spectator_view"]
    assert "hand" not in live["spectator_view"]["view"]
    secret = GameSession.objects.get(pk=running.pk)
    text = json.dumps(export)
    assert secret.seed not in text
    for hand in secret.state["hands"]:
        assert json.dumps({"hand": hand})[1:-1] not in text


def test_the_csv_tables_and_their_errors():
    tournament, _ = open_tournament("round_robin", 3)
    services.entrant_register(
        tournament=tournament, user=user("mallory"), display_name="=HYPERLINK(1)"
    )
    services.seeding_apply(tournament=tournament, by=tournament.organiser, method="rating")
    services.stage_start(tournament=tournament, by=tournament.organiser)
    client = APIClient()
    url = f"/api/tournaments/{tournament.slug}/export.csv"

    entrants = rows(client.get(url, {"table": "entrants"}))
    assert [e["name"] for e in entrants][:3] == ["p1", "p2", "p3"]
    assert "'=HYPERLINK(1)" in [e["name"] for e in entrants]  # never run as a formula
    matches = rows(client.get(url, {"table": "matches"}))
    assert len(matches) == 6 and {m["code"] for m in matches} >= {"R1.1", "R3.2"}
    assert list(matches[0])[:4] == ["stage", "bracket", "round", "code"]
    standings = rows(client.get(url, {"table": "standings"}))
    assert {"rank", "name"} <= set(standings[0]) and len(standings) == 4

    for query, detail in (
        ({"table": "secrets"}, "no table 'secrets': choose one of entrants, matches, standings"),
        ({}, "say which table: ?table=entrants|matches|standings"),
    ):
        refused = client.get(url, query, HTTP_ACCEPT="text/csv")
        assert refused.status_code == 400
        assert refused.json() == {"error": "invalid", "detail": detail}


def test_a_draft_is_not_exported_to_strangers():
    host = user("host", ORGANISER)
    services.tournament_create(
        organiser=host, name="Draft", slug="draft", game="high_card", format="round_robin"
    )
    for path in ("export.json", "export.csv?table=entrants"):
        assert APIClient().get(f"/api/tournaments/draft/{path}").status_code == 404
    owner = APIClient()
    owner.force_authenticate(host)
    assert owner.get("/api/tournaments/draft/export.json").status_code == 200
