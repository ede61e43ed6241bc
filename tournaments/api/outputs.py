"""The tournament's answers as the OpenAPI document describes them, where more than one
module answers them (the tournament, its entrants and matches, an episode, a page of rows,
the standings): the dicts of ``tournaments.payloads`` and ``selectors.detail``."""

from __future__ import annotations

from rest_framework import serializers

from hosting.core.openapi import json_object
from hosting.core.validation import Slug, Text, Url


class EntrantOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = Text()
    status = Text()
    seed = serializers.IntegerField(allow_null=True)
    eliminated_in = Text(allow_null=True)


class Side(serializers.Serializer):
    id = serializers.IntegerField()
    name = Text()


class MatchOut(serializers.Serializer):
    code = Text(help_text='e.g. "W1.2", "L2.1", "GF"')
    bracket = Text()
    round = serializers.IntegerField()
    slots = serializers.ListField(
        child=serializers.JSONField(),
        help_text='who fills each side: a seed (1), a reference ("W1.2:winner"), or null (a bye)',
    )
    home = Side(allow_null=True)
    away = Side(allow_null=True)
    best_of = serializers.IntegerField()
    status = Text()
    result_kind = Text()
    home_score = serializers.FloatField(allow_null=True)
    away_score = serializers.FloatField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    games = serializers.ListField(child=serializers.IntegerField(), help_text="hosted games")
    voided_games = serializers.ListField(child=serializers.IntegerField())


class RoundOut(serializers.Serializer):
    bracket = Text()
    number = serializers.IntegerField()
    status = Text()
    matches = MatchOut(many=True)


class StageOut(serializers.Serializer):
    number = serializers.IntegerField()
    format = Text()
    status = Text()
    total_rounds = serializers.IntegerField(allow_null=True)
    rounds = RoundOut(many=True)


class DeathMatchSetup(serializers.Serializer):
    engine = Text()
    config = json_object("config", "The engine's config")
    time_control = json_object("time_control", "Allowance and reserve per phase")


class DeathMatchPick(serializers.Serializer):
    mode = Text()
    pool = serializers.ListField(child=Text())
    banned = serializers.ListField(child=json_object("ban", "{by, game, timed_out}"))
    remaining = serializers.ListField(child=Text())
    banner = serializers.IntegerField(allow_null=True, help_text="Whose ban it is now")
    step_deadline = serializers.DateTimeField(allow_null=True)
    chosen = Text(allow_null=True)


class Episode(serializers.Serializer):
    number = serializers.IntegerField()
    kind = Text()
    status = Text()
    mm_prompt = Text()
    mm_deadline = serializers.DateTimeField(allow_null=True)
    mm_revealed = serializers.BooleanField()
    mm_game = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    losers = serializers.ListField(child=serializers.IntegerField())
    ecs = serializers.ListField(child=serializers.IntegerField())
    dmos = serializers.ListField(child=serializers.IntegerField())
    dm_third = json_object("dm_third", "three-player Death Matches: EC id -> second DMO id")
    tokens = json_object("tokens")
    tokens_to_give = serializers.IntegerField()
    dmo_deadline = serializers.DateTimeField(allow_null=True)
    death_match = DeathMatchSetup(
        allow_null=True, help_text="The Death Match's own game; null: the tournament's"
    )
    dm_advantage = serializers.IntegerField(
        allow_null=True, help_text="Who takes the first seat in their Death Match"
    )
    dm_pick = DeathMatchPick(allow_null=True, help_text="A lottery or bans choosing the DM game")


class TournamentSummary(serializers.Serializer):
    slug = Slug()
    name = Text()
    organiser = Text()
    game = Text()
    format = Text()
    status = Text()
    visibility = Text()
    capacity = serializers.IntegerField(allow_null=True)
    registration_opens = serializers.DateTimeField(allow_null=True)
    registration_closes = serializers.DateTimeField(allow_null=True)


class TournamentRow(TournamentSummary):
    entrant_count = serializers.IntegerField()


# A page of rows (``common.Page``); the other paged lists subclass it with their own results.
class TournamentPage(serializers.Serializer):
    count = serializers.IntegerField()
    next = Url(allow_null=True)
    previous = Url(allow_null=True)
    results = TournamentRow(many=True)


class TournamentDetail(TournamentSummary):
    description = Text()
    ruleset = json_object("ruleset")
    time_control = json_object("time_control")
    format_options = json_object("format_options")
    tiebreaks = serializers.ListField(child=Text())
    tiebreak_regulations = Text()
    best_of = serializers.IntegerField()
    play_online = serializers.BooleanField()
    players_report = serializers.BooleanField(
        help_text="players report their own results, each confirmed by the opponent"
    )
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


class Standings(serializers.Serializer):
    ranking = Text(help_text="the format whose placements rank, or points")
    regulations = Text(help_text="the tie-break regulations applied")
    standings = serializers.ListField(
        child=json_object("row", "rank, entrant, name, points, tie-breaks, eliminated_in, ...")
    )
