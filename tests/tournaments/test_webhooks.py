"""Organisers' webhooks: signed as Standard Webhooks says, sent by a real Celery worker after
the commit to a real HTTP receiver, retried with backoff, and never to a private address in
production."""

from __future__ import annotations

import base64
import ipaddress
import ssl
import subprocess

import pytest
from django.test import override_settings

from hosting.core.errors import Forbidden, UserError
from tests.games.hosting_helpers import celery_worker, wait_for
from tests.tournaments.builders import open_tournament, report_top_seed_wins, staff_admin, user
from tests.tournaments.webhook_receiver import expected_signature, receiver
from tournaments import services
from tournaments.events import EVENTS
from tournaments.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks import delivery, targets
from tournaments.webhooks import services as webhooks

# -- signing --------------------------------------------------------------------------------


def test_the_spec_known_answer_vector_signs_as_the_spec_says():
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    message_id, timestamp, body = "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}'
    signature = delivery.sign(secret, message_id, timestamp, body)
    assert signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    assert signature == expected_signature(secret, message_id, str(timestamp), body.encode())


def test_a_secret_is_whsec_and_the_base64_of_24_random_bytes():
    first, second = webhooks.new_secret(), webhooks.new_secret()
    assert first.startswith("whsec_") and first != second
    assert len(base64.b64decode(first.removeprefix("whsec_"), validate=True)) == 24


# -- addresses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/hook",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https:///no-host",
        "https://user:pw@example.org/hook",
        "http://[::1",
    ],
)
def test_only_http_urls_with_a_host_are_accepted(url):
    with pytest.raises(UserError):
        webhooks.check_url(url)


NAMES = {
    "localhost": ["127.0.0.1", "::1"],
    "metadata.example": ["169.254.169.254"],
    "intranet.example": ["10.0.0.1"],
    "split.example": ["93.184.215.14", "192.168.1.1"],  # one public answer, one private
    "public.example": ["93.184.215.14"],
}


@pytest.fixture(autouse=True)
def dns(monkeypatch):
    """Names resolve through the resolver seam, from this table: no test asks real DNS."""
    table = dict(NAMES)

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError(f"{host} does not resolve")
        return table[host]

    monkeypatch.setattr(targets, "resolver", resolve)
    return table


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.0.10", "private"),
        ("fd00::1", "private"),
        ("::ffff:10.0.0.1", "private"),
        ("2002:a00:1::", "private"),  # 6to4 around 10.0.0.1
        ("64:ff9b::a00:1", "private"),  # NAT64 around 10.0.0.1
        ("169.254.169.254", "link-local"),  # a cloud's metadata service
        ("fe80::1", "link-local"),
        ("::ffff:169.254.169.254", "link-local"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("240.0.0.1", "reserved"),
        ("100.64.0.1", "non-public"),  # carrier-grade NAT
        ("93.184.215.14", None),
        ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", None),
        ("::ffff:93.184.215.14", None),
    ],
)
def test_every_address_is_classified(address, kind):
    assert targets.address_kind(ipaddress.ip_address(address)) == kind


PRIVATE_URLS = [
    "http://10.0.0.1/",
    "http://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:10.0.0.1]/hook",
    "http://100.64.0.1/hook",
    "http://intranet.example/hook",
    "http://metadata.example/latest/meta-data/",
    "http://split.example/hook",
]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_the_default_profile_refuses_private_and_link_local_targets(url):
    with pytest.raises(UserError, match=r"^url: .*not a public address"):
        webhooks.check_url(url)


@override_settings(WEBHOOK_ALLOW_LOOPBACK=False)  # as in production
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
    ],
)
def test_production_refuses_the_machine_itself(url):
    with pytest.raises(UserError, match="not a public address"):
        webhooks.check_url(url)


@pytest.mark.parametrize("url", ["http://0.0.0.0/hook", "http://[::]/", "http://224.0.0.1/"])
@override_settings(WEBHOOK_ALLOW_PRIVATE_TARGETS=True)
def test_multicast_and_unspecified_addresses_are_never_targets(url):
    with pytest.raises(UserError, match="not a public address"):
        webhooks.check_url(url)


@override_settings(WEBHOOK_ALLOW_PRIVATE_TARGETS=True, WEBHOOK_ALLOW_LOOPBACK=False)
def test_private_targets_are_allowed_only_when_the_setting_says_so():
    assert webhooks.check_url("http://10.0.0.1/") == "http://10.0.0.1/"
    assert webhooks.check_url("http://metadata.example/") == "http://metadata.example/"
    with pytest.raises(UserError, match="WEBHOOK_ALLOW_LOOPBACK"):
        webhooks.check_url("http://127.0.0.1/")


@override_settings(WEBHOOK_ALLOW_LOOPBACK=False)
def test_production_accepts_a_public_address_or_name():
    assert webhooks.check_url("https://93.184.215.14/hook") == "https://93.184.215.14/hook"
    assert webhooks.check_url("https://public.example/hook") == "https://public.example/hook"


def test_a_name_that_does_not_resolve_is_refused():
    with pytest.raises(UserError, match="does not resolve"):
        webhooks.check_url("https://nowhere.example/hook")


def test_development_accepts_the_machine_itself():
    assert webhooks.check_url("http://127.0.0.1:9/hook") == "http://127.0.0.1:9/hook"
    assert webhooks.check_url("http://localhost:9/hook") == "http://localhost:9/hook"


def test_a_target_connects_to_the_checked_address_and_keeps_the_name():
    target = targets.resolve("https://public.example:8443/hook?x=1")
    assert target.pinned_url == "https://93.184.215.14:8443/hook?x=1"
    assert target.host_header == "public.example:8443"
    assert target.sni_hostname == "public.example"
    literal = targets.resolve("http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook")
    assert literal.pinned_url == "http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook"
    assert literal.sni_hostname is None


# -- readable messages ----------------------------------------------------------------------


def test_a_discord_channel_is_recognised_by_its_webhook_url():
    assert delivery.is_discord("https://discord.com/api/webhooks/123/abc")
    assert delivery.is_discord("https://discordapp.com/api/webhooks/123/abc")
    assert not delivery.is_discord("https://discord.com/channels/123")
    assert not delivery.is_discord("https://example.org/api/webhooks/123/abc")


def test_discord_messages_read_as_sentences():
    cup = {"tournament": {"slug": "cup", "name": "Cup"}}
    match = {
        "code": "W1.1",
        "home": {"id": 1, "name": "Ann"},
        "away": {"id": 2, "name": "Bob"},
        "winner": 2,
        "home_score": 1.0,
        "away_score": 2.0,
    }
    assert delivery.discord_message("tournament.started", cup) == "**Cup** has started."
    assert (
        delivery.discord_message("match.ready", cup | {"match": match})
        == "**Cup**: match W1.1 is ready, Ann v Bob."
    )
    assert (
        delivery.discord_message("match.result", cup | {"match": match})
        == "**Cup**: Bob beat Ann in match W1.1 (2-1)."
    )
    drawn = match | {"winner": None, "home_score": 0.5, "away_score": 0.5}
    assert (
        delivery.discord_message("match.result", cup | {"match": drawn})
        == "**Cup**: Ann and Bob drew match W1.1."
    )


# -- endpoints ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_only_those_who_run_the_tournament_add_webhooks_for_known_events():
    tournament, _ = open_tournament("single_elimination", 2)
    with pytest.raises(Forbidden):
        webhooks.endpoint_create(
            tournament=tournament,
            by=user("stranger"),
            url="http://127.0.0.1/",
            events=["match.ready"],
        )
    with pytest.raises(UserError, match=r"unknown events: match\.exploded"):
        webhooks.endpoint_create(
            tournament=tournament,
            by=tournament.organiser,
            url="http://127.0.0.1/",
            events=["match.exploded"],
        )
    endpoint = webhooks.endpoint_create(
        tournament=tournament,
        by=tournament.organiser,
        url="http://127.0.0.1/",
        events=["tournament.finished", "match.ready"],
    )
    assert endpoint.events == ["match.ready", "tournament.finished"]  # the one order of EVENTS
    assert tournament.audit.filter(action="tournaments.webhook.created").exists()


# -- deliveries, through a real worker and a real receiver ----------------------------------


@pytest.fixture
def worker(transactional_db, redis_url, celery_queue):
    with celery_worker(celery_queue):
        yield


def _hook(tournament, url: str, events=EVENTS):
    return webhooks.endpoint_create(
        tournament=tournament, by=tournament.organiser, url=url, events=list(events)
    )


def test_a_tournament_tells_its_webhook_each_event_signed(worker):
    tournament, _ = open_tournament("single_elimination", 4)
    with receiver() as site:
        endpoint = _hook(tournament, f"{site.url}/all")
        quiet = _hook(tournament, f"{site.url}/finished-only", events=["tournament.finished"])
        stage = services.stage_start(tournament=tournament, by=tournament.organiser)
        report_top_seed_wins(stage, "W1.1")
        report_top_seed_wins(stage, "W1.2")
        final = stage.matches.get(code="W2.1")
        report_top_seed_wins(stage, final.code)
        assert wait_for(lambda: len(site.at("/all")) == 8 and site.at("/finished-only"), 15)
        bodies = site.verified(endpoint.secret, "/all")
        finished = site.verified(quiet.secret, "/finished-only")
    assert sorted(body["type"] for body in bodies) == sorted(
        ["tournament.started"]
        + ["match.ready"] * 3
        + ["match.result"] * 3
        + ["tournament.finished"]
    )
    assert [body["type"] for body in finished] == ["tournament.finished"]
    result = next(
        b for b in bodies if b["type"] == "match.result" and b["data"]["match"]["code"] == "W2.1"
    )
    assert result["data"]["tournament"] == {"slug": tournament.slug, "name": tournament.name}
    assert result["data"]["match"]["winner"] == result["data"]["match"]["home"]["id"]
    assert result["timestamp"].endswith("Z")
    ids = {r.headers["webhook-id"] for r in site.at("/all")}
    delivered = WebhookDelivery.objects.filter(endpoint=endpoint)
    assert ids == set(delivered.values_list("message_id", flat=True))
    assert set(delivered.values_list("status", "attempts", "response_code")) == {
        ("delivered", 1, 200)
    }


@override_settings(WEBHOOK_RETRY_BACKOFF_SECONDS=0.2, WEBHOOK_RETRY_JITTER=False)
def test_a_receiver_that_fails_twice_gets_the_event_on_the_third_try(worker):
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        site.script["/flaky"] = [500, 503]
        endpoint = _hook(tournament, f"{site.url}/flaky", events=["tournament.started"])
        services.stage_start(tournament=tournament, by=tournament.organiser)
        assert wait_for(lambda: len(site.at("/flaky")) == 3, 15)
        bodies = site.verified(endpoint.secret, "/flaky")
        tries = site.at("/flaky")
    assert [body["type"] for body in bodies] == ["tournament.started"] * 3
    assert len({t.headers["webhook-id"] for t in tries}) == 1  # one message, three attempts
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert wait_for(lambda: WebhookDelivery.objects.get(pk=delivery.pk).status == "delivered", 5)
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.response_code, delivery.error) == (3, 200, "")


@override_settings(
    WEBHOOK_RETRY_BACKOFF_SECONDS=0.1, WEBHOOK_RETRY_JITTER=False, WEBHOOK_MAX_ATTEMPTS=3
)
def test_a_delivery_fails_after_its_last_attempt_and_a_gone_receiver_is_switched_off(worker):
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        site.script["/down"] = [500] * 10
        site.script["/gone"] = [410]
        down = _hook(tournament, f"{site.url}/down", events=["tournament.started"])
        gone = _hook(tournament, f"{site.url}/gone", events=["tournament.started"])
        services.stage_start(tournament=tournament, by=tournament.organiser)
        assert wait_for(
            lambda: set(WebhookDelivery.objects.values_list("status", flat=True)) == {"failed"},
            15,
        )
        assert len(site.at("/down")) == 3 and len(site.at("/gone")) == 1
    failed = WebhookDelivery.objects.get(endpoint=down)
    assert (failed.attempts, failed.response_code, failed.error) == (3, 500, "answered HTTP 500")
    gone.refresh_from_db()
    assert not gone.active


@override_settings(WEBHOOK_DISCORD_HOSTS=("127.0.0.1",))
def test_a_discord_channel_gets_a_readable_message(worker):
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        _hook(tournament, f"{site.url}/api/webhooks/1/token", events=["match.ready"])
        services.stage_start(tournament=tournament, by=tournament.organiser)
        assert wait_for(lambda: site.at("/api/webhooks/1/token"), 15)
        (message,) = site.at("/api/webhooks/1/token")
    assert message.json == {
        "content": f"**{tournament.name}**: match W1.1 is ready, p1 v p2.",
        "allowed_mentions": {"parse": []},
    }


def test_nothing_is_sent_for_a_change_that_is_rolled_back(worker):
    from django.db import transaction

    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        endpoint = _hook(tournament, f"{site.url}/all")
        with pytest.raises(RuntimeError), transaction.atomic():
            services.stage_start(tournament=tournament, by=tournament.organiser)
            raise RuntimeError("the request failed after the start")
        webhooks.send_test(endpoint=endpoint, by=tournament.organiser)
        assert wait_for(lambda: site.at("/all"), 15)
        (only,) = site.verified(endpoint.secret, "/all")
    assert only["type"] == "webhook.test"
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_correction_tells_the_result_the_reset_and_the_match_ready_again(redis_url):
    tournament, _ = open_tournament("single_elimination", 4)
    endpoint = _hook(tournament, "http://127.0.0.1:9/", events=EVENTS)
    stage = services.stage_start(tournament=tournament, by=tournament.organiser)
    for code in ["W1.1", "W1.2", "W2.1"]:
        report_top_seed_wins(stage, code)
    first = stage.matches.get(code="W1.1")
    endpoint.deliveries.all().delete()
    services.match_report_result(
        match=first,
        by=staff_admin(),
        winner=first.away,
        force=True,
        reason="seed 4 won",
        resets=["W2.1"],
    )
    told = [
        (d.event, d.payload["data"]["match"]["code"]) for d in endpoint.deliveries.order_by("pk")
    ]
    assert told == [("match.result", "W1.1"), ("match.reset", "W2.1"), ("match.ready", "W2.1")]
    reset = endpoint.deliveries.get(event="match.reset").payload["data"]
    assert reset["corrected"] == "W1.1" and reset["match"]["status"] == "pending"
    ready = endpoint.deliveries.get(event="match.ready").payload["data"]["match"]
    assert {ready["home"]["name"], ready["away"]["name"]} == {"p4", "p2"}


@override_settings(REDIS_URL="", WEBHOOK_RETRY_BACKOFF_SECONDS=0.1, WEBHOOK_RETRY_JITTER=False)
def test_without_redis_the_in_process_scheduler_sends_and_retries(transactional_db):
    """``make run`` (no Redis, no worker): the same attempts and backoff, in process."""
    import threading

    from django import db

    from hosting.core.scheduling import scheduler

    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        site.script["/embedded"] = [500]
        endpoint = _hook(tournament, f"{site.url}/embedded", events=["tournament.started"])
        scheduler.start()
        services.stage_start(tournament=tournament, by=tournament.organiser)
        assert wait_for(lambda: endpoint.deliveries.get().status == "delivered", 15)
        assert [b["type"] for b in site.verified(endpoint.secret, "/embedded")] == [
            "tournament.started"
        ] * 2
    closed = threading.Event()
    scheduler.call_at(0, lambda: (db.connections.close_all(), closed.set()))
    assert closed.wait(5)  # the scheduler's thread keeps no session on the test database
    assert endpoint.deliveries.get().attempts == 2


# -- at send: resolved again, and sent to the address that was checked ----------------------


def _delivery(endpoint):
    return WebhookDelivery.objects.create(
        endpoint=endpoint, message_id="msg_pinned", event="webhook.test", payload={"data": {}}
    )


@pytest.mark.django_db
def test_an_attempt_connects_to_the_checked_address_under_the_name(dns):
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        port = site.url.rsplit(":", 1)[1]
        dns["hooks.example"] = ["127.0.0.1"]
        endpoint = _hook(tournament, f"http://hooks.example:{port}/named")
        assert delivery.attempt(_delivery(endpoint).pk) == "delivered"
        [request] = site.at("/named")
    assert request.headers["host"] == f"hooks.example:{port}"
    assert site.verified(endpoint.secret, "/named")


@pytest.mark.django_db
def test_a_name_that_now_resolves_to_a_private_address_is_not_sent_to(dns):
    """DNS rebinding: the name passed the check at save, then answers a private address."""
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver() as site:
        port = site.url.rsplit(":", 1)[1]
        dns["rebind.example"] = ["127.0.0.1"]
        endpoint = _hook(tournament, f"http://rebind.example:{port}/rebound")
        dns["rebind.example"] = ["10.0.0.1"]
        sent = _delivery(endpoint)
        assert delivery.attempt(sent.pk) == "failed"
        assert site.at("/rebound") == []
    sent.refresh_from_db()
    assert "10.0.0.1" in sent.error and sent.attempts == 0


@pytest.mark.django_db
def test_a_private_target_saved_before_the_rule_is_refused_at_send():
    tournament, _ = open_tournament("single_elimination", 2)
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament,
        url="http://169.254.169.254/latest/",
        events=["match.ready"],
        secret=webhooks.new_secret(),
        language="en",
    )
    sent = _delivery(endpoint)
    assert delivery.attempt(sent.pk) == "failed"
    sent.refresh_from_db()
    assert "link-local" in sent.error


@pytest.mark.django_db
def test_https_to_the_checked_address_still_sends_and_verifies_the_name(dns, tmp_path, monkeypatch):
    """TLS to the pinned address: SNI and the certificate check are the name's, not the
    address's (a certificate for hooks.example, which 127.0.0.1 would not match)."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=hooks.example", "-addext", "subjectAltName=DNS:hooks.example"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the receiver's certificate is trusted
    names: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    tournament, _ = open_tournament("single_elimination", 2)
    with receiver(tls=context) as site:
        port = site.url.rsplit(":", 1)[1]
        dns["hooks.example"] = ["127.0.0.1"]
        endpoint = _hook(tournament, f"https://hooks.example:{port}/tls")
        assert delivery.attempt(_delivery(endpoint).pk) == "delivered"
        [request] = site.at("/tls")
    assert names == ["hooks.example"] and request.headers["host"] == f"hooks.example:{port}"
