"""A Genius episode's Death Match: the host chooses its engine, the engine's settings, the time
control and the DMO-pick deadline, through the service, the API and the console alike."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import GameSession
from tests.tournaments.builders import open_tournament
from tests.tournaments.test_genius_season import RULES
from tournaments.models import AuditEntry, Episode
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db

DM_CLOCK = {"allowances": {"turn": 45}, "reserve": 20}


@pytest.fixture
def season():
    tournament, cast = open_tournament("genius", 6, online=True, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    return tournament, cast, episode


def to_opponents(tournament, cast, episode) -> None:
    """cast[0] wins the MM alone, names cast[5] the EC and gives the spare ToL to cast[1]."""
    host = tournament.organiser
    losers = [c.pk for c in cast[1:]]
    seasons.main_match_record(episode=episode, by=host, winners=[cast[0].pk], losers=losers)
    seasons.candidates_choose(episode=episode, by=host, chosen=[cast[5].pk])
    seasons.token_give(episode=episode, by=host, giver=cast[0].pk, receiver=cast[1].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.OPPONENTS


def api_client(person) -> APIClient:
    client = APIClient()
    client.force_authenticate(person)
    return client


def test_the_death_match_is_played_with_the_engine_and_clock_the_host_chose(season):
    tournament, cast, episode = season
    url = f"/api/tournaments/{tournament.slug}/episodes/1/death-match"
    answer = api_client(tournament.organiser).post(
        url,
        {"engine": "color_clash", "config": {}, "time_control": DM_CLOCK},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["death_match"]["engine"] == "color_clash"
    to_opponents(tournament, cast, episode)
    seasons.opponent_choose(episode=episode, by=cast[5].user, ec=cast[5].pk, dmo=cast[2].pk)
    match = tournament.stages.get().matches.get(code="E1.DM1")
    game = GameSession.objects.get(pk=match.match_games.get().game_id)
    assert game.engine == "color_clash"  # not the tournament's own game
    assert game.time_control["allowances"] == {"turn": 45}
    assert game.time_control["reserve"] == 20
    assert AuditEntry.objects.filter(action="tournaments.season.death_match_setup").exists()
    # Once the Death Match is on, how it is played no longer changes.
    again = api_client(tournament.organiser).post(url, {"engine": "dropmix"}, format="json")
    assert again.status_code == 409
    assert "has begun" in again.json()["detail"]


def test_without_a_choice_the_death_match_plays_the_tournaments_game(season):
    tournament, cast, episode = season
    to_opponents(tournament, cast, episode)
    seasons.opponent_choose(episode=episode, by=cast[5].user, ec=cast[5].pk, dmo=cast[2].pk)
    match = tournament.stages.get().matches.get(code="E1.DM1")
    assert GameSession.objects.get(pk=match.match_games.get().game_id).engine == tournament.game


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"engine": "chess"}, 400, "unknown game 'chess'"),
        ({"engine": "color_clash", "time_control": {"allowances": {"turn": 31}}}, 400, "turn"),
        ({"engine": "color_clash", "time_control": {"allowances": {"draft": 9}}}, 400, "phase"),
        ({"dmo_deadline": "2001-01-01T00:00:00Z"}, 400, "future"),
        ({"dmo_deadline": "soon"}, 400, "dmo_deadline"),
    ],
)
def test_a_bad_setup_is_refused_with_its_reason_and_changes_nothing(season, body, status, words):
    tournament, _cast, episode = season
    answer = api_client(tournament.organiser).post(
        f"/api/tournaments/{tournament.slug}/episodes/1/death-match", body, format="json"
    )
    assert answer.status_code == status
    assert words in str(answer.json())
    episode.refresh_from_db()
    assert (episode.dm_engine, episode.dmo_deadline) == ("", None)


def test_only_the_host_sets_up_the_death_match(season):
    tournament, cast, _episode = season
    answer = api_client(cast[0].user).post(
        f"/api/tournaments/{tournament.slug}/episodes/1/death-match", {}, format="json"
    )
    assert answer.status_code == 403


def test_after_the_dmo_deadline_the_ec_cannot_pick_and_the_host_is_prompted(season):
    tournament, cast, episode = season
    soon = timezone.now() + timedelta(minutes=5)
    seasons.death_match_setup(episode=episode, by=tournament.organiser, dmo_deadline=soon)
    to_opponents(tournament, cast, episode)
    ec = Client()
    ec.force_login(cast[5].user)
    assert "Pick before the deadline" in ec.get(f"/tournaments/{tournament.slug}/").content.decode()
    # The deadline passes with no pick (the row is moved, as a clock would).
    Episode.objects.filter(pk=episode.pk).update(dmo_deadline=timezone.now() - timedelta(seconds=1))
    late = api_client(cast[5].user).post(
        f"/api/tournaments/{tournament.slug}/episodes/1/opponent",
        {"ec": cast[5].pk, "dmo": cast[2].pk},
        format="json",
    )
    assert late.status_code == 409 and "the host decides now" in late.json()["detail"]
    assert "the host picks for you" in ec.get(f"/tournaments/{tournament.slug}/").content.decode()
    host = Client()
    host.force_login(tournament.organiser)
    page = host.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'id="dmo-overdue"' in page
    done = host.post(
        f"/tournaments/{tournament.slug}/manage/opponent",
        {"ec": cast[5].pk, "dmo": cast[2].pk},
        follow=True,
    )
    assert "The Death Match opponent is chosen." in done.content.decode()
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DEATH_MATCH


def test_the_console_form_saves_the_setup_and_shows_a_refusal_translated(season):
    tournament, _cast, episode = season
    host = Client()
    host.force_login(tournament.organiser)
    url = f"/tournaments/{tournament.slug}/manage/death-match"
    page = host.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'id="dm-setup"' in page
    # The rules and the clock are fields of the chosen game (no JSON), its default shown.
    assert 'name="dm-color_clash__mode"' in page and 'name="dm-dropmix__target"' in page
    assert 'name="mm-drafting_trios_allow__draft"' in page  # the MM game's form has its own
    form = {"engine": "color_clash", "dm-color_clash__turn_seconds": "60", "reserve": "15"}
    done = host.post(url, {**form, "dmo_deadline": ""}, follow=True).content.decode()
    assert "The Death Match settings are saved." in done
    episode.refresh_from_db()
    assert (episode.dm_engine, episode.dm_ruleset, episode.dm_time_control) == (
        "color_clash",
        {"turn_seconds": 60},
        {"reserve": 15.0},
    )
    # Saved, the console shows them in their fields again.
    page = host.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    shown = page[page.index('id="f-dm-color_clash__turn_seconds"') :]
    assert '<option value="60" selected>' in shown[: shown.index("</select>")]
    refused = host.post(
        url, {"engine": "nope"}, follow=True, headers={"accept-language": "pt-br"}
    ).content.decode()
    assert "jogo desconhecido &#x27;nope&#x27;" in refused
    episode.refresh_from_db()
    assert episode.dm_engine == "color_clash"
