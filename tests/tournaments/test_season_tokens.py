"""The board remembers Tokens of Life across episodes (held, given, used), shows a glossary and
tells each finished episode's story to a spectator."""

import pytest
from django.test import Client

from tests.tournaments.builders import open_tournament
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments import selectors
from tournaments.models import TokenEntry
from tournaments.seasons import services as seasons
from tournaments.seasons import tokens

pytestmark = pytest.mark.django_db


def _season(**rules):
    tournament, cast = open_tournament("genius", 6, format_options=RULES | rules)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    return tournament, cast, episode


def test_tokens_are_remembered_after_the_episode_ends():
    tournament, cast, episode = _season()
    play_episode(tournament, episode)
    # Episode 1: the top seed won 2, gave 1 to the second seed; both were protected (used 1).
    history = tokens.history(tournament)
    top, second = cast[0].pk, cast[1].pk
    assert history[top]["won"] == 2 and history[top]["given"] == 1 and history[top]["used"] == 1
    assert history[second]["received"] == 1 and history[second]["used"] == 1
    assert tokens.held(tournament) == {}  # a token lasts its episode by default
    episode_2 = tournament.episodes.get(number=2)
    assert episode_2.tokens == {}
    board = selectors.board(tournament)["season"]
    row = next(p for p in board["cast"] if p["id"] == top)
    assert (row["tokens_won"], row["tokens_given"], row["tokens_used"]) == (2, 1, 1)
    story = board["episodes"][-1]["story"]
    assert any("won 2 Tokens of Life" in line for line in story)
    assert any("was eliminated" in line for line in story)


def test_spare_tokens_carry_over_when_the_rules_say_so():
    tournament, cast, episode = _season(tokens_carry_over=True, sole_winner_tokens=3)
    play_episode(tournament, episode)
    # The top seed won 3, gave 1, used 1: one carries into episode 2.
    episode_2 = tournament.episodes.get(number=2)
    assert episode_2.tokens == {str(cast[0].pk): 1}
    assert tokens.held(tournament) == {cast[0].pk: 1}
    play_episode(tournament, episode_2)
    # In episode 2 they win 3 more (4 held), give 1, use 1: two carry into episode 3.
    assert tournament.episodes.get(number=3).tokens == {str(cast[0].pk): 2}
    kinds = set(TokenEntry.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert {"won", "given", "received", "used"} <= kinds


def test_the_page_has_a_glossary_and_the_story(client: Client):
    tournament, _cast, episode = _season()
    play_episode(tournament, episode)
    html = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Glossary" in html and "Death Match opponent: the player an EC picks" in html
    assert "The story of episode 1" in html
