"""Deck rules: the pre-built playlists, and custom decks refused with every violation."""

import pytest

from games.engines.base import ConfigError
from games.engines.dropmix import ENGINE
from games.engines.dropmix.catalogue import default_catalogue
from games.engines.dropmix.decks import SINGLE, TEAM, prebuilt_decks, validate_deck

CATALOGUE = default_catalogue()


def playlist(name):
    return list(CATALOGUE.playlists[name])


def test_prebuilt_decks_give_distinct_starters_two_per_single_player_one_per_member():
    decks = prebuilt_decks(CATALOGUE, [SINGLE, TEAM, TEAM])
    assert decks == [playlist("candy") + playlist("steel"), playlist("pixel"), playlist("velvet")]


def test_two_starter_playlists_are_a_legal_single_player_deck():
    assert validate_deck(CATALOGUE, playlist("candy") + playlist("steel"), SINGLE) == []


def test_a_single_player_deck_with_every_violation():
    deck = ["candy-wild"] * 3 + ["lab-score"] * 20 + ["nope"]
    assert validate_deck(CATALOGUE, deck, SINGLE) == [
        "unknown card 'nope'",
        "a single player needs at least 30 cards, this deck has 24",
        "a single player may spend at most 80 points, this deck costs 92",
        "a single player may hold at most 2 of a card: candy-wild appears 3 times",
        "a single player may hold at most 2 of a card: lab-score appears 20 times",
    ]


def test_wild_and_fx_cost_four_whatever_their_level():
    assert CATALOGUE.cards["candy-wild"].cost == 4
    assert CATALOGUE.cards["lab-score"].cost == 4 and CATALOGUE.cards["lab-score"].level == 1
    assert CATALOGUE.cards["candy-r3"].cost == 3


def test_a_single_player_may_hold_two_copies():
    small = [c for c in CATALOGUE.cards if CATALOGUE.cards[c].cost == 1]
    assert validate_deck(CATALOGUE, small + small[:14], SINGLE) == []


def test_a_team_member_deck_with_every_violation():
    deck = ["candy-r1a", "candy-r1a"] + ["candy-r3"] * 2 + ["lab-block"] * 9
    assert validate_deck(CATALOGUE, deck, TEAM) == [
        "a team member needs at least 15 cards, this deck has 13",
        "a team member may spend at most 40 points, this deck costs 44",
        "a team member may hold no duplicates of a card: candy-r1a appears 2 times",
        "a team member may hold no duplicates of a card: candy-r3 appears 2 times",
        "a team member may hold no duplicates of a card: lab-block appears 9 times",
    ]


def test_a_starter_playlist_is_a_legal_team_member_deck():
    assert validate_deck(CATALOGUE, playlist("velvet"), TEAM) == []


def test_a_deck_must_be_a_list_of_ids():
    assert validate_deck(CATALOGUE, "candy", TEAM) == ["a deck must be a list of card ids"]


def test_the_config_refuses_an_illegal_deck_naming_the_seat_and_every_reason():
    with pytest.raises(ConfigError) as error:
        ENGINE.validate_config({"decks": [None, ["candy-r1a"] * 2]}, 2)
    message = str(error.value)
    assert "seat 1: a single player needs at least 30 cards" in message
    assert "seat 1: a single player may hold at most 2" not in message


def test_the_config_takes_custom_decks_and_fills_the_rest_with_playlists():
    custom = playlist("velvet") + playlist("pixel")
    config = ENGINE.validate_config({"decks": [custom, None]}, 2)
    assert config["decks"] == [custom, playlist("candy") + playlist("steel")]
