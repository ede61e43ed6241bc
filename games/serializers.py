"""The games API's bodies as the OpenAPI document describes them (``games.api`` decorates
each view with them): the dicts ``games.payloads`` and the views answer, and the inputs the
views check by hand rather than through a serializer (``ClaimInput``, ``ClientSeedInput``,
``ActionInput``)."""

from __future__ import annotations

from rest_framework import serializers

from games import fairness
from games.models import Seat
from hosting.core.openapi import json_object
from hosting.core.validation import Pattern, Text, Url


class GameSeat(serializers.Serializer):
    number = serializers.IntegerField()
    name = Text()
    # A substitute is the computer playing a seat its person left (``games.services.substitutes``).
    kind = serializers.ChoiceField(choices=Seat.Kind.values)
    role = Text()
    claimed = serializers.BooleanField()
    connected = serializers.BooleanField()
    client_seed = Text(help_text='its part of the deal; "" when it sent none')


class Game(serializers.Serializer):
    game = serializers.IntegerField()
    engine = Text()
    status = serializers.ChoiceField(choices=["waiting", "running", "finished", "aborted"])
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="your seat; null: a spectator")
    seed_sha256 = Text(help_text="commits to the secret server seed, from the game's creation")
    seats = GameSeat(many=True)
    time_control = json_object("time_control")
    clocks = serializers.DictField(
        required=False, help_text="each seat's remaining allowance and reserve (once started)"
    )
    windows = serializers.ListField(child=json_object("window"), required=False)
    view = serializers.DictField(
        required=False,
        help_text="the engine's view for your seat (spectators: the public view), once started",
    )
    legal = serializers.ListField(
        child=json_object("action"),
        required=False,
        help_text="your legal actions (a seat, running)",
    )
    outcome = serializers.DictField(required=False, help_text="once ended")
    seed = Text(required=False, help_text="revealed once ended")
    seed_window_ends = serializers.FloatField(
        required=False,
        help_text="waiting for the seats' client seeds: the deal is made when all have sent "
        "one, or at this time (Unix seconds) at the latest",
    )
    invite = Text(required=False, help_text="the creator only")
    invite_url = Url(required=False, help_text="the creator only")


class Claim(serializers.Serializer):
    seat = serializers.IntegerField()
    token = Text(help_text="the seat token, shown only here")
    state = Game()


class ClaimInput(serializers.Serializer):
    invite = Text(required=False, help_text="the game's invite secret")
    credential = serializers.ChoiceField(choices=["session", "token"], default="session")
    client_seed = Pattern(
        f"^{fairness.CLIENT_SEED_PATTERN}$",
        required=False,
        help_text="your part of the deal: 1-64 of A-Z a-z 0-9 - _ . : + / =, before the start; "
        "after it: 409 deal_fixed",
    )


class ClientSeedInput(serializers.Serializer):
    client_seed = Pattern(
        f"^{fairness.CLIENT_SEED_PATTERN}$",
        help_text="your seat's part of the deal: 1-64 of A-Z a-z 0-9 - _ . : + / =",
    )


class ActionInput(serializers.Serializer):
    action = json_object("action", "one of the engine's actions, e.g. from /legal")
    client_action_id = Text(required=False, max_length=64)
    expected_version = serializers.IntegerField(required=False, min_value=0)


class ActionResult(serializers.Serializer):
    version = serializers.IntegerField()
    repeated = serializers.BooleanField(help_text="the same client_action_id was applied before")
    state = Game()


class SeatToken(serializers.Serializer):
    seat = serializers.IntegerField()
    token = Text()


class Legal(serializers.Serializer):
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    actions = serializers.ListField(child=json_object("action"))


class LogEvent(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    action = json_object("action")
    events = serializers.ListField(child=json_object("event"))
    at = serializers.FloatField()


class GameLog(serializers.Serializer):
    game = serializers.IntegerField()
    engine = Text()
    config = json_object("config")
    seed = Text()
    seed_sha256 = Text()
    client_seeds = serializers.ListField(child=Text(allow_blank=True), help_text="in seat order")
    effective_seed = Text(help_text="what the deal drew from (games.fairness)")
    outcome = json_object("outcome")
    log = LogEvent(many=True)


class VerifiedClientSeed(serializers.Serializer):
    seat = serializers.IntegerField()
    name = Text()
    client_seed = Text()


class PublicLogEntry(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the game's version after this action")
    seat = serializers.IntegerField(allow_null=True, help_text="who acted; null: the server")
    events = serializers.ListField(
        child=json_object("event"),
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
    seed = Text()
    seed_sha256 = Text()
    seed_matches_commitment = serializers.BooleanField()
    construction = Text(help_text="how the effective seed was derived")
    client_seeds = VerifiedClientSeed(many=True)
    client_seed_message = Text(
        allow_null=True, help_text="the HMAC's message: the client seeds as a JSON array"
    )
    effective_seed = Text(help_text="recomputed from the seeds above")
    effective_seed_matches = serializers.BooleanField(help_text="the one the game dealt from")
    replayed_actions = serializers.IntegerField()
    final_state_matches = serializers.BooleanField()
    continued_from = serializers.DictField(
        allow_null=True, help_text='a game continued from another: {"game": id, "seq": n}'
    )
