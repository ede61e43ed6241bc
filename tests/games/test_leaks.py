"""Whole hosted games of every engine, each audience's every message checked for leaks.

Every API response (each move's answer, the game as a seat or a spectator reads it, a seat's
legal actions) and every SSE message (each commit's text per audience, as the streams send
it) must be exactly what the host renders for that audience, and stay the same when the
cards that audience may not see are redealt: clocks, windows and legal actions included.
The server clock is held still between moves, so every text can be rendered again.
"""

import copy
import random

import orjson
import pytest

from games import clocks, engines, payloads, public_log, store
from games.models import GameSession
from hosting.core import broadcast
from tests.games.hosting_helpers import FakeClock, bot_client, claim, create_game, organiser_client
from tests.games.test_whole_games import choose

pytestmark = pytest.mark.django_db(transaction=True)

# A team member's pre-built playlist with both FX that grant an extra drop (a card of a colour,
# of a song in play): whether a partner holds a card that fits is what a clock once told.
EXTRA_MOVES = [
    *("candy-wild", "candy-y2", "candy-y3", "candy-r1a", "candy-r1b", "candy-r2", "candy-r3"),
    *("candy-b1a", "candy-b1b", "candy-b2", "candy-b3", "candy-g2", "candy-g3"),
    *("steel-fx2", "lab-extra-move"),
]
# Now and then a clock runs out instead of a move being made (Drafting Trios: that loses).
GAMES = [
    ("drafting_trios", 2, {}, 0),
    ("color_clash", 3, {}, 23),
    ("dropmix", 2, {}, 23),
    ("dropmix", 3, {"decks": [None, EXTRA_MOVES, EXTRA_MOVES]}, 23),  # 1v2
    ("dropmix", 4, {"decks": [EXTRA_MOVES] * 4}, 23),  # 2v2
]


def redealt_text(game: GameSession, seats: list, audience: int | None, now: float, rng) -> str:
    """The audience's payload as the host would render it had the hidden cards that audience
    cannot see been dealt otherwise: clocks and windows settled from that state."""
    engine = engines.get(game.engine)
    twin = copy.copy(game)
    twin.state = engine.resample_hidden(game.state, audience, rng)
    owed = {key: engine.decision(twin.state, int(key)) for key in game.clocks}
    twin.clocks = clocks.settle(game.control(engine), game.clocks, owed, now)
    twin.windows = clocks.open_windows(game.windows, engine.windows(twin.state), now)
    return payloads.render_all(twin, seats, now)[payloads.audience_key(audience)]


class Checker:
    def __init__(self, game_id: int, clock: FakeClock) -> None:
        self.game_id, self.clock = game_id, clock
        self.rng = random.Random(11)
        self.checked = 0

    def rendered(self, audience: int | None) -> tuple[GameSession, list, str]:
        game, seats = store.game(self.game_id), store.seats_of(self.game_id)
        key = payloads.audience_key(audience)
        return game, seats, payloads.render_all(game, seats, self.clock.now)[key]

    def payload(self, audience: int | None, sent: dict) -> None:
        """``sent`` is what ``audience`` was sent of the game as it is now (its commit's log
        entries are checked with the commit, in ``update``)."""
        sent = {key: value for key, value in sent.items() if key != "log"}
        game, seats, text = self.rendered(audience)
        assert sent == orjson.loads(text)
        if game.state is not None:
            twin = redealt_text(game, seats, audience, self.clock.now, self.rng)
            assert orjson.loads(twin) == sent, f"a redeal changes what {audience} is sent"
        self.checked += 1

    def legal(self, seat: int, sent: dict) -> None:
        game, seats, text = self.rendered(seat)
        assert sent["actions"] == orjson.loads(text).get("legal", [])
        twin = orjson.loads(redealt_text(game, seats, seat, self.clock.now, self.rng))
        assert twin.get("legal", []) == sent["actions"]
        self.checked += 1

    def update(self, game_id: int, update: broadcast.Update) -> None:
        """A commit's SSE texts, checked as they are published (the database is at that
        version, the clock where the commit read it). The commit's public log entries go to
        every audience alike: each is only the public events of a stored action."""
        logs = []
        for key, text in update.parts.items():
            sent = orjson.loads(text)
            logs.append(sent.pop("log", None))
            self.payload(None if key == payloads.PUBLIC else int(key), sent)
        assert logs and all(log == logs[0] for log in logs), "audiences got different logs"
        if logs[0]:
            game = store.game(self.game_id)
            stored = game.log.filter(seq__in=[entry["seq"] for entry in logs[0]])
            expected = [public_log.entry(game.engine, e.seq, e.seat, e.events) for e in stored]
            assert logs[0] == expected


@pytest.mark.parametrize("key, seats, config, timeout_every", GAMES)
def test_no_message_of_a_whole_game_changes_when_hidden_cards_are_redealt(
    key, seats, config, timeout_every, django_user_model, monkeypatch
):
    clock = FakeClock()
    monkeypatch.setattr("games.services.core.now", clock)
    engine = engines.get(key)
    organiser = organiser_client(django_user_model)
    game_id = create_game(organiser, key, seats, config=config)
    tokens = [claim(game_id, n, credential="token").token for n in range(seats)]
    players = [bot_client(token) for token in tokens]
    spectator = bot_client("not-a-seat")
    checker = Checker(game_id, clock)
    published = broadcast.publish

    def publish(game_id: int, update: broadcast.Update) -> None:
        checker.update(game_id, update)
        published(game_id, update)

    monkeypatch.setattr(broadcast, "publish", publish)
    assert organiser.post(f"/api/games/{game_id}/start").status_code == 200
    rng = random.Random(2)  # with these, the old DropMix clocks leak in 1v2 and 2v2
    audiences = [*range(seats), None]
    for step in range(3000):
        audience = audiences[step % len(audiences)]
        reader = spectator if audience is None else players[audience]
        checker.payload(audience, reader.get(f"/api/games/{game_id}/").json())
        game = store.game(game_id)
        if game.status != "running":
            break
        if audience is not None:
            checker.legal(audience, reader.get(f"/api/games/{game_id}/legal").json())
        movers = [
            (seat, engine.legal_actions(game.state, seat))
            for seat in range(seats)
            if engine.decision(game.state, seat) is not None
        ]
        movers = [(seat, legal) for seat, legal in movers if legal]
        if not movers or (timeout_every and step % timeout_every == timeout_every - 1):
            # The server's turn: a window closes or a clock runs out on the next read.
            clock.now = max(clock.now, game.next_deadline.timestamp() + 0.01)
            continue
        seat, legal = rng.choice(movers)
        action = choose(engine, key, game.state, seat, legal, rng)
        answer = players[seat].post(
            f"/api/games/{game_id}/actions", {"action": action}, format="json"
        )
        assert answer.status_code == 200, answer.content
        checker.payload(seat, answer.json()["state"])
        clock.advance(0.5)
    assert store.game(game_id).status == "finished", "the game did not end"
    assert checker.checked > 100
