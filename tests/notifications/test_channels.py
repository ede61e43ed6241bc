"""Each channel says a notice once, to the right reader: the site (the bell's count), e-mail in
the reader's language and zone with an unsubscribe link that needs no login, and a
tournament's Discord channel, which hears only public notices and no private fact."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.models import GameSession
from notifications import services
from notifications.models import Kind, Notice, Reader
from tests.games.hosting_helpers import celery_worker, wait_for
from tests.tournaments.builders import open_tournament
from tests.tournaments.webhook_receiver import receiver
from tournaments import services as tournament_services
from tournaments.models import Match, WebhookDelivery
from tournaments.webhooks import services as webhooks

pytestmark = pytest.mark.django_db(transaction=True)
WHEN = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
ABOUT = services.About(key="episode:3", label="Ilha · episódio 3", url="/tournaments/ilha/")


def test_an_email_in_the_readers_language_and_zone_with_a_working_unsubscribe(player, settings):
    settings.NOTIFY_EMAIL_BATCH_SECONDS = 0
    Reader.objects.create(user=player, zone="America/Sao_Paulo", language="pt-br")
    services.notify(player, Kind.DEADLINE_1H, ABOUT, WHEN)
    services.notify(player, Kind.MATCH_READY, ABOUT)
    assert services.email_batch(user_id=player.pk) == 2  # one e-mail for both
    assert services.email_batch(user_id=player.pk) == 0
    (message,) = mail.outbox
    # Django's own Portuguese for the date, in the reader's zone, with the zone's name:
    # 20:00 UTC is 17:00 in São Paulo.
    assert "6 de Dezembro de 2026 às 17:00 (America/Sao_Paulo)" in message.body
    link = re.search(r"https?://\S+/notifications/unsubscribe/\S+/", message.body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    path = link.split("://", 1)[1].split("/", 1)[1]
    anonymous = Client()
    assert anonymous.get(f"/{path}").status_code == 200  # a page with one button, no login
    assert anonymous.post(f"/{path}").status_code == 200
    assert Reader.objects.get(user=player).email_off
    services.notify(player, Kind.INVITATION, ABOUT)
    assert services.email_batch(user_id=player.pk) == 0
    assert len(mail.outbox) == 1
    assert anonymous.post("/notifications/unsubscribe/forged:token/").status_code == 404


def test_the_bell_counts_unread_notices_and_the_page_reads_them(player):
    services.notify(player, Kind.MATCH_READY, ABOUT)
    services.notify(player, Kind.MATCH_READY, ABOUT)  # the same key: told once
    client = Client()
    client.force_login(player)
    page = client.get("/").content.decode()
    assert re.search(r'class="bell-count"\s*>1<', page)
    listing = client.get("/notifications/").content.decode()
    assert "Ilha · episódio 3" in listing
    client.post("/notifications/")
    assert services.unread_count(player) == 0


@pytest.fixture
def worker(redis_url, celery_queue):
    with celery_worker(celery_queue):
        yield


@override_settings(WEBHOOK_DISCORD_HOSTS=("127.0.0.1",))
def test_discord_hears_public_notices_only_and_no_private_fact(worker):
    tournament, players = open_tournament("single_elimination", 2, online=True)
    with receiver() as site:
        url = f"{site.url}/api/webhooks/1/token"
        endpoint = webhooks.endpoint_create(
            tournament=tournament, by=tournament.organiser, url=url, events=["notice.public"]
        )
        endpoint.language = "pt-br"
        endpoint.save()
        tournament_services.stage_start(tournament=tournament, by=tournament.organiser)
        assert wait_for(lambda: site.at("/api/webhooks/1/token"), 15)
        (message,) = site.at("/api/webhooks/1/token")
    # Each player was told on the site that the pairings are out, their match is ready and
    # its hosted game has started.
    for entrant in players:
        kinds = set(Notice.objects.filter(user=entrant.user).values_list("kind", flat=True))
        assert kinds == {Kind.PAIRINGS, Kind.MATCH_READY, Kind.GAME_STARTED}
    # The channel got one message: the public one (the pairings), not the private ones.
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.payload["data"]["notice"] == {
        "kind": Kind.PAIRINGS,
        "label": tournament.name,
        "when": None,
    }
    assert message.json["allowed_mentions"] == {"parse": []}
    assert tournament.name in message.json["content"]
    # Nothing of the running game's hidden state: its seed, any hand, any seat token.
    match = Match.objects.get(stage__tournament=tournament)
    game = GameSession.objects.get(pk=match.match_games.get().game_id)
    sent = json.dumps(message.json) + json.dumps(delivery.payload)
    assert game.seed.hex() not in sent if isinstance(game.seed, bytes) else game.seed not in sent
    for seat, hand in enumerate(game.state.get("hands", [])):
        for card in hand:
            assert f'"{card}"' not in sent, (seat, card)
    assert "hands" not in sent and "seed" not in sent


def test_a_challenge_tells_the_challenged_player(player, django_user_model):
    from games.challenges import services as challenges

    bruno = django_user_model.objects.create_user("bruno", password="pw-player-456")
    challenges.challenge_send(challenger=bruno, username="ana", engine="color_clash")
    notice = Notice.objects.get(user=player)
    assert notice.kind == Kind.INVITATION and "bruno" in notice.label
    assert notice.url == "/challenges/"


def test_the_cast_is_told_when_the_ec_picks_a_dmo():
    from tests.e2e.test_disputes import death_match_under_way

    season, _match, _game, ec, dmo = death_match_under_way()
    told = Notice.objects.filter(kind=Kind.DMO_CHOSEN)
    assert {n.user_id for n in told} >= {ec.user_id, dmo.user_id}
    assert all(n.label == f"{season.name} · 1" for n in told)


def test_a_long_games_idle_move_is_told_once(clock, settings):
    from games import notices as game_notices
    from games import services as game_services
    from games.services import SeatSpec
    from tests.games.hosting_helpers import register_tiny
    from tests.tournaments.builders import user

    register_tiny()
    settings.NOTIFY_IDLE_TURN_MINUTES = 30
    people = [user("ana"), user("bruno")]
    game = game_services.game_create(
        engine_key="high_card",
        seats=[SeatSpec(), SeatSpec()],
        time_control={"allowances": {"turn": 3600.0}},
    )
    for seat, person in zip(game.seats.order_by("number"), people, strict=True):
        seat.user = person
        seat.save(update_fields=["user"])
    game_services.game_start(game_id=game.pk, by=None)
    started = Notice.objects.filter(kind=Kind.GAME_STARTED)
    assert {n.user_id for n in started} == {p.pk for p in people}  # told at once
    assert game_notices.tell_idle_turns(game_services.now()) == 0
    clock.advance(31 * 60)
    assert game_notices.tell_idle_turns(game_services.now()) >= 1
    assert game_notices.tell_idle_turns(game_services.now()) == 0  # once per move
    assert Notice.objects.filter(kind=Kind.YOUR_TURN).exists()
