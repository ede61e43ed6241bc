"""The tournaments API's input serializers, also the organiser console's (its forms are
read as the API's bodies, so a page meets the API's refusals)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from hosting.core.validation import Slug, Text
from tournaments import services
from tournaments.models import Tournament

# Larger whole numbers would overflow their columns (a 500); they are refused as input instead.
MAX_INT = 2**31 - 1
MAX_ID = 2**63 - 1


def count_field(**options: Any) -> serializers.IntegerField:
    return serializers.IntegerField(max_value=MAX_INT, **options)


def id_field(**options: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **options)


def ids_field(**options: Any) -> serializers.ListField:
    return serializers.ListField(child=id_field(), **options)


class TournamentCreateInput(serializers.Serializer):
    name = Text(max_length=120)
    slug = Slug(max_length=140)
    description = Text(required=False, default="", allow_blank=True)
    game = Text(max_length=40)
    ruleset = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    format = Text(max_length=40)
    format_options = serializers.DictField(required=False, default=dict)
    tiebreaks = serializers.ListField(child=Text(max_length=40), required=False, default=list)
    # The version's name is checked by the service, which says which names exist.
    tiebreak_regulations = Text(required=False, max_length=40)
    capacity = count_field(required=False, allow_null=True, min_value=2)
    best_of = serializers.IntegerField(required=False, default=1, min_value=1, max_value=99)
    play_online = serializers.BooleanField(required=False, default=True)
    # Players report their own results, each confirmed by the opponent (services.claims).
    players_report = serializers.BooleanField(required=False, default=False)
    # How long each match game waits for its players' client seeds (games.fairness).
    seed_window_seconds = serializers.IntegerField(
        required=False,
        default=Tournament._meta.get_field("seed_window_seconds").default,
        min_value=0,
        max_value=services.MAX_SEED_WINDOW_SECONDS,
    )
    registration_opens = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True)
    check_in_closes = serializers.DateTimeField(required=False, allow_null=True)
    visibility = serializers.ChoiceField(
        choices=Tournament.Visibility.choices, required=False, default="public"
    )

    def validate_slug(self, slug: str) -> str:
        # A read-side courtesy; the unique constraint remains the guarantee.
        if Tournament.objects.filter(slug=slug).exists():
            raise serializers.ValidationError(_("the slug %(slug)r is taken") % {"slug": slug})
        return slug

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        opens, closes = data.get("registration_opens"), data.get("registration_closes")
        if opens and closes and closes <= opens:
            raise serializers.ValidationError(_("registration must close after it opens"))
        return data


class RegisterInput(serializers.Serializer):
    display_name = Text(required=False, default="", allow_blank=True, max_length=80)
    rating = count_field(required=False, allow_null=True, min_value=0)


class WithdrawInput(serializers.Serializer):
    entrant = id_field(required=False, allow_null=True)
    reason = Text(
        required=False,
        allow_blank=True,
        max_length=500,
        default="",
        help_text="Why (kept in the audit log); needed to withdraw someone else from a "
        "running tournament, whose open matches they then lose by forfeit",
    )


class SeedingInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=services.SEEDING_METHODS)
    order = ids_field(required=False)


class ResultInput(serializers.Serializer):
    winner = id_field(allow_null=True)
    home_score = serializers.FloatField(required=False, allow_null=True, min_value=0)
    away_score = serializers.FloatField(required=False, allow_null=True, min_value=0)
    forfeit = serializers.BooleanField(required=False, default=False)
    force = serializers.BooleanField(required=False, default=False)
    reason = Text(required=False, default="", allow_blank=True, max_length=500)
    # A forced correction: first a dry run that lists what it resets, then that same list.
    dry_run = serializers.BooleanField(required=False, default=False)
    resets = serializers.ListField(child=Text(max_length=20), required=False, max_length=1000)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["dry_run"] and not data["force"]:
            raise serializers.ValidationError(
                _('a dry run previews a forced correction: send it with "force": true')
            )
        return data


class ResultClaimInput(serializers.Serializer):
    winner = id_field(allow_null=True)


class SealedOpenInput(serializers.Serializer):
    prompt = Text(max_length=2000)
    deadline = serializers.DateTimeField()


class SealedSubmitInput(serializers.Serializer):
    text = Text(max_length=2000, trim_whitespace=False)


class MainMatchInput(serializers.Serializer):
    """Either the result (``winners`` and ``losers``) or a hosted game to play it (``engine``)."""

    winners = ids_field(required=False)
    losers = ids_field(required=False)
    engine = Text(required=False, max_length=40)
    config = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        result = "winners" in data or "losers" in data
        if result == ("engine" in data):
            raise serializers.ValidationError(
                _('send either "winners" and "losers", or an "engine" to play the main match')
            )
        if result and not ("winners" in data and "losers" in data):
            raise serializers.ValidationError(_('a main match result lists "winners" and "losers"'))
        return data


class DeathMatchSetupInput(serializers.Serializer):
    """How this episode's Death Match is played, and until when the EC may pick the DMO."""

    engine = Text(required=False, allow_blank=True, max_length=40, default="")
    config = serializers.DictField(required=False, default=dict)
    time_control = serializers.DictField(required=False, default=dict)
    dmo_deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)


class CandidatesInput(serializers.Serializer):
    chosen = ids_field(min_length=1)


class TokenInput(serializers.Serializer):
    giver = id_field()
    receiver = id_field()


class OpponentInput(serializers.Serializer):
    ec = id_field()
    dmo = id_field()


class LedgerInput(serializers.Serializer):
    kind = Text(max_length=20)
    entrant = id_field()
    amount = count_field(min_value=1)
    reason = Text(max_length=200)
    to = id_field(required=False, allow_null=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["kind"] == "transfer" and data.get("to") is None:
            raise serializers.ValidationError(_('a transfer names who receives it in "to"'))
        return data
