"""Who may steer a game (issue 30, finding 1): start, void, pause or resume it. Its creator,
the organisers of *its* tournament, or a staff admin; an organiser of anything else is as
much a stranger as any player. A tournament game in its seed window is never started early."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import GameSession
from hosting.core.errors import Forbidden
from hosting.core.roles import ORGANISER, STAFF_ADMIN, grant
from tests.games.hosting_helpers import claim, create_game
from tests.tournaments.builders import started

pytestmark = pytest.mark.django_db


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def person(django_user_model, name: str, *roles: str):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-123")
    for role in roles:
        grant(user, role)
    return user


def test_an_organiser_cannot_start_another_organisers_game(organiser, engine, django_user_model):
    game_id = create_game(organiser, "high_card", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    rival = client_of(person(django_user_model, "rival", ORGANISER))
    anonymous = APIClient()
    for stranger in (rival, players[0].client, anonymous):
        refused = stranger.post(f"/api/games/{game_id}/start")
        assert refused.status_code == 403, refused.content
        assert refused.json()["error"] == "permission_denied"
        assert "creator, the organisers of its tournament" in refused.json()["detail"]
    assert GameSession.objects.get(pk=game_id).status == "waiting"  # nothing dealt
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200


def test_a_staff_admin_starts_a_game_whose_creator_is_gone(organiser, engine, django_user_model):
    game_id = create_game(organiser, "high_card", 2)
    claim(game_id, 0), claim(game_id, 1)
    GameSession.objects.filter(pk=game_id).update(created_by=None)  # e.g. the account deleted
    refused = organiser.post(f"/api/games/{game_id}/start")
    assert refused.status_code == 403
    staff = client_of(person(django_user_model, "referee", STAFF_ADMIN))
    answer = staff.post(f"/api/games/{game_id}/start")
    assert answer.status_code == 200 and answer.json()["status"] == "running"


def page_of(user, game_id: int) -> str:
    browser = Client()
    browser.force_login(user)
    return browser.get(f"/games/{game_id}/").content.decode()


def test_the_game_page_offers_the_start_only_to_who_may(engine, django_user_model):
    creator = person(django_user_model, "creator", ORGANISER)
    game_id = create_game(client_of(creator), "high_card", 2)
    claim(game_id, 0), claim(game_id, 1)
    rival = person(django_user_model, "rival", ORGANISER)
    assert 'data-may-start="1"' in page_of(creator, game_id)
    assert 'data-may-start=""' in page_of(rival, game_id)


def test_the_organiser_of_its_tournament_steers_a_game_and_no_other(django_user_model):
    tournament, stage, _ = started("single_elimination", 4, online=True)
    games = [link.game for match in stage.matches.all() for link in match.match_games.all()]
    assert len(games) == 2 and all(game.status == "running" for game in games)
    # Its tournament's organiser steers it even where another account created it.
    GameSession.objects.filter(pk__in=[g.pk for g in games]).update(created_by=None)
    rival = person(django_user_model, "rival", ORGANISER)
    player = games[0].seats.get(number=0).user
    for stranger in (rival, player):
        with pytest.raises(Forbidden):
            services.game_void(game_id=games[0].pk, reason="not theirs", by=stranger)
        with pytest.raises(Forbidden):
            services.game_pause(game_id=games[0].pk, by=stranger)
    assert GameSession.objects.get(pk=games[0].pk).status == "running"
    services.game_pause(game_id=games[0].pk, by=tournament.organiser)
    assert services.game_resume(game_id=games[0].pk, by=tournament.organiser) >= 0
    assert services.game_void(game_id=games[0].pk, reason="organiser", by=tournament.organiser)
    staff = person(django_user_model, "referee", STAFF_ADMIN)
    assert services.game_void(game_id=games[1].pk, reason="staff", by=staff)


def test_a_tournament_game_in_its_seed_window_is_not_started_early(django_user_model):
    tournament, stage, _ = started("single_elimination", 2, online=True, seed_window_seconds=60)
    game = stage.matches.get(code="W1.1").match_games.get().game
    assert game.status == "waiting" and game.next_deadline is not None
    rival = client_of(person(django_user_model, "rival", ORGANISER))
    assert rival.post(f"/api/games/{game.pk}/start").status_code == 403
    refused = client_of(tournament.organiser).post(f"/api/games/{game.pk}/start")
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"] == "seed_window"
    assert "client seeds" in refused.json()["detail"]
    game.refresh_from_db()
    assert game.status == "waiting" and game.state is None and not game.effective_seed
    assert 'data-may-start=""' in page_of(tournament.organiser, game.pk)
