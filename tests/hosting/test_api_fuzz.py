"""Issue 14: a bounded fuzz of every JSON endpoint of the games and tournaments APIs.

Whatever the path parameters, body, credentials or method, the answer is never a 5xx, and
every refusal is JSON in the documented shape. Three kinds of request: anything at all (any
client, method and path, a body of the endpoint's fields or any JSON); the organiser's writes
as well-formed bodies with a value or two anywhere in them replaced by any JSON (random bodies
rarely get past the first field check; these reach every check behind it); and listed moves of
running games of every engine, likewise changed. About 1,300 requests, well under a minute.
Examples are random on each run: a failure prints the example that reproduces it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.engines.refusals import MESSAGES
from hosting.core.roles import ORGANISER, STAFF_ADMIN, grant
from tests.games.hosting_helpers import register_tiny
from tournaments import services
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db

EXAMPLES = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", "²", "-1", "0", "W1.1", "red", "yellow", "R1", "high_card", "EC"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ints = st.integers(-2, 40) | st.sampled_from([2**31, 2**63, 10**30])


def shaped(required: dict | None = None, **optional: st.SearchStrategy) -> st.SearchStrategy:
    """Objects with the endpoint's own fields: the required ones mostly well formed (so the
    request gets past them to the deeper checks), each optional one present or not, and each
    value now and then any JSON at all."""
    return st.fixed_dictionaries(
        {name: mostly(strategy) for name, strategy in (required or {}).items()},
        optional={name: mostly(strategy) for name, strategy in optional.items()},
    )


def mostly(strategy: st.SearchStrategy) -> st.SearchStrategy:
    """Three times in four a value of ``strategy``, else any JSON."""
    return st.sampled_from([strategy, strategy, strategy, json_values]).flatmap(lambda pick: pick)


ANY = json_values
ENGINE_KEYS = ["high_card", "color_clash", "dropmix", "drafting_trios"]
ENGINES = st.sampled_from([*ENGINE_KEYS, "chess"])
ACTION_TYPES = [
    "play", "draw", "pass", "catch", "call_last_card", "choose_color", "drop", "spin", "retract",
    "choose", "draft", "mulligan", "name", "earthquake", "trio", "power", "discard", "timeout",
    "window_closed", "substitute",
]  # fmt: skip
ACTION_FIELDS = [
    "card", "color", "colour", "slot", "target", "pick", "discard", "cards", "cost", "category",
    "rule", "name", "seats", "junk",
]  # fmt: skip
CONFIG_KEYS = [
    "mode", "match", "substitutes", "turn_seconds", "roles", "power_cards_in_trios",
    "short_hand", "target", "middle_slot_colour", "wheel", "retract_seconds", "decks",
    "catalogue", "hand_size",
]  # fmt: skip
FORMAT_KEYS = [
    "rounds", "third_place", "grand_final", "cycles", "groups", "bye_points", "ec_rule",
    "on_elimination", "tokens", "currency",
]  # fmt: skip
OPTION_KEYS = CONFIG_KEYS + FORMAT_KEYS
options = st.dictionaries(st.sampled_from(OPTION_KEYS), ANY, max_size=2) | st.dictionaries(
    st.text(max_size=6), ANY, max_size=3
)
time_controls = shaped(
    allowances=st.dictionaries(st.sampled_from(["turn", "draft", "play", "choice"]), ANY),
    reserve=ANY,
    increment=ANY,
    policy=st.sampled_from(["lose", "engine", "draw_and_pass", "forfeit_turn"]),
)
seats = st.just([{"kind": "human"}, {"kind": "human"}]) | st.lists(
    shaped(kind=st.sampled_from(["human", "computer"]), bot=ANY, role=ANY, name=ANY), max_size=7
)
actions = shaped(
    {"type": st.sampled_from(ACTION_TYPES)},
    **dict.fromkeys(ACTION_FIELDS, ANY),
)
dates = st.sampled_from(["2026-01-01T00:00:00Z", "2099-01-01T00:00:00Z", "yesterday"])

GAME_BODIES: dict[str, st.SearchStrategy] = {
    "create": shaped(
        {"engine": st.sampled_from(ENGINE_KEYS), "seats": seats},
        config=options,
        time_control=time_controls,
        grace_seconds=ints,
    ),
    "claim": shaped(credential=st.sampled_from(["session", "token"])),
    "actions": shaped(
        {"action": actions},
        client_action_id=st.text(max_size=70),
        expected_version=st.integers(-2, 5),
    ),
}
TOURNAMENT_BODIES: dict[str, st.SearchStrategy] = {
    "": shaped(
        {
            "name": st.text(min_size=1, max_size=10),
            "slug": st.from_regex(r"[a-z]{1,8}", fullmatch=True),
            "game": st.sampled_from(ENGINE_KEYS),
            "format": st.sampled_from(["swiss", "single_elimination", "genius", "round_robin"]),
        },
        format_options=options,
        ruleset=options,
        time_control=time_controls,
        tiebreaks=st.lists(st.sampled_from(["buchholz", "koya", "wins"])),
        capacity=ints,
        best_of=ints,
        play_online=st.booleans(),
        visibility=st.sampled_from(["public", "unlisted"]),
        registration_opens=dates,
        registration_closes=dates,
        check_in_closes=dates,
    ),
    "register": shaped(display_name=ANY, rating=ints),
    "withdraw": shaped(entrant=ints),
    "seeding": shaped(
        {"method": st.sampled_from(["manual", "random", "rating"])}, order=st.lists(ints)
    ),
    "result": shaped(
        {"winner": ints},
        home_score=ints,
        away_score=ints,
        forfeit=st.booleans(),
        force=st.booleans(),
        reason=st.text(max_size=8),
        dry_run=st.booleans(),
        resets=st.lists(st.sampled_from(["W1.1", "W2.1", "L1.1"])),
    ),
    "ledger": shaped(
        {"kind": st.sampled_from(["award", "spend", "transfer"]), "entrant": ints, "amount": ints},
        reason=st.text(min_size=1, max_size=8),
        to=ints,
    ),
    "sealed": shaped({"prompt": st.text(min_size=1, max_size=8), "deadline": dates}),
    "submit": shaped({"text": st.text(max_size=8)}),
    "main-match": shaped(
        {"engine": st.sampled_from(ENGINE_KEYS)}, config=options, time_control=time_controls
    )
    | shaped({"winners": st.lists(ints), "losers": st.lists(ints)}),
    "candidates": shaped({"chosen": st.lists(ints)}),
    "token": shaped({"giver": ints, "receiver": ints}),
    "opponent": shaped({"ec": ints, "dmo": ints}),
}
GAME_PATHS = ["", "seats/{n}/claim", "start", "actions", "token", "leave", "legal", "log",
              "verify"]  # fmt: skip
TOURNAMENT_PATHS = [
    "", "registration/open", "check-in/open", "seeding", "start", "register", "withdraw",
    "check-in", "matches/{code}/result", "standings", "audit", "ledger",
    "episodes/{n}/sealed", "episodes/{n}/submit", "episodes/{n}/submissions",
    "episodes/{n}/reveal", "episodes/{n}/main-match", "episodes/{n}/candidates",
    "episodes/{n}/token", "episodes/{n}/opponent",
]  # fmt: skip
JUNK_PARTS = st.sampled_from(["abc", "-1", "%00", "99999999999999999999999", "0", "1.5", "²"])


def documented(response) -> None:
    """Never a 5xx; any refusal JSON as docs/api.md shows it."""
    assert response.status_code < 500, (response.status_code, response.content[:500])
    if response.status_code >= 400:
        assert response["Content-Type"] == "application/json", response.content[:300]
        body = response.json()
        assert isinstance(body, dict), body
        # an engine's refusal also names its code and the params of its sentence
        extra = {"refusal", "params"} if body.get("error") == "illegal_action" else {"fields"}
        assert set(body) - extra == {"error", "detail"}, body
        assert isinstance(body["error"], str) and isinstance(body["detail"], str), body
        if body["error"] == "illegal_action":
            assert body["refusal"] in MESSAGES and isinstance(body["params"], dict), body
            assert MESSAGES[body["refusal"]].format(**body["params"]) == body["detail"], body


def send(client: APIClient, method: str, url: str, body: Any) -> None:
    if method == "get":
        documented(client.get(url))
    else:
        documented(getattr(client, method)(url, body, format="json"))


@pytest.fixture
def world():
    """Games of every engine (waiting and running, with their seat tokens), a tournament in
    registration, a running bracket and a running Genius season."""
    register_tiny()
    users = get_user_model().objects
    host = users.create_user("host")
    grant(host, ORGANISER)
    grant(host, STAFF_ADMIN)
    players = [users.create_user(f"p{i}") for i in range(1, 5)]

    clients = {"anonymous": APIClient(), "host": APIClient(), "player": APIClient()}
    clients["host"].force_authenticate(host)
    clients["player"].force_authenticate(players[0])
    games = []
    for engine, seats in (
        ("high_card", 2),
        ("color_clash", 2),
        ("dropmix", 2),
        ("drafting_trios", 2),
    ):
        for start in (False, True):
            created = clients["host"].post(
                "/api/games/",
                {"engine": engine, "seats": [{"kind": "human"}] * seats},
                format="json",
            )
            game = created.json()["game"]
            games.append(game)
            if not start:
                continue
            for number in range(seats):
                claimed = APIClient().post(
                    f"/api/games/{game}/seats/{number}/claim",
                    {"credential": "token", "invite": created.json()["invite"]},
                    format="json",
                )
                bot = APIClient()
                bot.credentials(HTTP_AUTHORIZATION=f"Seat {claimed.json()['token']}")
                clients[f"seat-{game}-{number}"] = bot
            assert clients["host"].post(f"/api/games/{game}/start").status_code == 200

    def tournament(slug: str, fmt: str, **fields):
        made = services.tournament_create(
            organiser=host, name=slug, slug=slug, game="high_card", format=fmt, **fields
        )
        services.registration_open(tournament=made, by=host)
        for rating, person in enumerate(players):
            services.entrant_register(tournament=made, user=person, rating=rating)
        services.seeding_apply(tournament=made, by=host, method="rating")
        return made

    tournament("open", "swiss")
    cup = tournament("cup", "single_elimination", play_online=False)
    services.stage_start(tournament=cup, by=host)
    season = tournament(
        "season",
        "genius",
        format_options={"ec_rule": "chosen_by_winners", "on_elimination": "to_dm_winner"},
    )
    seasons.season_start(tournament=season, by=host)
    return {"games": games, "slugs": ["open", "cup", "season"], "clients": clients, "made": 0}


def pick(data, world, prefix: str, paths: list[str], bodies: dict[str, st.SearchStrategy]):
    """Any client, method and path under ``prefix``; the body most often the endpoint's own."""
    client_name = data.draw(st.sampled_from(sorted(world["clients"])), label="client")
    template = data.draw(st.sampled_from(paths), label="path")
    parts = {
        "n": data.draw(st.integers(0, 3).map(str) | JUNK_PARTS, label="n"),
        "code": data.draw(st.sampled_from(["W1.1", "W1.2", "W2.1", "E1.DM1", "Z9"]) | JUNK_PARTS),
    }
    url = prefix + (template.format(**parts) if template else "")
    method = data.draw(st.sampled_from(["post", "post", "get", "put", "delete"]), label="method")
    body = data.draw(body_for(template, prefix, bodies), label="body")
    return world["clients"][client_name], method, url, body


def body_for(template: str, prefix: str, bodies: dict[str, st.SearchStrategy]):
    last = template.rsplit("/", 1)[-1] if template else ""
    key = "create" if not template and prefix.endswith("games/") else last
    return bodies.get(key, json_values) | json_values


# -- well-formed bodies with one or two values anywhere in them replaced by any JSON --------------
# Random bodies rarely get past the first field check; these reach every check behind it.

TC = ("time_control", "allowances")
TIME_CONTROL = [("time_control",), TC, (*TC, "turn"), (*TC, "draft"), ("time_control", "reserve"),
                ("time_control", "increment"), ("time_control", "policy")]  # fmt: skip
CONFIG = [("config",), *(("config", key) for key in CONFIG_KEYS)]
GAME = {"engine": "high_card", "seats": [{"kind": "human"}, {"kind": "human"}]}
WRITES: dict[str, tuple[dict, list[list[tuple]]]] = {
    "/api/games/": (
        GAME,
        [[("engine",)], [("grace_seconds",)], CONFIG, TIME_CONTROL,
         [("seats",), ("seats", 0), ("seats", 0, "kind"), ("seats", 1, "bot"), ("seats", 1)]],
    ),
    "/api/tournaments/": (
        {"name": "Cup", "slug": "fuzz", "game": "high_card", "format": "swiss"},
        [[("name",), ("slug",), ("game",), ("format",), ("description",), ("visibility",)],
         [("format_options",), *(("format_options", key) for key in FORMAT_KEYS)],
         [("ruleset",), *(("ruleset", key) for key in CONFIG_KEYS)], TIME_CONTROL,
         [("tiebreaks",), ("tiebreaks", 0), ("capacity",), ("best_of",), ("play_online",)],
         [("registration_opens",), ("registration_closes",), ("check_in_closes",)]],
    ),
    "/api/tournaments/season/episodes/1/main-match": (
        {"engine": "high_card"},
        [[("engine",), ("winners",), ("losers",)], CONFIG, TIME_CONTROL],
    ),
    "/api/tournaments/cup/matches/W1.1/result": (
        {"winner": None},
        [[("winner",), ("home_score",), ("away_score",), ("forfeit",), ("force",), ("reason",),
          ("dry_run",), ("resets",)]],
    ),
    "/api/tournaments/season/ledger": (
        {"kind": "award", "entrant": 1, "amount": 1, "reason": "prize"},
        [[("kind",), ("entrant",), ("amount",), ("reason",), ("to",)]],
    ),
    "/api/tournaments/open/seeding": (
        {"method": "manual", "order": [1, 2, 3, 4]},
        [[("method",), ("order",), ("order", 0)]],
    ),
}  # fmt: skip
"""Per write: a body it takes, and groups of places in it (one group, then one place, is drawn
for each change: the many config keys do not crowd out the rest)."""


def replaced(base: Any, path: tuple, value: Any) -> Any:
    """``base`` with the value at ``path`` (keys and list indexes) replaced by ``value``."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(base, list) and isinstance(head, int) and head < len(base):
        return [replaced(item, rest, value) if i == head else item for i, item in enumerate(base)]
    container = dict(base) if isinstance(base, dict) else {}
    container[head] = replaced(container.get(head, {}), rest, value)
    return container


@settings(EXAMPLES, max_examples=400)
@given(data=st.data())
def test_a_well_formed_write_with_any_value_anywhere_is_taken_or_refused_readably(world, data):
    url = data.draw(st.sampled_from(sorted(WRITES)), label="url")
    body, groups = WRITES[url]
    if "engine" in body or "game" in body:  # any engine, so that its own config checks run
        key = "engine" if "engine" in body else "game"
        body = {**body, key: data.draw(st.sampled_from(ENGINE_KEYS), label="engine")}
    for _ in range(data.draw(st.integers(1, 2), label="changes")):
        path = data.draw(st.sampled_from(data.draw(st.sampled_from(groups))), label="path")
        body = replaced(body, path, data.draw(json_values | ints, label="value"))
    if url == "/api/tournaments/":
        body = {**body, "slug": f"fuzz{world['made']}"} if body.get("slug") == "fuzz" else body
        world["made"] += 1
    send(world["clients"]["host"], "post", url, body)


@settings(EXAMPLES, max_examples=100)
@given(data=st.data())
def test_a_listed_move_with_any_value_anywhere_is_refused_readably(world, data):
    seats = sorted(name for name in world["clients"] if name.startswith("seat-"))
    name = data.draw(st.sampled_from(seats), label="seat")
    game, client = name.split("-")[1], world["clients"][name]
    legal = client.get(f"/api/games/{game}/legal").json().get("actions") or [{"type": "pass"}]
    action = data.draw(st.sampled_from(legal), label="legal")
    field = data.draw(st.sampled_from(sorted({*action, *ACTION_FIELDS})), label="field")
    body = {"action": {**action, field: data.draw(json_values | ints, label="value")}}
    send(client, "post", f"/api/games/{game}/actions", body)


@EXAMPLES
@given(data=st.data())
def test_the_games_api_answers_any_request_without_a_5xx(world, data):
    game = data.draw(st.sampled_from([*map(str, world["games"]), "abc", "0", "-1", "%00"]))
    prefix = data.draw(st.sampled_from([f"/api/games/{game}/", "/api/games/"]), label="prefix")
    paths = GAME_PATHS if prefix != "/api/games/" else [""]
    client, method, url, body = pick(data, world, prefix, paths, GAME_BODIES)
    send(client, method, url, body)


@EXAMPLES
@given(data=st.data())
def test_the_games_api_refuses_any_move_readably(world, data):
    seats = sorted(name for name in world["clients"] if name.startswith("seat-"))
    name = data.draw(st.sampled_from(seats), label="seat")
    game = name.split("-")[1]
    body = data.draw(GAME_BODIES["actions"] | json_values, label="body")
    send(world["clients"][name], "post", f"/api/games/{game}/actions", body)


@EXAMPLES
@given(data=st.data())
def test_the_tournaments_api_answers_any_request_without_a_5xx(world, data):
    slug = data.draw(st.sampled_from([*world["slugs"], "nope", "%00", "a" * 141]), label="slug")
    prefix = data.draw(st.sampled_from([f"/api/tournaments/{slug}/", "/api/tournaments/"]))
    paths = TOURNAMENT_PATHS if prefix != "/api/tournaments/" else [""]
    client, method, url, body = pick(data, world, prefix, paths, TOURNAMENT_BODIES)
    send(client, method, url, body)


@EXAMPLES
@given(data=st.data())
def test_every_tournament_step_refuses_its_organisers_bad_input_readably(world, data):
    slug = data.draw(st.sampled_from(world["slugs"]), label="slug")
    template = data.draw(st.sampled_from(TOURNAMENT_PATHS[1:]), label="path")
    parts = {"n": "1", "code": data.draw(st.sampled_from(["W1.1", "W1.2", "W2.1", "E1.DM1"]))}
    body = data.draw(body_for(template, "", TOURNAMENT_BODIES), label="body")
    client = world["clients"][data.draw(st.sampled_from(["host", "player"]), label="client")]
    send(client, "post", f"/api/tournaments/{slug}/{template.format(**parts)}", body)
