"""The new-tournament form: every rule a field with its default, the JSON an override, and
refusals that name the field by its label."""

import dataclasses

import pytest
from django.test import Client

from games import engines
from tests.tournaments.builders import user
from tournaments.formats import genius
from tournaments.models import Tournament
from tournaments.views import creation_fields

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    client = Client()
    client.force_login(user("host", "organiser"))
    return client


def as_shown(game: str, format_: str) -> dict[str, str]:
    """What the untouched form posts for this game and format: each field's default."""
    rules = creation_fields.sections({})
    rows = [row for key, _name, fields, allow in rules["games"] if key == game for row in fields]
    rows += [row for key, _name, fields in rules["formats"] if key == format_ for row in fields]
    rows += rules["undecided"]
    posted = {}
    for field, name, value in rows:
        if field.kind == "bool":
            if value:
                posted[name] = "on"
        else:
            posted[name] = value
    return posted


def create(client, game, format_, **extra):
    form = {"name": "Cup", "slug": "cup", "game": game, "format": format_, "best_of": "1"}
    return client.post("/tournaments/new/", {**form, **as_shown(game, format_), **extra})


@pytest.mark.parametrize(
    "format_", ["single_elimination", "double_elimination", "round_robin", "swiss", "genius"]
)
def test_each_format_created_with_its_defaults_stores_no_rule_of_its_own(client, format_):
    game = "drafting_trios" if format_ == "genius" else "color_clash"
    assert create(client, game, format_).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert (cup.format, cup.ruleset, cup.format_options, cup.time_control) == (
        format_,
        {},
        {},
        {},
    )


def test_the_chosen_rules_are_what_the_engine_and_the_format_receive(client):
    chosen = {
        "swiss__rounds": "5",
        "swiss__pairing": "organiser",
        "color_clash__mode": "family",
        "color_clash__turn_seconds": "60",
        "match__undecided": "higher_seed",
        "reserve": "120",
    }
    assert create(client, "color_clash", "swiss", **chosen).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert cup.format_options == {"rounds": 5, "pairing": "organiser"}
    assert cup.ruleset == {"mode": "family", "turn_seconds": 60, "undecided": "higher_seed"}
    assert cup.time_control == {"reserve": 120.0}


def test_a_genius_season_takes_its_rule_keys_from_their_own_fields(client):
    form = as_shown("drafting_trios", "genius")
    del form["genius__sealed_edits"]  # the toggle switched off
    form |= {"genius__ec_count": "2", "genius__on_elimination": "to_dm_winner"}
    form |= {"drafting_trios__assist_previews": "on", "drafting_trios_allow__draft": "40"}
    base = {"name": "Season", "slug": "cup", "game": "drafting_trios", "format": "genius"}
    assert client.post("/tournaments/new/", base | form).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert cup.format_options == {
        "ec_count": 2,
        "on_elimination": "to_dm_winner",
        "sealed_edits": False,
    }
    assert cup.ruleset == {"assist_previews": True}
    assert cup.time_control == {"allowances": {"draft": 40}}


def test_only_the_chosen_game_and_format_are_read(client):
    # Without JavaScript every fieldset is on the page and posts.
    other = {"dropmix__target": "15", "genius__ec_count": "3", "round_robin__cycles": "2"}
    assert create(client, "color_clash", "single_elimination", **other).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert (cup.ruleset, cup.format_options) == ({}, {})


def test_a_filled_json_box_overrides_the_fields_of_its_part(client):
    created = create(
        client, "color_clash", "swiss", swiss__rounds="5", format_options='{"rounds": 3}'
    )
    assert created.status_code == 302
    assert Tournament.objects.get(slug="cup").format_options == {"rounds": 3}


@pytest.mark.parametrize(
    ("game", "format_", "bad", "said"),
    [
        ("color_clash", "swiss", {"swiss__rounds": "five"}, "Swiss rounds: enter a whole number"),
        ("color_clash", "swiss", {"swiss__rounds": "0"}, "Swiss rounds: at least 1"),
        ("color_clash", "round_robin", {"round_robin__cycles": "9"}, "Cycles: at most 4"),
        (
            "drafting_trios",
            "genius",
            {"genius__final_best_of": "4"},
            "Final: best of: enter an odd",
        ),
        (
            "drafting_trios",
            "genius",
            {"genius__sole_winner_gives": "3"},
            "a sole winner cannot give away more tokens than they receive",
        ),
        ("dropmix", "single_elimination", {"dropmix__target": "30"}, "Target score: choose one"),
        ("color_clash", "swiss", {"format_options": "[1"}, "Format options (JSON): This is not"),
        ("color_clash", "swiss", {"ruleset": "[1]"}, "Game rules (JSON): Write a JSON object"),
    ],
)
def test_bad_values_are_refused_by_the_label_of_their_field(client, game, format_, bad, said):
    refused = create(client, game, format_, **bad)
    assert refused.status_code == 400
    assert said in refused.content.decode().replace("&#x27;", "'")
    assert not Tournament.objects.exists()


def test_the_form_shows_each_rule_with_its_default_and_help(client):
    page = client.get("/tournaments/new/").content.decode()
    assert 'name="swiss__rounds"' in page and 'name="genius__ec_rule"' in page
    assert "Empty: the game&#x27;s default, 60 s." in page  # Drafting Trios' draft allowance
    assert 'name="dropmix_allow__turn"' in page and 'name="color_clash_allow__turn"' not in page
    assert "<summary>Advanced (JSON)</summary>" in page
    assert '<option value="classic" selected>' in page


def test_the_settings_form_shows_the_saved_rules_in_their_fields(client):
    create(client, "color_clash", "swiss", swiss__rounds="3", color_clash__mode="family")
    page = client.get("/tournaments/cup/manage/edit").content.decode()
    assert 'name="swiss__rounds" inputmode="numeric" min="1" max="30" value="3"' in page
    assert '<option value="family" selected>' in page
    assert '<textarea id="f-options" name="format_options"' in page
    assert "{&quot;rounds&quot;" not in page  # no JSON left for what the fields say


# Every key an engine's config or a format's options take is a field of the form, except these,
# which only the advanced JSON sets, each for a reason.
ADVANCED_ONLY = {
    "color_clash": {"substitutes"},  # seats taken over by the computer: one game's, not a rule
    "drafting_trios": {"roles"},  # the EC and DMO seats a season's Death Match assigns
    "dropmix": {"decks", "catalogue"},  # card lists per seat, an imported catalogue
}
FORMAT_KEYS = {
    "single_elimination": {"third_place"},
    "double_elimination": {"grand_final"},
    "round_robin": {"cycles", "groups", "bye_points"},
    "swiss": {"rounds", "pairing", "bye_points"},
    "genius": {field.name for field in dataclasses.fields(genius.SeasonRules)},
}


def test_finding_9_every_rule_the_engines_and_formats_take_is_a_form_field():
    for game in engines.ENGINE_MODULES:
        taken = set(engines.get(game).validate_config({}, 2))
        fields = {f.key.partition(".")[0] for f in creation_fields.GAME_RULES[game]}
        assert taken - ADVANCED_ONLY[game] == fields, game
        allowances = {f.key for f in creation_fields.allowance_fields(game)}
        control = engines.get(game).default_time_control["allowances"]
        assert allowances == (set() if game == "color_clash" else set(control)), game
    for format_, keys in FORMAT_KEYS.items():
        assert {f.key for f in creation_fields.FORMAT_RULES[format_]} == keys, format_


def test_the_wheel_the_bye_points_and_the_currency_are_fields(client):
    form = as_shown("dropmix", "swiss")
    form |= {
        "dropmix__wheel.X": "2",
        "dropmix__spin_retract_seconds": "4",
        "swiss__bye_points": "0.5",
    }
    base = {"name": "Mix", "slug": "cup", "game": "dropmix", "format": "swiss"}
    assert client.post("/tournaments/new/", base | form).status_code == 302
    cup = Tournament.objects.get(slug="cup")
    assert cup.ruleset == {"wheel": {"1": 4, "2": 4, "3": 3, "X": 2}, "spin_retract_seconds": 4}
    assert cup.format_options == {"bye_points": 0.5}
    # Saved, the rules show again in their own fields (nothing falls to the JSON box).
    shown, rest = creation_fields.saved_values(
        "dropmix", "swiss", cup.ruleset, {}, cup.format_options
    )
    assert shown["dropmix__wheel.X"] == "2" and shown["swiss__bye_points"] == "0.5"
    assert rest == {}
    season = as_shown("drafting_trios", "genius") | {"genius__currency": "pearls"}
    base = {"name": "Season", "slug": "season", "game": "drafting_trios", "format": "genius"}
    assert client.post("/tournaments/new/", base | season).status_code == 302
    assert Tournament.objects.get(slug="season").format_options == {"currency": "pearls"}
