"""The OpenAPI 3 description of the API (drf-spectacular), served at ``/api/schema/``.

The views are plain ``APIView``s that parse with input serializers and answer hand-made
dicts, so drf-spectacular cannot guess their bodies. Rather than decorate every view where
it lives, each one is annotated here (an ``OpenApiViewExtension`` per view, the library's way
to describe views from outside): the request serializer the view already validates with, a
serializer describing the dict it answers, and the error responses it can give, all in the
one error shape of ``hosting.core.errors``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiViewExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers

from games import api as games_api
from games import fairness
from games.rooms import api as room_api
from hosting import api as ping
from hosting.accounts import api as token_api
from tournaments import api as tournaments_api
from tournaments.disputes import api as dispute_api
from tournaments.events import EVENTS
from tournaments.exports import api as export_api
from tournaments.exports import services as exports
from tournaments.views import audit as audit_views
from tournaments.webhooks import api as webhook_api

# -- the error shape ----------------------------------------------------------------------------


class Error(serializers.Serializer):
    error = serializers.CharField(help_text="a stable code: invalid, not_found, conflict, ...")
    detail = serializers.CharField(help_text="what went wrong, for a person to read")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="invalid input only: each field's problems, a list of messages (a nested "
        'field\'s: the same shape inside, e.g. {"seats": {"0": {"user": ["..."]}}})',
    )
    refusal = serializers.CharField(
        required=False,
        help_text="illegal_action only: the engine's stable code for the refusal, e.g. "
        "`not_your_turn` (the pages translate it; `detail` says it in English)",
    )
    params = serializers.DictField(
        required=False, help_text="illegal_action only: the values `detail` was filled with"
    )


ERRORS = {
    400: "invalid input (`invalid`, `parse_error`, `illegal_action`, `invalid_config`)",
    401: "a personal API token that is unknown or revoked (`not_authenticated`)",
    403: "not yours to do (`permission_denied`), or not signed in (`not_authenticated`)",
    404: "no such game, tournament, match, episode or page (`not_found`)",
    409: "right request, wrong moment (`conflict`, `stale_version`)",
    413: "the body is too large (`payload_too_large`)",
    415: "the body is not JSON (`unsupported_media_type`)",
    429: "too many requests (`throttled`); `Retry-After` says how long to wait",
}
READ_ERRORS = (401, 403, 404)
WRITE_ERRORS = (400, 401, 403, 404, 409, 415)


def _errors(codes: tuple[int, ...]) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(Error, description=ERRORS[code]) for code in codes}


def operation(
    response: Any,
    *,
    summary: str,
    request: Any = None,
    status: int = 200,
    errors: tuple[int, ...] = WRITE_ERRORS,
    description: str = "",
    parameters: list[OpenApiParameter] | None = None,
    operation_id: str | None = None,
) -> Any:
    """One operation: its body, its answer and the errors it may give."""
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        responses={status: response, **_errors(errors)},
        parameters=parameters,
        operation_id=operation_id,
    )


def annotate(view: type, **methods: Any) -> None:
    """Describe ``view``'s methods (``get=operation(...)``) without touching the view."""

    def view_replacement(self: OpenApiViewExtension) -> type:
        # A subclass carries the annotations, so the view that serves requests stays as is.
        return extend_schema_view(**methods)(type(view.__name__, (self.target,), {}))

    type(
        f"{view.__name__}Schema",
        (OpenApiViewExtension,),
        {"target_class": view, "view_replacement": view_replacement},
    )


class AutoSchema(openapi.AutoSchema):
    """Session writes also carry the CSRF token; game endpoints also take a seat token."""

    def get_auth(self) -> list[dict[str, list[str]]]:
        auth = super().get_auth()
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            auth = [{**a, "csrfToken": []} if "cookieAuth" in a else a for a in auth]
        if any(cls.__module__ == games_api.__name__ for cls in type(self.view).__mro__):
            auth.insert(len(auth) - 1 if {} in auth else len(auth), {"seatToken": []})
        return auth


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "hosting.core.bearer.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "`Authorization: Bearer <token>`: a personal API token, acting as "
            "its user (no CSRF). Unknown or revoked: 401 `not_authenticated`.",
        }


# -- bodies the views answer --------------------------------------------------------------------


def _object(name: str, help_text: str = "") -> serializers.DictField:
    return serializers.DictField(help_text=help_text or name)


class GameSeat(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["human", "computer"])
    role = serializers.CharField()
    claimed = serializers.BooleanField()
    connected = serializers.BooleanField()
    client_seed = serializers.CharField(help_text='its part of the deal; "" when it sent none')


class Game(serializers.Serializer):
    game = serializers.IntegerField()
    engine = serializers.CharField()
    status = serializers.ChoiceField(choices=["waiting", "running", "finished", "aborted"])
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="your seat; null: a spectator")
    seed_sha256 = serializers.CharField(
        help_text="commits to the secret server seed, from the game's creation"
    )
    seats = GameSeat(many=True)
    time_control = _object("time_control")
    clocks = serializers.DictField(
        required=False, help_text="each seat's remaining allowance and reserve (once started)"
    )
    windows = serializers.ListField(child=_object("window"), required=False)
    view = serializers.DictField(
        required=False,
        help_text="the engine's view for your seat (spectators: the public view), once started",
    )
    legal = serializers.ListField(
        child=_object("action"), required=False, help_text="your legal actions (a seat, running)"
    )
    outcome = serializers.DictField(required=False, help_text="once ended")
    seed = serializers.CharField(required=False, help_text="revealed once ended")
    seed_window_ends = serializers.FloatField(
        required=False,
        help_text="waiting for the seats' client seeds: the deal is made when all have sent "
        "one, or at this time (Unix seconds) at the latest",
    )
    invite = serializers.CharField(required=False, help_text="the creator only")
    invite_url = serializers.URLField(required=False, help_text="the creator only")


class Claim(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="the seat token, shown only here")
    state = Game()


class ClaimInput(serializers.Serializer):
    invite = serializers.CharField(required=False, help_text="the game's invite secret")
    credential = serializers.ChoiceField(choices=["session", "token"], default="session")
    client_seed = serializers.RegexField(
        f"^{fairness.CLIENT_SEED_PATTERN}$",
        required=False,
        help_text="your part of the deal: 1-64 of A-Z a-z 0-9 - _ . : + / =, before the start; "
        "after it: 409 deal_fixed",
    )


class ClientSeedInput(serializers.Serializer):
    client_seed = serializers.RegexField(
        f"^{fairness.CLIENT_SEED_PATTERN}$",
        help_text="your seat's part of the deal: 1-64 of A-Z a-z 0-9 - _ . : + / =",
    )


class ActionInput(serializers.Serializer):
    action = _object("action", "one of the engine's actions, e.g. from /legal")
    client_action_id = serializers.CharField(required=False, max_length=64)
    expected_version = serializers.IntegerField(required=False, min_value=0)


class ActionResult(serializers.Serializer):
    version = serializers.IntegerField()
    repeated = serializers.BooleanField(help_text="the same client_action_id was applied before")
    state = Game()


class SeatToken(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField()


class Legal(serializers.Serializer):
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    actions = serializers.ListField(child=_object("action"))


class LogEvent(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = _object("action")
    events = serializers.ListField(child=_object("event"))
    at = serializers.FloatField()


class GameLog(serializers.Serializer):
    game = serializers.IntegerField()
    engine = serializers.CharField()
    config = _object("config")
    seed = serializers.CharField()
    seed_sha256 = serializers.CharField()
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_blank=True), help_text="in seat order"
    )
    effective_seed = serializers.CharField(help_text="what the deal drew from (games.fairness)")
    outcome = _object("outcome")
    log = LogEvent(many=True)


class VerifiedClientSeed(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    client_seed = serializers.CharField()


class PublicLogEntry(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the game's version after this action")
    seat = serializers.IntegerField(allow_null=True, help_text="who acted; null: the server")
    events = serializers.ListField(
        child=_object("event"),
        help_text="the public events, each with its `type`, the fields anyone may see and "
        "`line`, the code of its sentence",
    )


class PublicLog(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    log = PublicLogEntry(many=True)


class Verification(serializers.Serializer):
    game = serializers.IntegerField()
    verified = serializers.BooleanField()
    seed = serializers.CharField()
    seed_sha256 = serializers.CharField()
    seed_matches_commitment = serializers.BooleanField()
    construction = serializers.CharField(help_text="how the effective seed was derived")
    client_seeds = VerifiedClientSeed(many=True)
    client_seed_message = serializers.CharField(
        allow_null=True, help_text="the HMAC's message: the client seeds as a JSON array"
    )
    effective_seed = serializers.CharField(help_text="recomputed from the seeds above")
    effective_seed_matches = serializers.BooleanField(help_text="the one the game dealt from")
    replayed_actions = serializers.IntegerField()
    final_state_matches = serializers.BooleanField()
    continued_from = serializers.DictField(
        allow_null=True, help_text='a game continued from another: {"game": id, "seq": n}'
    )


class EntrantOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    eliminated_in = serializers.CharField(allow_null=True)


class Side(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MatchOut(serializers.Serializer):
    code = serializers.CharField(help_text='e.g. "W1.2", "L2.1", "GF"')
    bracket = serializers.CharField()
    round = serializers.IntegerField()
    slots = serializers.ListField(
        child=serializers.JSONField(),
        help_text='who fills each side: a seed (1), a reference ("W1.2:winner"), or null (a bye)',
    )
    home = Side(allow_null=True)
    away = Side(allow_null=True)
    best_of = serializers.IntegerField()
    status = serializers.CharField()
    result_kind = serializers.CharField()
    home_score = serializers.FloatField(allow_null=True)
    away_score = serializers.FloatField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    games = serializers.ListField(child=serializers.IntegerField(), help_text="hosted games")
    voided_games = serializers.ListField(child=serializers.IntegerField())


class RoundOut(serializers.Serializer):
    bracket = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    matches = MatchOut(many=True)


class StageOut(serializers.Serializer):
    number = serializers.IntegerField()
    format = serializers.CharField()
    status = serializers.CharField()
    total_rounds = serializers.IntegerField(allow_null=True)
    rounds = RoundOut(many=True)


class DeathMatchSetup(serializers.Serializer):
    engine = serializers.CharField()
    config = _object("config", "The engine's config")
    time_control = _object("time_control", "Allowance and reserve per phase")


class Episode(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    mm_prompt = serializers.CharField()
    mm_deadline = serializers.DateTimeField(allow_null=True)
    mm_revealed = serializers.BooleanField()
    mm_game = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    losers = serializers.ListField(child=serializers.IntegerField())
    ecs = serializers.ListField(child=serializers.IntegerField())
    dmos = serializers.ListField(child=serializers.IntegerField())
    tokens = _object("tokens")
    tokens_to_give = serializers.IntegerField()
    dmo_deadline = serializers.DateTimeField(allow_null=True)
    death_match = DeathMatchSetup(
        allow_null=True, help_text="The Death Match's own game; null: the tournament's"
    )


class TournamentSummary(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    organiser = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    visibility = serializers.CharField()
    capacity = serializers.IntegerField(allow_null=True)
    registration_opens = serializers.DateTimeField(allow_null=True)
    registration_closes = serializers.DateTimeField(allow_null=True)


class TournamentRow(TournamentSummary):
    entrant_count = serializers.IntegerField()


class TournamentPage(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TournamentRow(many=True)


class TournamentDetail(TournamentSummary):
    description = serializers.CharField()
    ruleset = _object("ruleset")
    time_control = _object("time_control")
    format_options = _object("format_options")
    tiebreaks = serializers.ListField(child=serializers.CharField())
    tiebreak_regulations = serializers.CharField()
    best_of = serializers.IntegerField()
    play_online = serializers.BooleanField()
    seed_window_seconds = serializers.IntegerField(
        help_text="how long a match game waits for its players' client seeds; 0: deals at once"
    )
    check_in_opens = serializers.DateTimeField(allow_null=True)
    check_in_closes = serializers.DateTimeField(allow_null=True)
    entrants = EntrantOut(many=True)
    stages = StageOut(many=True)
    episodes = Episode(many=True, required=False, help_text="Genius seasons only")
    balances = serializers.DictField(
        required=False, help_text="Genius seasons only: each entrant's currency"
    )


class SeedingOut(serializers.Serializer):
    entrants = EntrantOut(many=True)


class DryRun(serializers.Serializer):
    dry_run = serializers.BooleanField()
    match = serializers.CharField()
    resets = serializers.ListField(child=serializers.CharField())
    refills = serializers.ListField(child=serializers.CharField())
    later_rounds_kept = serializers.ListField(child=serializers.CharField())


class Standings(serializers.Serializer):
    ranking = serializers.CharField(help_text="the format whose placements rank, or points")
    regulations = serializers.CharField(help_text="the tie-break regulations applied")
    standings = serializers.ListField(
        child=_object("row", "rank, entrant, name, points, tie-breaks, eliminated_in, ...")
    )


class AuditRow(serializers.Serializer):
    action = serializers.CharField()
    actor = serializers.CharField(allow_null=True)
    target = serializers.CharField(help_text="what it concerns: match:W1.1, dispute:4, ...")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    data = _object("data")
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class AuditPage(TournamentPage):
    results = AuditRow(many=True)


class AuditLogRow(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    tournament = serializers.CharField(allow_null=True, help_text="its slug; null: the service")
    actor = serializers.CharField(allow_null=True, help_text="username; null: the system")
    action = serializers.CharField(help_text="dotted by its owner: disputes.ruled, ...")
    target = serializers.CharField(help_text="what it concerns: match:W1.1, dispute:4, ...")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    data = _object("data")
    reason = serializers.CharField()


class AuditLogPage(TournamentPage):
    results = AuditLogRow(many=True)


class DisputeComment(serializers.Serializer):
    author = serializers.CharField()
    role = serializers.CharField(help_text="party, organiser or staff")
    text = serializers.CharField()
    at = serializers.DateTimeField()


class DisputeOut(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.CharField(help_text="the tournament's slug")
    match = serializers.CharField(help_text="the match's code")
    home = serializers.CharField(allow_null=True)
    away = serializers.CharField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    filed_by = serializers.CharField()
    filed_at = serializers.DateTimeField()
    reason = serializers.CharField()
    moves = serializers.ListField(child=serializers.IntegerField(), help_text="log seq numbers")
    evidence = serializers.CharField()
    status = serializers.CharField(help_text="open, assigned, ruled or withdrawn")
    assignee = serializers.CharField(allow_null=True)
    paused_game = serializers.BooleanField()
    ruling = serializers.CharField(allow_null=True)
    ruling_reason = serializers.CharField()
    ruling_data = _object("ruling_data", "winner, resets, new_game, ... as the ruling applied")
    ruled_by = serializers.CharField(allow_null=True)
    ruled_at = serializers.DateTimeField(allow_null=True)
    comments = DisputeComment(many=True)


class DisputePage(TournamentPage):
    results = DisputeOut(many=True)


class DisputeResumed(DisputeOut):
    paused_seconds = serializers.FloatField()


class RulingDryRun(serializers.Serializer):
    dry_run = serializers.BooleanField()
    ruling = serializers.CharField()
    resets = serializers.ListField(child=serializers.CharField())
    refills = serializers.ListField(child=serializers.CharField())


class DisputeSteps(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    engine = serializers.CharField(required=False)
    status = serializers.CharField(required=False)
    paused = serializers.BooleanField(required=False)
    origin = _object("origin", "a continued game: the game and event it started from")
    seats = serializers.ListField(child=_object("seat", "number, name, kind, role"))
    steps = serializers.ListField(
        child=_object("step", "number, seat, action, at, thought, view, own, clocks, state")
    )
    fairness = _object("fairness", "seed_sha256; after the end the seed and verified")


class Submission(serializers.Serializer):
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    text = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class Submissions(serializers.Serializer):
    revealed = serializers.BooleanField()
    submissions = Submission(many=True)


class Balances(serializers.Serializer):
    balances = _object("balances", "each entrant's currency")


class Token(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="the token's first characters, to recognise it")
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True, help_text="to the minute")
    revoked_at = serializers.DateTimeField(allow_null=True)


class NewToken(Token):
    token = serializers.CharField(help_text="the secret: shown only here, never again")


class Tokens(serializers.Serializer):
    tokens = Token(many=True)


class ExportedGame(serializers.Serializer):
    game = serializers.IntegerField()
    engine = serializers.CharField()
    status = serializers.CharField(required=False, help_text="a game not over yet")
    seed = serializers.CharField(required=False, help_text="an ended game")
    seed_sha256 = serializers.CharField(required=False)
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_blank=True), required=False, help_text="an ended game"
    )
    effective_seed = serializers.CharField(required=False, help_text="an ended game")
    config = serializers.DictField(required=False, help_text="an ended game")
    outcome = serializers.DictField(required=False, help_text="an ended game")
    log = LogEvent(many=True, allow_null=True, help_text="null while the game is played")
    spectator_view = Game(required=False, help_text="a game not over: what spectators see")


class ExportMatch(MatchOut):
    stage = serializers.IntegerField()


class Export(serializers.Serializer):
    export_version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    tournament = _object("tournament", "the detail's fields, without entrants and stages")
    entrants = EntrantOut(many=True)
    stages = serializers.ListField(child=_object("stage"))
    matches = ExportMatch(many=True)
    standings = Standings()
    games = ExportedGame(many=True)


class BracketsViewer(serializers.Serializer):
    """brackets-model's tables (brackets-viewer.js, brackets-manager.js)."""

    stages = serializers.ListField(child=_object("stage"))
    groups = serializers.ListField(child=_object("group"))
    rounds = serializers.ListField(child=_object("round"))
    matches = serializers.ListField(child=_object("match", "opponent1/opponent2: null is a bye"))
    matchGames = serializers.ListField(child=_object("match game"))  # their name, camelCase
    participants = serializers.ListField(child=_object("participant"))


class RoomMemberOut(serializers.Serializer):
    name = serializers.CharField(help_text="the room name: the account's, a guest's animal name")
    ready = serializers.BooleanField()
    host = serializers.BooleanField()
    you = serializers.BooleanField()
    id = serializers.IntegerField(required=False, help_text="the host's view only: to remove")


class RoomTotal(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()


class RoomOut(serializers.Serializer):
    code = serializers.CharField(help_text="six letters")
    kind = serializers.ChoiceField(choices=["private", "quick", "practice"])
    status = serializers.ChoiceField(choices=["open", "playing", "closed"])
    mode = serializers.CharField()
    match = serializers.CharField()
    turn_seconds = serializers.IntegerField()
    computers = serializers.IntegerField()
    players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    member = serializers.BooleanField(help_text="whether you are in the room (else: no names)")
    url = serializers.URLField(help_text="the share link")
    members = RoomMemberOut(many=True, required=False)
    host = serializers.BooleanField(required=False)
    game = serializers.IntegerField(required=False, allow_null=True, help_text="the current game")
    game_url = serializers.URLField(required=False)
    rounds = serializers.ListField(child=_object("round"), required=False)
    totals = RoomTotal(many=True, required=False, help_text="match totals over finished games")


class Webhook(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENTS))
    active = serializers.BooleanField()
    discord = serializers.BooleanField(help_text="a Discord channel: sent readable messages")
    created = serializers.DateTimeField()


class WebhookWithSecret(Webhook):
    secret = serializers.CharField(help_text="whsec_…: the key of its signatures")


class Webhooks(serializers.Serializer):
    webhooks = Webhook(many=True)


class Delivery(serializers.Serializer):
    id = serializers.IntegerField()
    message_id = serializers.CharField(help_text="the webhook-id header, the same on retries")
    event = serializers.CharField(help_text="one of the events, or webhook.test")
    status = serializers.ChoiceField(choices=["pending", "retrying", "delivered", "failed"])
    attempts = serializers.IntegerField()
    response_code = serializers.IntegerField(allow_null=True, help_text="of the last attempt")
    error = serializers.CharField(help_text="why the last attempt failed; empty if it did not")
    created = serializers.DateTimeField()
    last_attempt_at = serializers.DateTimeField(allow_null=True)
    delivered_at = serializers.DateTimeField(allow_null=True)
    payload = _object("payload", "the event as sent: type, timestamp, data")


class DeliveryPage(TournamentPage):
    results = Delivery(many=True)


class Pong(serializers.Serializer):
    pong = serializers.BooleanField()


# -- the operations -----------------------------------------------------------------------------

THROTTLED = (*WRITE_ERRORS, 429)
REGULATIONS = OpenApiParameter(
    "regulations", str, description="another tie-break regulations version, to compare"
)
PAGE = OpenApiParameter("page", int, description="the page (50 rows each)")

g, t = games_api, tournaments_api
annotate(
    token_api.TokenListView,
    get=operation(Tokens, summary="Your personal API tokens", errors=(401, 403)),
    post=operation(
        NewToken,
        request=token_api.ApiTokenInput,
        status=201,
        errors=(400, 401, 403, 415),
        summary="Make a personal API token (signed in by session)",
        description="An API token cannot make another: a bearer request is a 403.",
    ),
)
annotate(
    token_api.TokenDetailView,
    delete=operation(Token, summary="Revoke one of your tokens", errors=(401, 403, 404)),
)
annotate(ping.PingView, get=operation(Pong, summary="Liveness", errors=()))
annotate(
    g.GameCreateView,
    post=operation(
        Game,
        request=g.GameCreateInput,
        status=201,
        errors=(*THROTTLED, 413),
        summary="Create a game (organisers)",
    ),
)
annotate(
    g.GameDetailView,
    get=operation(Game, summary="A game as your seat sees it", errors=READ_ERRORS),
)
annotate(
    g.SeatClaimView,
    post=operation(Claim, request=ClaimInput, status=201, errors=THROTTLED, summary="Claim a seat"),
)
annotate(
    g.ClientSeedView,
    post=operation(
        Game,
        request=ClientSeedInput,
        errors=THROTTLED,
        summary="Send your seat's client seed (before the start)",
        description="For a seat you already hold, e.g. a tournament's: in a seed window the "
        "last seed awaited deals at once. After the start: 409 `deal_fixed`.",
    ),
)
annotate(g.GameStartView, post=operation(Game, summary="Deal and start the clocks"))
annotate(
    g.GameActionView,
    post=operation(
        ActionResult, request=ActionInput, errors=(*THROTTLED, 413), summary="Act in your seat"
    ),
)
annotate(
    g.SeatTokenView,
    post=operation(SeatToken, summary="A fresh bot token for the seat you hold"),
)
annotate(g.SeatLeaveView, post=operation(Game, summary="Leave; a substitute takes over"))
annotate(
    g.LegalActionsView,
    get=operation(Legal, summary="Your legal actions now", errors=READ_ERRORS),
)
annotate(
    g.GameLogView,
    get=operation(GameLog, summary="The full log and seed, once ended", errors=(*READ_ERRORS, 409)),
)
annotate(
    g.PublicLogView,
    get=operation(
        PublicLog, summary="What anyone may read of every move so far", errors=READ_ERRORS
    ),
)
annotate(
    g.GameVerifyView,
    get=operation(
        Verification, summary="Replay and check an ended game", errors=(*READ_ERRORS, 409)
    ),
)

r = room_api
annotate(
    r.RoomCreateView,
    post=operation(
        RoomOut, request=r.RoomInput, status=201, errors=THROTTLED, summary="Make a private room"
    ),
)
annotate(
    r.RoomDetailView,
    get=operation(
        RoomOut,
        summary="A room by its code (wrong codes are throttled)",
        errors=(*READ_ERRORS, 429),
    ),
)
annotate(
    r.RoomJoinView, post=operation(RoomOut, errors=THROTTLED, summary="Join a room by its code")
)
annotate(
    r.RoomReadyView,
    post=operation(RoomOut, request=r.ReadyInput, errors=THROTTLED, summary="Mark yourself ready"),
)
annotate(
    r.RoomRemoveView,
    post=operation(
        RoomOut, request=r.RemoveInput, errors=THROTTLED, summary="Remove a player (the host)"
    ),
)
annotate(r.RoomLeaveView, post=operation(RoomOut, errors=THROTTLED, summary="Leave the room"))
annotate(
    r.RoomStartView, post=operation(RoomOut, errors=THROTTLED, summary="Start a game (the host)")
)
annotate(
    r.PracticeView,
    post=operation(
        RoomOut,
        request=r.PracticeInput,
        status=201,
        errors=THROTTLED,
        summary="Practice against 1 to 5 computers",
    ),
)
annotate(
    r.QuickMatchView,
    post=operation(RoomOut, status=201, errors=THROTTLED, summary="Join the Quick match queue"),
)

annotate(
    t.TournamentListView,
    get=operation(
        TournamentPage,
        summary="Public tournaments",
        errors=(401, 404),
        parameters=[PAGE],
        operation_id="tournaments_list",
    ),
    post=operation(
        TournamentDetail,
        request=t.TournamentCreateInput,
        status=201,
        summary="Create a tournament",
    ),
)
annotate(
    t.TournamentDetailView,
    get=operation(TournamentDetail, summary="A tournament: entrants, bracket", errors=READ_ERRORS),
)
for view, summary in (
    (t.RegistrationOpenView, "Open registration"),
    (t.CheckInOpenView, "Open check-in"),
    (t.StartView, "Start the tournament (or season)"),
    (t.NextRoundView, "Pair and start a Swiss's next round"),
):
    annotate(view, post=operation(TournamentDetail, summary=summary))
annotate(
    t.SeedingView,
    post=operation(SeedingOut, request=t.SeedingInput, summary="Seed the entrants"),
)
annotate(
    t.RegisterView,
    post=operation(EntrantOut, request=t.RegisterInput, status=201, summary="Register yourself"),
)
annotate(
    t.WithdrawView,
    post=operation(EntrantOut, request=t.WithdrawInput, summary="Withdraw (an entrant)"),
)
annotate(t.CheckInView, post=operation(EntrantOut, summary="Check in"))
annotate(
    t.MatchResultView,
    post=operation(
        PolymorphicProxySerializer(
            component_name="ResultOutcome",
            serializers=[MatchOut, DryRun],
            resource_type_field_name=None,
            help_text="the match as it now stands; a dry run answers its plan instead",
        ),
        request=t.ResultInput,
        summary="Report (or correct) a match result",
    ),
)
annotate(
    t.StandingsView,
    get=operation(
        Standings, summary="Standings", errors=(400, *READ_ERRORS), parameters=[REGULATIONS]
    ),
)
annotate(
    t.AuditView,
    get=operation(
        AuditPage, summary="The audit trail (organisers)", parameters=[PAGE], errors=READ_ERRORS
    ),
)
DISPUTE_FILTERS = [
    PAGE,
    OpenApiParameter("status", str, enum=["pending", "open", "assigned", "ruled", "withdrawn"]),
    OpenApiParameter("tournament", str, description="a tournament's slug"),
    OpenApiParameter("assignee", str, description="a staff admin's username, or none"),
]
annotate(
    dispute_api.DisputeListView,
    get=operation(
        DisputePage,
        summary="Disputes you may read (yours, your tournaments', or all for staff admins)",
        parameters=DISPUTE_FILTERS,
        operation_id="disputes_list",
        errors=(400, *READ_ERRORS),
    ),
    post=operation(
        DisputeOut,
        request=dispute_api.FileInput,
        status=201,
        summary="File a dispute on a match or one of its games (a party or the organiser)",
    ),
)
annotate(
    dispute_api.DisputeDetailView,
    get=operation(DisputeOut, summary="A dispute", errors=READ_ERRORS),
)
annotate(
    dispute_api.WithdrawView,
    post=operation(DisputeOut, summary="Withdraw your dispute (until an admin takes it)"),
)
annotate(
    dispute_api.AssignView,
    post=operation(
        DisputeOut, request=dispute_api.AssignInput, summary="Take or assign (staff admins)"
    ),
)
annotate(
    dispute_api.CommentView,
    post=operation(
        DisputeOut,
        request=dispute_api.CommentInput,
        status=201,
        summary="A statement (parties) or a comment (organiser, staff admins)",
    ),
)
annotate(
    dispute_api.ResumeView,
    post=operation(DisputeResumed, summary="Resume the paused game's clocks (staff admins)"),
)
annotate(
    dispute_api.RulingView,
    post=operation(
        PolymorphicProxySerializer(
            component_name="RulingOutcome",
            serializers=[DisputeOut, RulingDryRun],
            resource_type_field_name=None,
            help_text="the ruled dispute; a dry run answers what the ruling would reset",
        ),
        request=dispute_api.RulingInput,
        summary="Rule on a dispute (staff admins), after a dry run listing its resets",
    ),
)
annotate(
    dispute_api.StepsView,
    get=operation(
        DisputeSteps,
        summary="The disputed game step by step with its full state (staff admins)",
        errors=READ_ERRORS,
    ),
)
annotate(
    audit_views.AuditLogView,
    get=operation(
        AuditLogPage,
        summary="The service's audit log (organisers: their tournaments; staff admins: all)",
        parameters=[
            PAGE,
            OpenApiParameter("tournament", str, description="a tournament's slug"),
            OpenApiParameter("action", str, description="actions starting with this"),
            OpenApiParameter("actor", str, description="the actor's username"),
            OpenApiParameter("target", str, description="e.g. match:W1.1 or dispute:4"),
            OpenApiParameter("since", str, description="ISO 8601 date and time"),
            OpenApiParameter("until", str, description="ISO 8601 date and time"),
        ],
        errors=(400, *READ_ERRORS),
    ),
)
annotate(
    export_api.ExportJSONView,
    get=operation(
        PolymorphicProxySerializer(
            component_name="TournamentExport",
            serializers=[Export, BracketsViewer],
            resource_type_field_name=None,
        ),
        summary="Export everything public: entrants, matches, standings, games' logs",
        description="With `?format=brackets-viewer`: the bracket in brackets-viewer.js's model.",
        errors=(400, *READ_ERRORS),
        parameters=[OpenApiParameter("format", str, enum=["brackets-viewer"])],
    ),
)
annotate(
    export_api.ExportCSVView,
    get=extend_schema(
        summary="Export one table as CSV",
        parameters=[
            OpenApiParameter("table", str, enum=list(exports.TABLES), required=True),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="a header row, then one row per record"
            ),
            **_errors((400, *READ_ERRORS)),
        },
    ),
)
annotate(
    t.LedgerView,
    post=operation(
        Balances, request=t.LedgerInput, status=201, summary="Record a season ledger entry"
    ),
)
annotate(
    t.SealedOpenView,
    post=operation(Episode, request=t.SealedOpenInput, summary="Open a sealed main match"),
)
annotate(
    t.SealedSubmitView,
    post=operation(
        Submission, request=t.SealedSubmitInput, status=201, summary="Submit a sealed answer"
    ),
)
annotate(
    t.SubmissionsView,
    get=operation(
        Submissions, summary="Sealed answers (yours until the reveal)", errors=READ_ERRORS
    ),
)
annotate(t.SealedRevealView, post=operation(Submissions, summary="Reveal the sealed answers"))
annotate(
    t.MainMatchView,
    post=operation(Episode, request=t.MainMatchInput, summary="Main match: result or game"),
)
annotate(
    t.CandidatesView,
    post=operation(Episode, request=t.CandidatesInput, summary="Choose elimination candidates"),
)
annotate(
    t.TokenView,
    post=operation(Episode, request=t.TokenInput, summary="Give a token"),
)
annotate(
    t.DeathMatchSetupView,
    post=operation(
        Episode,
        request=t.DeathMatchSetupInput,
        summary="Set the Death Match's game, time control and DMO-pick deadline",
    ),
)
annotate(
    t.OpponentView,
    post=operation(Episode, request=t.OpponentInput, summary="Choose the Death Match opponent"),
)

w = webhook_api
annotate(
    w.WebhookListView,
    get=operation(
        Webhooks,
        summary="The tournament's webhooks (organisers)",
        errors=READ_ERRORS,
        operation_id="tournaments_webhooks_list",
    ),
    post=operation(
        WebhookWithSecret,
        request=w.WebhookInput,
        status=201,
        summary="Add a webhook (organisers)",
        description="A URL on a private or loopback address is refused in production; a "
        "Discord channel's webhook URL is sent readable messages.",
    ),
)
annotate(
    w.WebhookDetailView,
    get=operation(WebhookWithSecret, summary="A webhook and its secret", errors=READ_ERRORS),
    patch=operation(Webhook, request=w.WebhookChangeInput, summary="Change a webhook"),
    delete=operation(
        Webhook, errors=(401, 403, 404), summary="Delete a webhook (and its delivery log)"
    ),
)
annotate(
    w.WebhookTestView,
    post=operation(
        Delivery, status=202, errors=(401, 403, 404), summary="Send a webhook.test event"
    ),
)
annotate(
    w.WebhookDeliveriesView,
    get=operation(
        DeliveryPage,
        summary="A webhook's deliveries, newest first",
        parameters=[PAGE],
        errors=READ_ERRORS,
    ),
)
