"""Issue 14, finding 3 through the API: an extra field in a move is refused and never stored,
and a move body over 16 KB is a 413 before any engine sees it."""

import pytest

from games.models import GameEvent, GameSession
from tests.games.hosting_helpers import claim, create_game, organiser_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(django_user_model):
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, "color_clash", 2)
    players = [claim(game_id, 0), claim(game_id, 1)]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    mover = next(p for p in players if p.legal(game_id))
    return game_id, mover


def test_a_move_with_a_made_up_field_is_refused_and_not_logged(running):
    game_id, mover = running
    action = mover.legal(game_id)[0]
    response = mover.act(game_id, {**action, "junk": "x" * 1000})
    assert response.status_code == 400
    assert response.json()["error"] == "illegal_action"
    assert response.json()["detail"] == f"unexpected field(s) junk in a {action['type']!r}"
    assert not GameEvent.objects.exists()
    assert mover.act(game_id, action).status_code == 200  # the same move without it is played
    assert GameEvent.objects.get().action == action


@pytest.mark.parametrize("junk", [16 * 1024, 2 * 1024 * 1024], ids=["16KB", "2MB"])
def test_a_move_body_over_16_kb_is_a_413(running, junk):
    game_id, mover = running
    response = mover.act(game_id, {**mover.legal(game_id)[0], "junk": "x" * junk})
    assert response.status_code == 413
    assert response.json() == {
        "error": "payload_too_large",
        "detail": "the request body is larger than 16 KB",
    }
    assert GameSession.objects.get(pk=game_id).version == 0
