"""A leak scan: a handout's text, a private transfer, a confessional entry and a private rule
question appear in no page, API answer, live (SSE) message, notification signal, export,
webhook payload or admin list of anyone but their owners and the hosts.

The season is played for real (services, the pages' and the API's own clients, Redis
pub/sub, the webhooks' deliveries as queued); each secret is a unique marker, and every
answer every other viewer can get is searched for it. The test fails if one is found.
"""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings
from django.test import Client

from hosting.core import broadcast
from tests.tournaments.builders import open_tournament, staff_admin
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments import selectors
from tournaments.events import tournament_event
from tournaments.models import LedgerEntry, WebhookDelivery
from tournaments.seasons import confessionals, handouts, questions, transfers
from tournaments.seasons import services as seasons
from tournaments.seasons.signals import rules_changed
from tournaments.webhooks import services as webhooks

pytestmark = pytest.mark.django_db

HANDOUT = "HANDOUT-7f3a-the-vault-opens-at-dawn"
TRANSFER = "TRANSFER-9b1c-for-our-secret-alliance"
CONFESSION = "CONFESSION-2d8e-I-will-betray-p1"
QUESTION = "QUESTION-5e6f-may-I-hide-a-card"
ANSWER = "ANSWER-0a4b-only-in-episode-two"
FILE = "FILE-3c9d-the-map-of-the-vault"


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    if response.streaming:  # an SSE stream: its messages are scanned from Redis below
        return ""
    return response.content.decode(errors="replace")


def _urls(slug: str, users: list) -> list[str]:
    pages = [
        "/",
        "/tournaments/",
        "/tournaments/mine/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/board",
        f"/tournaments/{slug}/entrants",
        f"/tournaments/{slug}/embed",
        f"/tournaments/{slug}/rules",
        f"/tournaments/{slug}/desk",
        f"/tournaments/{slug}/lounge",
        "/audit/",
        *[f"/u/{user.get_username()}/" for user in users],
    ]
    api = [
        "/api/tournaments/",
        f"/api/tournaments/{slug}/",
        f"/api/tournaments/{slug}/standings",
        f"/api/tournaments/{slug}/audit",
        f"/api/tournaments/{slug}/export.json",
        *[
            f"/api/tournaments/{slug}/export.csv?table={table}"
            for table in ("entrants", "matches", "standings")
        ],
        f"/api/tournaments/{slug}/episodes/1/submissions",
        f"/api/tournaments/{slug}/transfers",
        f"/api/tournaments/{slug}/questions",
        f"/api/tournaments/{slug}/rules",
        f"/api/tournaments/{slug}/handouts",
        f"/api/tournaments/{slug}/confessionals",
        f"/api/tournaments/{slug}/lounge",
        "/api/audit/",
    ]
    return pages + api


def test_hidden_season_texts_reach_nobody_but_their_owners_and_the_hosts(
    django_capture_on_commit_callbacks,
):
    tournament, cast = open_tournament(
        "genius",
        6,
        format_options=RULES
        | {
            "transfer_visibility": "choice",
        },
    )
    host = tournament.organiser
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    listener.psubscribe(f"{broadcast.namespace()}*")
    signals: list[str] = []

    def heard(**kwargs):
        signals.append(json.dumps(kwargs, default=str))

    tournament_event.connect(heard, dispatch_uid="leak-scan")
    rules_changed.connect(heard, dispatch_uid="leak-scan")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            webhooks.endpoint_create(
                tournament=tournament,
                by=host,
                url="http://127.0.0.1/",
                events=["tournament.started", "match.ready", "match.result"],
            )
            episode = seasons.season_start(tournament=tournament, by=host)
            seasons.ledger_record(
                tournament=tournament,
                by=host,
                kind="award",
                entrant=cast[1].pk,
                amount=9,
                reason="prize",
            )
            handout = handouts.give(
                tournament=tournament,
                by=host,
                recipients=[cast[0].pk],
                title="Tip",
                text=HANDOUT,
                file=("map.txt", "text/plain", FILE.encode()),
            )
            transfers.offer(
                tournament=tournament,
                by=cast[1].user,
                sender=cast[1],
                receiver=cast[2],
                amount=4,
                reason=TRANSFER,
                private=True,
            )
            confessionals.write(
                tournament=tournament, by=cast[3].user, entrant=cast[3], text=CONFESSION
            )
            asked = questions.ask(
                tournament=tournament, by=cast[4].user, entrant=cast[4], text=QUESTION
            )
            questions.answer(question=asked, by=host, text=ANSWER)
            questions.rules_edit(tournament=tournament, by=host, text="Rules.", change="v1")
            play_episode(tournament, episode)  # cast[5] is eliminated: the lounge opens
    finally:
        tournament_event.disconnect(dispatch_uid="leak-scan")
        rules_changed.disconnect(dispatch_uid="leak-scan")

    owners = {
        FILE: {cast[0].user_id},
        HANDOUT: {cast[0].user_id},
        TRANSFER: {cast[1].user_id, cast[2].user_id},
        CONFESSION: {cast[3].user_id},
        QUESTION: {cast[4].user_id},
        ANSWER: {cast[4].user_id},
    }
    users = [entrant.user for entrant in cast]
    leaks: list[str] = []
    urls = [
        *_urls(tournament.slug, users),
        f"/tournaments/{tournament.slug}/handouts/{handout.pk}/file",
    ]
    viewers = [None, *users]
    for viewer in viewers:
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        for url in urls:
            text = _get(client, url)
            for secret, allowed in owners.items():
                if secret in text and (viewer is None or viewer.pk not in allowed):
                    leaks.append(f"{secret[:10]} in {url} for {viewer or 'a spectator'}")
    # The hosts do see them (the scan would be vacuous otherwise).
    desk = _get(_client_for(host), f"/tournaments/{tournament.slug}/desk")
    assert all(secret in desk for secret in owners if secret != FILE), "the hosts see them"
    download = _get(
        _client_for(cast[0].user), f"/tournaments/{tournament.slug}/handouts/{handout.pk}/file"
    )
    assert FILE in download, "the recipient downloads the attachment"
    # Live messages, webhook payloads and the signals (what notifications hear).
    messages = []
    while (message := listener.get_message(timeout=0.2)) is not None:
        messages.append(str(message.get("data")))
    listener.close()
    assert messages, "the season's changes were published live"
    payloads = [json.dumps(d.payload) for d in WebhookDelivery.objects.all()]
    assert payloads, "the season's events were queued for the webhook"
    for where, texts in (("SSE", messages), ("webhook", payloads), ("signal", signals)):
        for text in texts:
            leaks += [f"{secret[:10]} in a {where} message" for secret in owners if secret in text]
    # The admin lists (a staff admin may open one row; no list shows the text).
    admin = _client_for(staff_admin(), staff=True)
    for model in ("handout", "confessional", "garnettransfer", "rulequestion", "ledgerentry"):
        listed = admin.get(f"/admin/tournaments/{model}/")
        assert listed.status_code == 200, model
        text = listed.content.decode()
        leaks += [f"{secret[:10]} in the {model} admin list" for secret in owners if secret in text]
    assert not leaks, "hidden information leaked:\n" + "\n".join(leaks)


def _client_for(user, *, staff: bool = False) -> Client:
    if staff:
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(user)
    return client


def test_a_settlement_that_would_tell_a_private_transfers_amount_is_private():
    """The receiver of a private transfer is eliminated: the settlement of their whole
    balance would show the amount, so it is private; the public board does not show it."""
    tournament, cast = open_tournament(
        "genius", 6, format_options=RULES | {"transfer_visibility": "private"}
    )
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    seasons.ledger_record(
        tournament=tournament, by=host, kind="award", entrant=cast[0].pk, amount=7, reason="x"
    )
    transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[5], amount=4
    )
    play_episode(tournament, episode)  # the bottom seed (cast[5]) is eliminated
    settlement = LedgerEntry.objects.get(reason__startswith="eliminated")
    assert settlement.private and settlement.amount == 4
    board = selectors.board(tournament)["season"]
    assert all(not entry.private for entry in board["ledger"])
    assert all(row["garnets"] >= 0 for row in board["cast"])
