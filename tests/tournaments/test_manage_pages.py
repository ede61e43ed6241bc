"""The organiser console runs a tournament through the same services as the API."""

import pytest
from django.test import Client

from hosting.core.roles import STAFF_ADMIN
from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import open_tournament, started, user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Episode, Tournament
from tournaments.seasons import services as seasons

pytestmark = pytest.mark.django_db


def console(client: Client, tournament) -> str:
    response = client.get(f"/tournaments/{tournament.slug}/manage/")
    assert response.status_code == 200
    return response.content.decode()


def act(client: Client, tournament, action: str, data: dict | None = None) -> str:
    response = client.post(
        f"/tournaments/{tournament.slug}/manage/{action}", data or {}, follow=True
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def host_client():
    register_tiny()
    host = user("host", "organiser")
    client = Client()
    client.force_login(host)
    return client


def test_an_organiser_creates_a_tournament_and_sees_the_api_refusals(host_client):
    form = {"name": "Cup", "slug": "cup", "game": "nope", "format": "swiss", "ruleset": "{"}
    refused = host_client.post("/tournaments/new/", form)
    assert refused.status_code == 400
    # the label, not the key
    assert "Game rules (JSON): This is not valid JSON." in refused.content.decode()
    form["ruleset"] = "{}"
    refused = host_client.post("/tournaments/new/", form)
    assert "unknown game &#x27;nope&#x27;" in refused.content.decode()
    form |= {"game": "high_card", "slug": "new"}
    assert "is reserved" in host_client.post("/tournaments/new/", form).content.decode()
    form |= {"slug": "cup", "tiebreaks": "buchholz, sonneborn_berger", "capacity": "8"}
    form |= {"format_options": '{"rounds": 3}', "play_online": "on", "reserve": "120"}
    created = host_client.post("/tournaments/new/", form)
    assert created.status_code == 302 and created["Location"] == "/tournaments/cup/manage/"
    cup = Tournament.objects.get(slug="cup")
    assert cup.tiebreaks == ["buchholz", "sonneborn_berger"] and cup.capacity == 8
    assert cup.format_options == {"rounds": 3} and cup.time_control == {"reserve": 120.0}
    assert cup.status == "draft"


def test_only_organisers_create_and_only_the_organiser_manages():
    tournament, _ = open_tournament("swiss", 4)
    stranger = Client()
    stranger.force_login(user("stranger"))
    assert stranger.get("/tournaments/new/").status_code == 302
    assert stranger.get(f"/tournaments/{tournament.slug}/manage/").status_code == 403
    answer = stranger.post(f"/tournaments/{tournament.slug}/manage/start")
    assert answer.status_code == 403
    assert not tournament.stages.exists()
    assert Client().get(f"/tournaments/{tournament.slug}/manage/").status_code == 302  # log in


def test_a_bracket_is_seeded_by_number_started_and_its_results_entered():
    tournament, players = open_tournament("single_elimination", 4)
    client = Client()
    client.force_login(tournament.organiser)
    assert "Apply this seeding" in console(client, tournament)
    # The bottom seed is moved to the top by its number.
    order = {f"seed-{p.pk}": str(n) for n, p in enumerate(players, start=2)}
    order[f"seed-{players[-1].pk}"] = "1"
    html = act(client, tournament, "seed", order | {"method": "manual"})
    assert "The seeding is applied." in html
    assert Entrant.objects.get(pk=players[-1].pk).seed == 1
    act(client, tournament, "start")
    match = tournament.stages.get().matches.get(code="W1.1")
    html = act(client, tournament, "result", {"match": "W1.1", "winner": str(match.away_id)})
    assert "The result of W1.1 is recorded." in html
    match.refresh_from_db()
    assert match.winner_id == match.away_id
    # The API's refusal, word for word: a draw in an elimination match.
    html = act(client, tournament, "result", {"match": "W1.2", "winner": "draw"})
    assert "an elimination match needs a winner" in html
    html = act(client, tournament, "result", {"match": "W9.9", "winner": "1"})
    assert "no match &#x27;W9.9&#x27; in this tournament" in html
    assert "organiser entered W1.1: " in console(client, tournament)  # the audit, said


def test_a_correction_is_previewed_first_naming_what_it_resets():
    tournament, stage, _players = started("single_elimination", 4)
    client = Client()
    client.force_login(tournament.organiser)
    for code in ("W1.1", "W1.2"):
        match = stage.matches.get(code=code)
        act(client, tournament, "result", {"match": code, "winner": str(match.home_id)})
    final = stage.matches.get(code="W2.1")
    act(client, tournament, "result", {"match": "W2.1", "winner": str(final.home_id)})
    first = stage.matches.get(code="W1.1")
    html = act(client, tournament, "result", {"match": "W1.1", "winner": str(first.away_id)})
    preview = html[html.index('id="preview-form"') :]
    preview = preview[: preview.index("</form>")]
    assert "<strong>W2.1</strong>" in preview  # the match the correction would reset is named
    first.refresh_from_db()
    assert first.winner_id == first.home_id  # nothing changed


def test_a_genius_episode_is_run_from_the_console():
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    client = Client()
    client.force_login(tournament.organiser)
    act(client, tournament, "start")
    episode = Episode.objects.get(tournament=tournament, number=1)
    assert "Record the MM: tick the winners" in console(client, tournament)
    act(client, tournament, "main-match", {"winners": [str(cast[0].pk)]})
    episode.refresh_from_db()
    assert episode.winners == [cast[0].pk] and episode.status == "candidates"
    act(client, tournament, "candidates", {"chosen": [str(cast[5].pk)]})
    act(client, tournament, "token", {"giver": str(cast[0].pk), "receiver": str(cast[1].pk)})
    html = act(client, tournament, "opponent", {"ec": str(cast[5].pk), "dmo": str(cast[1].pk)})
    assert "holds a Token of Life" in html
    act(client, tournament, "opponent", {"ec": str(cast[5].pk), "dmo": str(cast[2].pk)})
    episode.refresh_from_db()
    assert episode.status == "death_match"
    html = act(
        client,
        tournament,
        "ledger",
        {"kind": "award", "entrant": str(cast[2].pk), "amount": "3", "reason": "MM prize"},
    )
    assert "The ledger entry is recorded." in html
    assert seasons.balances(tournament)[cast[2].pk] == 3
    actions = set(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert {"tournaments.season.main_match", "tournaments.season.opponent_chosen"} <= actions


def test_a_forced_correction_lists_what_it_resets_then_applies_exactly_that():
    tournament, stage, _ = started("single_elimination", 4)
    referee = user("referee", STAFF_ADMIN)
    client = Client()
    client.force_login(referee)
    for code in ("W1.1", "W1.2", "W2.1"):
        match = stage.matches.get(code=code)
        act(client, tournament, "result", {"match": code, "winner": str(match.home_id)})
    first = stage.matches.get(code="W1.1")
    body = {"match": "W1.1", "winner": str(first.away_id), "force": "on", "reason": "misread"}
    html = act(client, tournament, "result", body)
    preview = html[html.index('id="preview-form"') :]
    preview = preview[: preview.index("</form>")]
    assert "Confirm the correction of W1.1" in preview and "<strong>W2.1</strong>" in preview
    first.refresh_from_db()
    assert first.winner_id == first.home_id  # the dry run changed nothing
    # The list no longer matching what would be reset is refused (409 in the API).
    stale = act(client, tournament, "result", body | {"confirm": "yes", "resets": ["W9.9"]})
    assert "would now reset W2.1" in stale
    applied = act(client, tournament, "result", body | {"confirm": "yes", "resets": ["W2.1"]})
    assert "The result of W1.1 is recorded." in applied
    first.refresh_from_db()
    final = stage.matches.get(code="W2.1")
    assert first.winner_id == first.away_id and final.home_id == first.away_id
    assert final.status != "finished"
    reset = AuditEntry.objects.filter(tournament=tournament, action="tournaments.match.reset")
    assert reset.exists()


def test_settings_change_until_the_start_checked_as_at_creation():
    tournament, _ = open_tournament("swiss", 4)
    client = Client()
    client.force_login(tournament.organiser)
    url = f"/tournaments/{tournament.slug}/manage/edit"
    form = client.get(url).content.decode()
    assert 'value="swiss cup"' in form and "disabled" in form  # game and format: drafts only
    values = {"name": "Swiss Masters", "tiebreaks": "buchholz", "capacity": "6"}
    values |= {"format_options": '{"rounds": 3}', "ruleset": "{}", "visibility": "unlisted"}
    assert client.post(url, values).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.tiebreaks, tournament.capacity) == (
        "Swiss Masters",
        ["buchholz"],
        6,
    )
    assert tournament.visibility == "unlisted" and tournament.format == "swiss"
    refused = client.post(url, values | {"tiebreaks": "coin_toss"})
    assert refused.status_code == 400 and "unknown tie-break" in refused.content.decode()
    edited = AuditEntry.objects.get(tournament=tournament, action="tournaments.tournament.edited")
    assert set(edited.data["fields"]) >= {"name", "tiebreaks", "capacity"}
    act(client, tournament, "start")
    closed = client.post(url, values | {"name": "Later"})
    assert "settings change only until it starts" in closed.content.decode()


def test_the_desk_checks_in_promotes_and_disqualifies():
    tournament, players = open_tournament("single_elimination", 4, capacity=3)
    client = Client()
    client.force_login(tournament.organiser)
    waiting = Entrant.objects.get(pk=players[3].pk)
    assert waiting.status == "waitlisted"
    act(client, tournament, "entrant", {"entrant": str(waiting.pk), "what": "promote"})
    waiting.refresh_from_db()
    assert waiting.status == "registered"
    act(client, tournament, "open-check-in")
    html = act(client, tournament, "entrant", {"entrant": str(players[0].pk), "what": "check_in"})
    assert "is checked in." in html
    # First the confirmation, naming who takes the place; nothing changes until confirmed.
    asked = {"entrant": str(players[1].pk), "what": "disqualify"}
    html = act(client, tournament, "entrant", asked)
    assert "Disqualify p2?" in html
    assert Entrant.objects.get(pk=players[1].pk).status == "registered"
    html = act(client, tournament, "entrant", {**asked, "confirm": "yes"})
    assert "a disqualification needs a reason" in html
    act(client, tournament, "entrant", {**asked, "confirm": "yes", "reason": "no-show at the desk"})
    assert Entrant.objects.get(pk=players[1].pk).status == "disqualified"


def test_a_disqualification_during_play_forfeits_the_open_match():
    tournament, stage, _ = started("single_elimination", 4)
    client = Client()
    client.force_login(tournament.organiser)
    match = stage.matches.get(code="W1.1")
    cheat = match.away
    act(
        client,
        tournament,
        "entrant",
        {"entrant": str(cheat.pk), "what": "disqualify", "reason": "collusion", "confirm": "yes"},
    )
    match.refresh_from_db()
    assert match.result_kind == "forfeit" and match.winner_id == match.home_id


HTMX = {"HX-Request": "true"}


def test_an_htmx_console_form_gets_its_refusal_inside_it_translated_and_nothing_changes():
    tournament, _cast = open_tournament("single_elimination", 4)
    client = Client(headers={"accept-language": "ru"})
    client.force_login(tournament.organiser)
    refused = client.post(
        f"/tournaments/{tournament.slug}/manage/seed",
        {"method": "manual", "seed-999": "1"},
        headers={**HTMX, "HX-Trigger": "seeding-form"},
    )
    assert refused.status_code == 400  # swapped in all the same (htmx-config)
    html = refused.content.decode()
    form = html[
        html.index('id="seeding-form"') : html.index("</form>", html.index('id="seeding-form"'))
    ]
    assert 'role="alert"' in form
    assert "ручной посев перечисляет каждого участника ровно один раз" in form
    assert list(tournament.entrants.order_by("seed").values_list("seed", flat=True)) == [1, 2, 3, 4]
    done = client.post(
        f"/tournaments/{tournament.slug}/manage/seed",
        {"method": "rating"},
        headers={**HTMX, "HX-Trigger": "seeding-form"},
    )
    assert done.status_code == 200 and 'role="status"' in done.content.decode()
    assert 'id="console"' in done.content.decode()


def test_a_plain_post_without_javascript_redirects_with_the_message():
    tournament, _cast = open_tournament("single_elimination", 4)
    client = Client()
    client.force_login(tournament.organiser)
    response = client.post(f"/tournaments/{tournament.slug}/manage/start")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "The tournament has started." in page and "data-feedback" not in page


def test_a_form_gone_after_success_has_its_feedback_below_the_forms():
    tournament, _cast = open_tournament("single_elimination", 4)
    client = Client()
    client.force_login(tournament.organiser)
    done = client.post(
        f"/tournaments/{tournament.slug}/manage/start", headers={**HTMX, "HX-Trigger": "start-form"}
    ).content.decode()
    assert 'id="start-form"' not in done
    assert "The tournament has started." in done[done.index('id="console"') :]


def test_a_swiss_whose_organiser_starts_each_round():
    tournament, _cast = open_tournament(
        "swiss", 4, format_options={"rounds": 2, "pairing": "organiser"}
    )
    client = Client()
    client.force_login(tournament.organiser)
    act(client, tournament, "start")
    stage = tournament.stages.get()
    assert "Pair and start round" not in console(client, tournament)  # round 1 is on
    refused = client.post(
        f"/api/tournaments/{tournament.slug}/next-round", content_type="application/json"
    )
    assert refused.status_code == 409 and "still being played" in refused.json()["detail"]
    for match in stage.matches.filter(round__number=1):
        services.match_report_result(match=match, by=tournament.organiser, winner=match.home)
    stage.refresh_from_db()
    assert stage.rounds.count() == 1 and stage.status == "running"  # waits for the organiser
    html = act(client, tournament, "next-round")
    assert "Round 2 is paired." in html
    assert stage.matches.filter(round__number=2).count() == 2
    assert "Pair and start round" not in console(client, tournament)
    for match in stage.matches.filter(round__number=2):
        services.match_report_result(match=match, by=tournament.organiser, winner=match.home)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert AuditEntry.objects.filter(
        tournament=tournament, action="tournaments.round.started"
    ).exists()


def test_a_swiss_pairing_setting_is_checked():
    with pytest.raises(services.TournamentUserError, match="pairing is one of"):
        open_tournament("swiss", 4, format_options={"pairing": "sometimes"})


def test_the_host_plays_the_main_match_as_a_game_on_its_own_clocks():
    tournament, _cast = open_tournament("genius", 6, format_options=RULES)
    client = Client()
    client.force_login(tournament.organiser)
    act(client, tournament, "start")
    form = {"engine": "color_clash", "config": "{}", "allowances": '{"turn": 31}', "reserve": ""}
    assert "turn" in act(client, tournament, "main-match", form)  # the game's own refusal
    episode = Episode.objects.get(tournament=tournament, number=1)
    assert episode.mm_game is None
    form["allowances"], form["reserve"] = '{"turn": 60}', "10"
    assert "The main match is being played." in act(client, tournament, "main-match", form)
    episode.refresh_from_db()
    assert episode.mm_game.engine == "color_clash"
    assert episode.mm_game.time_control["allowances"] == {"turn": 60}
    assert episode.mm_game.time_control["reserve"] == 10
