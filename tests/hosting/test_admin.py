"""The Django admin shows rows but never writes around the services, and is no oracle on
hidden state: secret fields cannot be filtered on, and a running game's seed and state are
on no admin page."""

import json

import pytest
from django.contrib import admin
from django.urls import reverse

from games.models import GameSession, Seat
from games.rooms import services as rooms
from hosting.core.identity import Guest
from tests.tournaments.builders import started
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db

# The hidden state of a running game, and sealed answers before their reveal.
SECRETS = {
    "games.gamesession": ["seed", "effective_seed", "state"],
    "games.seat": ["token_sha256", "guest_id"],
    "games.roommember": ["guest_id"],
    "games.gameevent": ["action", "events"],
    "tournaments.sealedsubmission": ["text"],
}


def paths_to_secrets(model, hops: int = 2, prefix: str = "") -> list[str]:
    """Every lookup that reaches a secret field from ``model`` through up to ``hops``
    relations, forward or reverse: ``game__seed__startswith``, ``seats__token_sha256__gt``."""
    found = [f"{prefix}{name}" for name in SECRETS.get(model._meta.label_lower, [])]
    if hops:
        for field in model._meta.get_fields():
            if field.is_relation and field.related_model is not None:
                # A reverse relation's name is the one lookups use (``seats``, ``log``).
                found += paths_to_secrets(field.related_model, hops - 1, f"{prefix}{field.name}__")
    return found


@pytest.fixture
def boss(client, django_user_model):
    person = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client.force_login(person)
    return person


@pytest.fixture
def live_final():
    """A 2-player online bracket: W1.1 is being played as a hosted game."""
    tournament, stage, _ = started("single_elimination", 2, online=True)
    match = stage.matches.get(code="W1.1")
    game = match.match_games.get().game
    assert game.status == "running" and game.state
    return tournament, match, game


def changelists() -> list[str]:
    return [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in admin.site._registry
    ]


def test_no_changelist_answers_a_lookup_on_a_secret_field(client, boss, live_final):
    tried = 0
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for path in paths_to_secrets(model):
            for lookup in ("startswith=5", "isnull=False"):
                response = client.get(f"{url}?{path}__{lookup}")
                assert response.status_code == 400, (url, path, lookup, response.status_code)
                tried += 1
        assert client.get(url).status_code == 200, url
    assert tried > 100
    game_list = reverse("admin:games_gamesession_changelist")
    assert client.get(f"{game_list}?state__hands__0__icontains=1").status_code == 400
    assert client.get(f"{game_list}?status__exact=running").status_code == 200  # filters work


def test_a_running_games_seed_and_state_are_on_no_admin_page(client, boss, live_final):
    tournament, match, game = live_final
    seat = game.seats.first()
    Seat.objects.filter(pk=seat.pk).update(token_sha256="f" * 64)
    pages = [
        *changelists(),
        reverse("admin:games_gamesession_change", args=[game.pk]),
        reverse("admin:games_seat_change", args=[seat.pk]),
        reverse("admin:tournaments_match_change", args=[match.pk]),
        reverse("admin:tournaments_matchgame_change", args=[match.match_games.get().pk]),
        reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
    ]
    state = json.dumps(game.state)
    hand = json.dumps(game.state["hands"][0]) if "hands" in game.state else state
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert game.seed not in html and game.effective_seed not in html, url
        assert state not in html and hand not in html, url
        assert "f" * 64 not in html, url  # the seat token's hash
    events = client.get(reverse("admin:games_gameevent_changelist")).content.decode()
    assert "0 game events" in events  # the log of a running game is not listed


def test_results_seeds_statuses_and_tokens_are_read_only(client, boss, live_final):
    tournament, match, game = live_final
    entrant = tournament.entrants.first()
    for name, pk, field in [
        ("tournaments_match", match.pk, "winner"),
        ("tournaments_entrant", entrant.pk, "seed"),
        ("tournaments_tournament", tournament.pk, "status"),
        ("games_gamesession", game.pk, "status"),
        ("games_seat", game.seats.first().pk, "token_sha256"),
    ]:
        url = reverse(f"admin:{name}_change", args=[pk])
        html = client.get(url).content.decode()
        assert f'name="{field}"' not in html, name
        assert client.post(url, {field: "1"}).status_code == 403, name
    for name in ["tournaments_auditentry", "tournaments_ledgerentry", "tournaments_match"]:
        assert client.get(reverse(f"admin:{name}_add")).status_code == 403, name
    match.refresh_from_db()
    assert match.status == "live" and match.winner is None


def test_an_admin_action_records_a_result_through_the_service(client, boss):
    _, stage, _ = started("single_elimination", 4)
    first = stage.matches.get(code="W1.1")
    changelist = reverse("admin:tournaments_match_changelist")
    response = client.post(
        changelist, {"action": "away_wins", "_selected_action": [first.pk], "index": 0}
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == "finished" and first.winner == first.away
    entry = AuditEntry.objects.get(action="tournaments.match.result_entered")
    assert entry.actor == boss and entry.data["match"] == "W1.1"
    # The next match is filled by the same path as any result.
    final = stage.matches.get(code="W2.1")
    assert final.home == first.away or final.away == first.away or final.status == "pending"


def test_an_admin_action_is_refused_with_the_services_reason(client, boss):
    _, stage, _ = started("single_elimination", 4)
    for code in ["W1.1", "W1.2"]:
        match = stage.matches.get(code=code)
        client.post(
            reverse("admin:tournaments_match_changelist"),
            {"action": "home_wins", "_selected_action": [match.pk], "index": 0},
        )
    Match.objects.filter(stage=stage, code="W2.1").update(status="live")
    first = stage.matches.get(code="W1.1")
    response = client.post(
        reverse("admin:tournaments_match_changelist"),
        {"action": "away_wins", "_selected_action": [first.pk], "index": 0},
        follow=True,
    )
    assert "W2.1 already started" in response.content.decode()
    first.refresh_from_db()
    assert first.winner == first.home  # unchanged
    assert not GameSession.objects.exists()


def test_a_sealed_answer_is_not_shown_before_the_reveal(client, boss):
    from datetime import timedelta

    from django.utils import timezone

    from tests.tournaments.builders import open_tournament
    from tournaments.seasons import services as seasons

    tournament, cast = open_tournament("genius", 3)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    deadline = timezone.now() + timedelta(hours=1)
    seasons.sealed_open(episode=episode, by=tournament.organiser, prompt="1-10?", deadline=deadline)
    answer = seasons.sealed_submit(
        episode=episode, entrant=cast[0], by=cast[0].user, text="seven-and-a-half"
    )
    page = client.get(reverse("admin:tournaments_sealedsubmission_change", args=[answer.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "seven-and-a-half" not in html and "sealed until the organiser reveals" in html


def test_a_room_with_members_has_a_change_page_and_a_list_page(client, boss):
    """Issue 30, finding 3: a member's join time (never edited) made the change page a 500."""
    host = rooms.Person(user=boss)
    room = rooms.room_create(person=host)
    rooms.room_join(code=room.code, person=rooms.Person(guest=Guest(id="g1", name="Gus")))
    change = client.get(reverse("admin:games_room_change", args=[room.pk]))
    assert change.status_code == 200
    page = change.content.decode()
    assert "Gus" in page and "boss" in page
    listing = client.get(reverse("admin:games_room_changelist"))
    assert listing.status_code == 200 and room.code in listing.content.decode()
