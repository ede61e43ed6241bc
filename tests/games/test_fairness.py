"""Shuffles nobody can choose: the server commits to its seed before any seat sends a client
seed, the deal comes from all of them together (games.fairness), no seed is taken once the
game starts, and the verification recomputes every part."""

from __future__ import annotations

import html
from io import StringIO

import pytest
from django.core.management import call_command

from games import engines, fairness, services
from games.engines.base import StepRng
from games.engines.conformance import canonical
from games.models import GameSession, Seat
from games.payloads import render_all
from hosting.core.errors import Conflict
from hosting.core.identity import Guest
from tests.games.hosting_helpers import bot_client, claim, create_game, invite

SERVER = bytes(range(32))
JSON = "application/json"


# -- the construction (pure) -------------------------------------------------------------------


def test_the_construction_gives_what_standard_tools_compute():
    # From openssl and sha256sum, independently of Python (docs/api.md shows the commands):
    #   printf '%s' '["3f9a0c1e","","bot-seed:7"]' | openssl dgst -sha256 -mac HMAC \
    #     -macopt hexkey:000102…1f
    assert fairness.commitment(SERVER) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )
    seeds = ["3f9a0c1e", "", "bot-seed:7"]
    assert fairness.client_seed_message(seeds) == b'["3f9a0c1e","","bot-seed:7"]'
    assert fairness.effective_seed(SERVER, seeds).hex() == (
        "69465af26a7a5d77b83d8bbce9d4032b452f590759fe574c74637f64089a6f6b"
    )


def test_every_order_and_split_of_the_client_seeds_gives_its_own_seed():
    splits = [["a", "b"], ["b", "a"], ["ab", ""], ["", "ab"], ["a", ""], ["", ""], ["a", "b", ""]]
    assert len({fairness.effective_seed(SERVER, seeds) for seeds in splits}) == len(splits)


@pytest.mark.parametrize("bad", ["", "x" * 65, "two words", "naïve", "a\n", "'", 7, None])
def test_a_client_seed_is_a_short_plain_string(bad):
    with pytest.raises(fairness.ClientSeedError, match="1 to 64 letters"):
        fairness.check_client_seed(bad)


@pytest.mark.parametrize("key", ["drafting_trios", "color_clash", "dropmix"])
def test_the_same_server_seed_with_different_client_seeds_deals_differently(key):
    engine = engines.get(key)
    config = engine.validate_config({}, 2)

    def deal(client_seeds: list[str]) -> bytes:
        seed = fairness.effective_seed(SERVER, client_seeds)
        return canonical(engine.setup(config, 2, StepRng(seed, 0)))

    assert deal(["alice", "bob"]) == deal(["alice", "bob"])
    assert deal(["alice", "bob"]) != deal(["alice", "carol"])
    assert deal(["alice", "bob"]) != deal(["bob", "alice"])
    assert deal(["alice", "bob"]) != canonical(engine.setup(config, 2, StepRng(SERVER, 0)))


# -- hosted games -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_hosted_deal_comes_from_the_commitment_and_every_client_seed(
    organiser, engine, clock, client
):
    game_id = create_game(organiser, "high_card", 2)
    game = GameSession.objects.get(pk=game_id)
    commitment = game.seed_sha256
    assert commitment == fairness.commitment(bytes.fromhex(game.seed))

    # Before any client seed: the commitment is in every view, the seed in none.
    assert organiser.get(f"/api/games/{game_id}/").json()["seed_sha256"] == commitment
    for path in (f"/games/{game_id}/", f"/games/{game_id}/verify"):
        page = client.get(path).content.decode()
        assert commitment in page and game.seed not in page, path
    streamed = render_all(game, list(game.seats.all()), clock())  # what each stream sends
    assert all(f'"seed_sha256":"{commitment}"' in text for text in streamed.values())

    # A bad client seed is refused and changes nothing.
    url = f"/api/games/{game_id}/seats/0/claim"
    refused = client.post(url, {"invite": invite(game_id), "client_seed": "has space"}, JSON)
    assert refused.status_code == 400
    assert "client_seed" in refused.json()["fields"]
    assert not Seat.objects.get(game_id=game_id, number=0).is_claimed

    alice = claim(game_id, 0, client_seed="alice-3f9a0c1e")
    claim(game_id, 1, credential="token")  # a bot that sends none
    assert [s["client_seed"] for s in alice.state(game_id)["seats"]] == ["alice-3f9a0c1e", ""]
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200

    game = GameSession.objects.get(pk=game_id)
    effective = fairness.effective_seed(bytes.fromhex(game.seed), ["alice-3f9a0c1e", ""])
    assert game.effective_seed == effective.hex()
    assert game.state == engine.setup(game.config, 2, StepRng(effective, 0))

    # Once started, the deal is fixed: no client seed is taken or changed.
    again = {"invite": invite(game_id), "client_seed": "again"}
    late = alice.client.post(url, again, format="json")
    assert late.status_code == 409 and late.json()["error"] == "deal_fixed"
    assert "no client seed can be sent or changed" in late.json()["detail"]
    assert Seat.objects.get(game_id=game_id, number=0).client_seed == "alice-3f9a0c1e"

    while alice.state(game_id)["status"] == "running":
        clock.advance(10.5)  # every clock runs out in turn until the hands are empty

    report = client.get(f"/api/games/{game_id}/verify").json()
    assert report["verified"] is True
    assert report["seed_matches_commitment"] and report["effective_seed_matches"]
    assert report["final_state_matches"] and report["replayed_actions"] > 0
    assert [s["client_seed"] for s in report["client_seeds"]] == ["alice-3f9a0c1e", ""]
    assert report["client_seed_message"] == '["alice-3f9a0c1e",""]'
    assert report["effective_seed"] == effective.hex()
    page = html.unescape(client.get(f"/games/{game_id}/verify").content.decode())
    for part in (game.seed, commitment, "alice-3f9a0c1e", effective.hex(), "Verified:"):
        assert part in page
    assert "printf '%s' '[\"alice-3f9a0c1e\",\"\"]' | openssl dgst -sha256" in page
    log = client.get(f"/api/games/{game_id}/log").json()
    assert log["client_seeds"] == ["alice-3f9a0c1e", ""]
    assert log["effective_seed"] == effective.hex()

    out = StringIO()
    call_command("verify_game", game_id, stdout=out)
    for part in ("'alice-3f9a0c1e'", effective.hex(), f"game {game_id} verified"):
        assert part in out.getvalue()

    # A client seed changed afterwards no longer gives the seed the game dealt from.
    Seat.objects.filter(game_id=game_id, number=1).update(client_seed="after-the-fact")
    tampered = client.get(f"/api/games/{game_id}/verify").json()
    assert not tampered["verified"] and not tampered["effective_seed_matches"]


def _guest_game(server_seed: str, client_seeds: list[str]) -> GameSession:
    game = services.game_create(engine_key="color_clash", seats=[services.SeatSpec()] * 2)
    # The same server seed in two games, as a server trying to repeat a deal would do.
    GameSession.objects.filter(pk=game.pk).update(
        seed=server_seed, seed_sha256=fairness.commitment(bytes.fromhex(server_seed))
    )
    for number, client_seed in enumerate(client_seeds):
        guest = Guest(id=f"g{game.pk}-{number}", name=f"P{number}")
        services.seat_claim(
            game_id=game.pk,
            number=number,
            guest=guest,
            invite=invite(game.pk),
            client_seed=client_seed,
        )
    return services.game_start(game_id=game.pk, by=None)


@pytest.mark.django_db
def test_the_same_server_seed_with_another_client_seed_deals_another_game():
    server_seed = fairness.new_server_seed().hex()
    first = _guest_game(server_seed, ["alice", "bob"])
    second = _guest_game(server_seed, ["alice", "mallory"])
    assert first.seed == second.seed and first.effective_seed != second.effective_seed
    assert canonical(first.state) != canonical(second.state)


@pytest.mark.django_db
def test_a_reserved_player_may_change_their_client_seed_until_the_start(django_user_model):
    ann = django_user_model.objects.create_user("ann", password="pw-player-123")
    seats = [services.SeatSpec(user=ann), services.SeatSpec(kind=Seat.Kind.COMPUTER)]
    game = services.game_create(engine_key="color_clash", seats=seats)
    for seed in ("first", "second"):
        services.seat_claim(game_id=game.pk, number=0, user=ann, client_seed=seed)
    services.seat_claim(game_id=game.pk, number=0, user=ann)  # no seed given: kept
    assert Seat.objects.get(game=game, number=0).client_seed == "second"
    started = services.game_start(game_id=game.pk, by=None)
    assert started.effective_seed == (
        fairness.effective_seed(bytes.fromhex(game.seed), ["second", ""]).hex()
    )
    with pytest.raises(Conflict, match="deal is made"):
        services.seat_claim(game_id=game.pk, number=0, user=ann, client_seed="third")
    assert Seat.objects.get(game=game, number=0).client_seed == "second"


@pytest.mark.django_db
def test_a_game_dealt_before_client_seeds_still_verifies_from_its_server_seed(engine):
    game = services.game_create(engine_key="high_card", seats=[services.SeatSpec()] * 2)
    Seat.objects.filter(game=game).update(guest_id="someone")
    services.game_start(game_id=game.pk, by=None)
    # As such a game was stored: no effective seed, dealt from the server seed alone.
    server_seed = bytes.fromhex(game.seed)
    old_deal = engine.setup(game.config, 2, StepRng(server_seed, 0))
    GameSession.objects.filter(pk=game.pk).update(effective_seed="", state=old_deal)
    services.game_void(game_id=game.pk, reason="test", by=None)
    report = bot_client("none").get(f"/api/games/{game.pk}/verify").json()
    assert report["verified"] and report["construction"] == "server_seed"
    assert report["client_seed_message"] is None and report["effective_seed"] == game.seed
