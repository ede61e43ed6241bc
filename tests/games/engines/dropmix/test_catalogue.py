"""The shipped catalogue is valid and complete; broken catalogues are refused with every
problem named by card id and field."""

import copy
import json
import random
from collections import Counter

import pytest

from games.engines import conformance
from games.engines.base import ConfigError
from games.engines.dropmix import ENGINE
from games.engines.dropmix.catalogue import (
    DEFAULT_PATH,
    CatalogueError,
    default_catalogue,
    load_catalogue,
    validate_catalogue,
)
from games.engines.dropmix.grammar import COLOURS, EFFECT_FORMS


@pytest.fixture
def data():
    with DEFAULT_PATH.open() as source:
        return json.load(source)


def card(data, card_id):
    return next(c for c in data["cards"] if c["id"] == card_id)


def test_the_shipped_catalogue_is_valid(data):
    assert validate_catalogue(data) == []


def test_it_has_four_starter_playlists_of_fifteen_cards_worth_36_points():
    catalogue = default_catalogue()
    assert len(catalogue.starters) == 4
    for playlist in catalogue.starters:
        cards = [catalogue.cards[c] for c in catalogue.playlists[playlist]]
        assert len(cards) == 15 and sum(c.cost for c in cards) == 36


def test_discovery_has_levels_one_to_three_in_every_colour():
    catalogue = default_catalogue()
    parts = {
        (catalogue.cards[c].colour, catalogue.cards[c].level)
        for c in catalogue.playlists["discovery"]
        if catalogue.cards[c].kind == "part"
    }
    assert parts == {(colour, level) for colour in COLOURS for level in (1, 2, 3)}


def test_songs_are_split_over_two_to_four_cards_and_wilds_vary():
    catalogue = default_catalogue()
    sizes = Counter(c.song for c in catalogue.cards.values() if c.song)
    assert set(sizes.values()) <= {2, 3, 4} and 4 in sizes.values()
    wilds = [c for c in catalogue.cards.values() if c.kind == "wild"]
    assert len({tuple(sorted(w.instruments.items())) for w in wilds}) == len(wilds) >= 4


def test_the_fx_lab_has_a_card_for_every_effect_form():
    catalogue = default_catalogue()
    lab = [catalogue.cards[c] for c in catalogue.playlists["fxlab"]]
    forms = {effect["form"] for fx in lab for effect in fx.effects}
    assert forms == set(EFFECT_FORMS)
    modes = {e["mode"] for fx in lab for e in fx.effects if e["form"] == "draw"}
    targets = {str(e["target"]) for fx in lab for e in fx.effects if e["form"] == "clear"}
    assert modes == {"top", "choose", "redraw"} and {"adjacent", "random"} < targets


def test_a_broken_card_is_reported_with_its_id_and_field(data):
    card(data, "candy-y2")["level"] = 5
    card(data, "candy-r2")["colour"] = "purple"
    card(data, "steel-wild")["level"] = 3
    del card(data, "pixel-wild")["instruments"]["green"]
    card(data, "velvet-b2")["song"] = "no-such-song"
    problems = validate_catalogue(data)
    assert "card candy-y2: level must be 1, 2 or 3, not 5" in problems
    assert any(p.startswith("card candy-r2: colour must be one of") for p in problems)
    assert "card steel-wild: level of a Wild must be 2" in problems
    assert "card pixel-wild: instruments must name an instrument for every colour" in problems
    assert "card velvet-b2: song 'no-such-song' is not in songs" in problems


def test_broken_fx_effects_are_reported_with_the_path_to_the_field(data):
    fx = card(data, "lab-score")
    fx["effects"] = [
        {"form": "score", "who": "everyone", "delta": 0},
        {"form": "teleport"},
        {"form": "draw", "who": "self", "mode": "redraw", "count": 2},
        {"form": "clear", "who": "opponent", "target": "everything"},
        {
            "form": "on_cover",
            "covers": "empty",
            "then": [{"form": "block", "filter": {"level": 1}}],
        },
        {"form": "score_sets", "filters": [{"colour": "red", "mood": "happy"}], "n": 1},
    ]
    fx["conditions"] = [{"level": True}]
    problems = validate_catalogue(data)
    where = "card lab-score: effects"
    assert f"{where}[0] (score): who must be one of self, opponent, both" in problems
    assert f"{where}[0] (score): delta must be a whole number other than 0" in problems
    assert any(p.startswith(f"{where}[1]: unknown form 'teleport'") for p in problems)
    assert f"{where}[2] (draw): redraw replaces the whole hand, so it takes no count" in problems
    assert any(p.startswith(f"{where}[3] (clear): target must be") for p in problems)
    assert any("[4] (on_cover).then: block lasts while" in p for p in problems)
    assert f"{where}[5] (score_sets).filters[0]: unknown filter key 'mood'" in problems
    assert "card lab-score: conditions[0]: level must be 1, 2 or 3" in problems


def test_structure_errors_are_all_listed(data):
    data["cards"].append(copy.deepcopy(card(data, "candy-y2")))
    data["cards"].append({"id": "ghost", "kind": "spirit"})
    data["cards"].append(
        {
            "id": "stray",
            "kind": "part",
            "playlist": "nowhere",
            "level": 1,
            "song": "candy-s1",
            "colour": "red",
            "instrument": "kazoo",
            "x": 1,
        }
    )
    data["surprise"] = True
    problems = validate_catalogue(data)
    assert "card candy-y2: duplicate id" in problems
    assert "card ghost: kind must be one of part, wild, fx" in problems
    assert "card stray: playlist 'nowhere' is not in playlists" in problems
    assert "card stray: unknown field 'x' for a part card" in problems
    assert "unknown top-level key 'surprise'" in problems


def test_a_starter_playlist_off_the_template_is_refused(data):
    card(data, "candy-r1a")["level"] = 3
    problems = validate_catalogue(data)
    assert problems == [
        "starter playlist candy does not follow the 15-card template "
        "(missing: 1x red L1; extra: 1x red L3)"
    ]


def test_not_a_catalogue_at_all():
    assert validate_catalogue([]) == [
        "the catalogue must be a JSON object with playlists, songs and cards"
    ]
    assert "cards must be a non-empty list" in validate_catalogue(
        {"name": "x", "playlists": [], "songs": []}
    )


def test_load_raises_with_every_problem(data):
    card(data, "candy-y2")["level"] = 0
    card(data, "candy-y3")["instrument"] = ""
    with pytest.raises(CatalogueError) as error:
        load_catalogue(data)
    assert len(error.value.problems) == 2 and "candy-y3" in str(error.value)


def test_organisers_import_a_catalogue_through_the_config(data):
    for c in data["cards"]:
        if c["kind"] == "part":
            c["instrument"] = "theremin"
    config = ENGINE.validate_config({"catalogue": data}, 2)
    state = ENGINE.setup(config, 2, random.Random(1))
    assert state["catalogue_id"] and state["catalogue"] == data
    card(data, "candy-y2")["level"] = 9
    with pytest.raises(ConfigError, match="candy-y2: level must be 1, 2 or 3"):
        ENGINE.validate_config({"catalogue": data}, 2)


def test_an_imported_catalogue_with_too_few_starters_needs_decks(data):
    for playlist in data["playlists"]:
        playlist["starter"] = playlist["id"] == "candy"
    with pytest.raises(ConfigError, match="need 4 starter playlists"):
        ENGINE.validate_config({"catalogue": data}, 2)


def test_games_play_through_with_an_imported_catalogue(data):
    for c in data["cards"]:
        if c["kind"] == "part":
            c["instrument"] = "theremin"
    report = conformance.simulate(
        ENGINE, games=2, seed="import", seats=3, config={"catalogue": data}, timeout_rate=0.02
    )
    assert report.failures == [] and report.games == 2
