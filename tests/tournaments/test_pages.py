"""The public tournament pages draw what the API answers, to whoever may see it."""

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone, translation

from tests.tournaments.builders import open_tournament, report_top_seed_wins, started, user
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments import services
from tournaments.models import Match, Tournament
from tournaments.seasons import services as seasons
from tournaments.templatetags import tournament_pages as labels

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:500]
    return response.content.decode()


class Cells(HTMLParser):
    """Text of every element carrying a given class (match boxes, table rows)."""

    def __init__(self, tag: str) -> None:
        super().__init__()
        self.tag, self.depth, self.rows, self.text = tag, 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag == self.tag:
            self.depth += 1
            if self.depth == 1:
                self.text = []

    def handle_endtag(self, tag):
        if tag == self.tag and self.depth:
            self.depth -= 1
            if not self.depth:
                self.rows.append(" ".join(" ".join(self.text).split()))

    def handle_data(self, data):
        if self.depth:
            self.text.append(data)


def texts(html: str, tag: str) -> list[str]:
    parser = Cells(tag)
    parser.feed(html)
    return parser.rows


def section(html: str, marker: str, end: str = "</section>") -> str:
    start = html.index(marker)
    return html[start : html.index(end, start)]


# -- the list ---------------------------------------------------------------------------------


def test_the_list_shows_public_tournaments_and_filters_them(client):
    cup, _ = open_tournament("single_elimination", 4)
    hidden = services.tournament_create(
        organiser=cup.organiser, name="Secret", slug="secret", game="high_card", format="swiss"
    )
    unlisted = services.tournament_create(
        organiser=cup.organiser,
        name="Friends only",
        slug="friends",
        game="high_card",
        format="swiss",
        visibility="unlisted",
    )
    services.registration_open(tournament=unlisted, by=cup.organiser)
    html = page(client, "/tournaments/")
    assert "single_elimination cup" in html and "4" in html
    assert hidden.name not in html and unlisted.name not in html
    assert "single_elimination cup" not in page(client, "/tournaments/?format=swiss")
    assert "single_elimination cup" in page(client, "/tournaments/?status=registration")
    assert "single_elimination cup" not in page(client, "/tournaments/?status=finished")
    # A value that is not a choice is ignored, with the form saying so; never an error page.
    assert "single_elimination cup" in page(client, "/tournaments/?format=chess&page=x")


# -- visibility -------------------------------------------------------------------------------


def test_a_draft_is_private_and_unlisted_is_reachable_by_link(client):
    host = user("host", "organiser")
    services.tournament_create(
        organiser=host, name="Draft", slug="draft", game="drafting_trios", format="swiss"
    )
    page(client, "/tournaments/draft/", status=404)
    page(client, "/tournaments/draft/board", status=404)
    page(client, "/tournaments/draft/embed", status=404)
    client.force_login(host)
    assert "Draft" in page(client, "/tournaments/draft/")
    unlisted, _ = open_tournament("swiss", 3, visibility="unlisted")
    assert unlisted.name in page(Client(), f"/tournaments/{unlisted.slug}/")


# -- brackets ---------------------------------------------------------------------------------


def test_a_single_elimination_bracket_is_drawn_with_connectors_and_third_place(client):
    tournament, stage, _ = started("single_elimination", 6, format_options={"third_place": True})
    for code in ("W1.2", "W1.4"):
        report_top_seed_wins(stage, code)
    html = page(client, f"/tournaments/{tournament.slug}/")
    bracket = section(html, 'class="bracket-section"')
    assert bracket.count('class="match ') == 8  # 4 + 2 + final, and the third-place match
    assert "Semi-finals" in bracket and "Final" in bracket and "Third-place match" in bracket
    assert bracket.count("link-down") == 3 and bracket.count("link-up") == 3
    boxes = {box.split()[0]: box for box in texts(bracket, "article")}
    assert boxes["W1.1"] == "W1.1 Bye p1 ✓ Bye"  # seed 1 goes through on a bye
    assert boxes["W1.2"].startswith("W1.2 Finished p4 ✓ 1 p5 0")
    assert "Winner of W1.2" not in boxes["W2.1"]  # filled: p1 v p4
    assert boxes["P3"] == "P3 Loser of W2.1 Loser of W2.2"
    standings = services.standings(tournament=tournament)
    rows = texts(section(html, 'class="standings"'), "tr")[1:]
    assert [row.split()[1] for row in rows] == [row["name"] for row in standings]


def test_a_double_elimination_page_shows_the_losers_bracket_and_the_reset(client):
    tournament, stage, _ = started("double_elimination", 4, format_options={"grand_final": "reset"})
    host = tournament.organiser
    for code in ("W1.1", "W1.2", "W2.1", "L1.1", "L2.1"):
        report_top_seed_wins(stage, code)
    final = stage.matches.get(code="GF1")
    # The losers-bracket champion wins the first grand final: the reset is played.
    services.match_report_result(match=final, by=host, winner=final.away)
    html = page(client, f"/tournaments/{tournament.slug}/")
    assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html
    assert "Bracket reset, if needed" in html
    boxes = {box.split()[0]: box for box in texts(html, "article")}
    assert boxes["GF2"].startswith("GF2 Ready")
    assert "Losers&#x27; final" in html


def test_a_match_links_to_its_games(client):
    tournament, stage, _ = started("single_elimination", 2, online=True)
    game_id = stage.matches.get(code="W1.1").match_games.get().game_id
    html = page(client, f"/tournaments/{tournament.slug}/")
    assert f'href="/games/{game_id}/"' in html and "Watch live" in html


# -- round robin and Swiss --------------------------------------------------------------------


def test_a_round_robin_is_a_berger_crosstable_with_the_api_totals(client):
    tournament, stage, _ = started("round_robin", 6, tiebreaks=["sonneborn_berger"])
    for match in stage.matches.filter(round__number=1):
        report_top_seed_wins(stage, match.code)
    html = page(client, f"/tournaments/{tournament.slug}/")
    table = section(html, 'class="crosstable-section"')
    rows = texts(table, "tr")[1:]
    assert [row.split()[1] for row in rows] == [f"p{i}" for i in range(1, 7)]
    points = {row["name"]: row["points"] for row in services.standings(tournament=tournament)}
    for row in rows:
        total = row.split()[-1]
        assert total == f"{points[row.split()[1]]:g}"
    # Each row meets the five others, once each: decided rounds show a score, later ones R<n>.
    assert all(row.count("○") + row.count("●") == 5 for row in rows)
    assert "R5" in table
    assert "SB" in html  # the tie-break column


def test_swiss_rounds_list_exactly_the_pairings_of_the_api(client):
    tournament, stage, _ = started("swiss", 12, tiebreaks=["buchholz", "sonneborn_berger"])
    for match in stage.matches.filter(round__number=1):
        report_top_seed_wins(stage, match.code)
    api = client.get(f"/api/tournaments/{tournament.slug}/").json()
    html = page(client, f"/tournaments/{tournament.slug}/")
    swiss = section(html, 'class="swiss"', end='<section class="standings"')
    rows = [r for r in texts(swiss, "tr") if not r.startswith("Board")]
    expected = []
    for round_ in api["stages"][0]["rounds"]:
        for m in sorted(round_["matches"], key=lambda m: int(m["code"].split(".")[1])):
            expected.append((m["home"]["name"], m["away"]["name"]))
    assert [(r.split()[1], r.split()[3 if "\u2013" in r else -1]) for r in rows][:6] == expected[:6]
    assert len(rows) == len(expected) == 12
    standings = client.get(f"/api/tournaments/{tournament.slug}/standings").json()["standings"]
    table = texts(section(html, 'class="standings"'), "tr")[1:]
    assert [r.split()[1] for r in table] == [row["name"] for row in standings]
    # The regulations are named without chess terms (issue #27, finding 11).
    assert "BH" in html and "FIDE" not in html and "regulations of 2026" in html


# -- a Genius season --------------------------------------------------------------------------


def test_the_season_board_reveals_sealed_answers_only_after_the_host_does(client):
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    seasons.sealed_open(
        episode=episode,
        by=tournament.organiser,
        prompt="Pick a number",
        deadline=timezone.now() + timedelta(minutes=5),
    )
    seasons.sealed_submit(episode=episode, entrant=cast[0], by=cast[0].user, text="seven-secret")
    url = f"/tournaments/{tournament.slug}/"
    assert "seven-secret" not in page(client, url)
    client.force_login(tournament.organiser)
    assert "seven-secret" not in page(client, url)  # not even the host, before the reveal
    episode.mm_deadline = timezone.now() - timedelta(seconds=1)
    episode.save()
    seasons.sealed_reveal(episode=episode, by=tournament.organiser)
    assert "seven-secret" in page(Client(), url)


def test_the_season_board_tells_each_episode(client):
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    seasons.ledger_record(
        tournament=tournament,
        by=tournament.organiser,
        kind="award",
        entrant=cast[5].pk,
        amount=7,
        reason="MM prize",
    )
    play_episode(tournament, episode, dm_draw=True)
    html = page(client, f"/tournaments/{tournament.slug}/")
    cast_rows = {r.split()[0]: r for r in texts(section(html, 'class="season-cast"'), "tr")[1:]}
    # ToL held, won, given and used this season, then garnets.
    assert cast_rows["p6"] == "p6 Eliminated in episode 1 0 0 0 0 0"
    assert cast_rows["p3"].endswith(" 7")  # the DM winner took the eliminated EC's garnets
    first = section(html, 'id="episode-1"', end="</article>")
    assert "Winners: p1" in first and "p6 picked p3" in first and "E1.DM1" in first
    assert "Episode 2" in html and "MM prize" in html
    for word in ("MM", "EC", "DMO", "DM", "ToL"):
        assert f">{word}</abbr>" in html


# -- embed and framing ------------------------------------------------------------------------


def test_only_the_embed_may_be_framed_by_other_sites(client):
    tournament, _, _ = started("single_elimination", 4)
    embed = client.get(f"/tournaments/{tournament.slug}/embed")
    assert embed.status_code == 200
    assert "frame-ancestors *" in embed["Content-Security-Policy"].split("; ")
    assert "X-Frame-Options" not in embed
    html = embed.content.decode()
    assert 'class="bracket-section"' in html and "site-header" not in html
    detail = client.get(f"/tournaments/{tournament.slug}/")
    assert detail["X-Frame-Options"] == "DENY"
    assert "/embed" in detail.content.decode()  # the copyable snippet


# -- a player's own entry ---------------------------------------------------------------------


def test_a_player_registers_joins_the_waitlist_withdraws_and_checks_in(client):
    tournament, players = open_tournament("single_elimination", 2, capacity=2)
    late = user("late")
    client.force_login(late)
    response = client.post(f"/tournaments/{tournament.slug}/register", {"display_name": "Lat"})
    assert response.status_code == 302
    html = page(client, f"/tournaments/{tournament.slug}/")
    assert "You are number 1 on the waitlist." in html
    again = client.post(f"/tournaments/{tournament.slug}/register", follow=True)
    assert "you are already registered" in again.content.decode()
    player = Client()
    player.force_login(players[0].user)
    player.post(f"/tournaments/{tournament.slug}/withdraw")
    assert "Lat: Registered" in page(client, f"/tournaments/{tournament.slug}/")
    services.check_in_open(tournament=tournament, by=tournament.organiser)
    closes = timezone.now() + timedelta(minutes=10)
    Tournament.objects.filter(pk=tournament.pk).update(check_in_closes=closes)
    assert "data-countdown" in page(client, f"/tournaments/{tournament.slug}/")
    client.post(f"/tournaments/{tournament.slug}/check-in")
    assert "Lat: Checked in" in page(client, f"/tournaments/{tournament.slug}/")


def test_signing_in_comes_before_registering(client):
    tournament, _ = open_tournament("single_elimination", 2)
    response = client.post(f"/tournaments/{tournament.slug}/register")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(f"/tournaments/{tournament.slug}/register").status_code == 405


def test_my_next_match_names_the_opponent(client):
    tournament, _, players = started("single_elimination", 4)
    client.force_login(players[0].user)
    html = page(client, f"/tournaments/{tournament.slug}/")
    assert "Your next match: W1.1 against p4." in html
    assert "Ready since" in html


def test_my_live_match_links_its_game_and_counts_down_its_clock(client):
    tournament, stage, players = started("single_elimination", 4, online=True)
    game = stage.matches.get(code="W1.1").match_games.get().game
    client.force_login(players[0].user)
    html = page(client, f"/tournaments/{tournament.slug}/")
    assert f'href="/games/{game.pk}/"' in html and "Being played since" in html
    if game.next_deadline:
        assert "next deadline in" in html and "data-countdown" in html


# -- cost -------------------------------------------------------------------------------------


@pytest.mark.parametrize("entrants", [8, 64])
def test_a_bracket_page_costs_the_same_few_queries_at_any_size(
    client, entrants, django_assert_max_num_queries
):
    tournament, stage, players = started("double_elimination", entrants)
    report_top_seed_wins(stage, "W1.1")
    client.force_login(players[0].user)
    # 22, the player's dispute notices, the header's unread notices (the bell) and the
    # reader's time zone (read until there is one, then kept in the session)
    with django_assert_max_num_queries(25):
        page(client, f"/tournaments/{tournament.slug}/")
    with django_assert_max_num_queries(12):
        page(Client(), f"/tournaments/{tournament.slug}/board")


def test_players_send_sealed_answers_name_the_ec_give_a_tol_and_pick_a_dmo():
    tournament, cast = open_tournament("genius", 6, format_options=RULES)
    host = tournament.organiser
    episode = seasons.season_start(tournament=tournament, by=host)
    seasons.sealed_open(
        episode=episode, by=host, prompt="Pick a number", deadline=timezone.now() + timedelta(1)
    )
    url = f"/tournaments/{tournament.slug}/"
    players = []
    for entrant in cast:
        browser = Client()
        browser.force_login(entrant.user)
        players.append(browser)
    html = page(players[0], url)
    assert "Pick a number" in html and "Send my answer" in html
    players[0].post(f"{url}episodes/1/submit", {"text": "7"})
    html = page(players[0], url)
    submission = episode.submissions.get()
    from tournaments.views.public import receipt

    assert receipt(submission) in html and "Replace my answer" in html
    assert receipt(submission) not in page(players[1], url)  # a receipt is its owner's
    seasons.main_match_record(
        episode=episode, by=host, winners=[cast[0].pk], losers=[e.pk for e in cast[1:]]
    )
    assert "name the elimination candidate" in page(players[0], url)
    players[0].post(f"{url}episodes/1/candidates", {"chosen": str(cast[5].pk)})
    players[0].post(f"{url}episodes/1/token", {"receiver": str(cast[1].pk)})
    html = page(players[5], url)
    dmo_form = section(html, 'class="inline dmo-form"', end="</form>")
    assert cast[1].display_name + "<" not in dmo_form  # holds a ToL: not offered
    assert f'value="{cast[2].pk}"' in dmo_form
    answer = players[5].post(f"{url}episodes/1/opponent", {"dmo": str(cast[1].pk)}, follow=True)
    assert "holds a Token of Life" in answer.content.decode()
    players[5].post(f"{url}episodes/1/opponent", {"dmo": str(cast[2].pk)})
    episode.refresh_from_db()
    assert episode.status == "death_match" and episode.dmos == {str(cast[5].pk): cast[2].pk}
    # Someone else's step is refused with the rule's words, and changes nothing.
    refused = players[3].post(f"{url}episodes/1/token", {"receiver": "1"}, follow=True)
    assert "no Token of Life is waiting" in refused.content.decode()


def test_a_player_transfers_garnets_within_the_rules():
    tournament, cast = open_tournament("genius", 4, format_options=RULES)
    seasons.season_start(tournament=tournament, by=tournament.organiser)
    seasons.ledger_record(
        tournament=tournament,
        by=tournament.organiser,
        kind="award",
        entrant=cast[0].pk,
        amount=5,
        reason="prize",
    )
    client = Client()
    client.force_login(cast[0].user)
    url = f"/tournaments/{tournament.slug}/garnets"
    client.post(url, {"to": str(cast[1].pk), "amount": "2", "reason": "a deal"})
    assert seasons.balances(tournament) == {cast[0].pk: 3, cast[1].pk: 2}
    too_much = client.post(url, {"to": str(cast[1].pk), "amount": "9", "reason": "x"}, follow=True)
    assert "garnets, not the 9 needed" in too_much.content.decode()
    assert seasons.balances(tournament) == {cast[0].pk: 3, cast[1].pk: 2}


def test_spectators_share_one_rendering_of_the_board_until_it_changes(
    django_assert_max_num_queries,
):
    tournament, stage, _ = started("single_elimination", 8)
    url = f"/tournaments/{tournament.slug}/board"
    first = page(Client(), url)
    with django_assert_max_num_queries(1):  # the tournament itself; the board is cached
        assert page(Client(), url) == first
    report_top_seed_wins(stage, "W1.1")
    changed = page(Client(), url)
    assert changed != first and "✓" in texts(changed, "article")[0]


def test_my_tournaments_lists_my_entries_with_their_next_match(client):
    tournament, _, players = started("single_elimination", 4)
    client.force_login(players[0].user)
    html = page(client, "/tournaments/mine/")
    assert tournament.name in html and "Your next match: W1.1 against p4." in html
    assert "What I organise" not in html
    host = Client()
    host.force_login(tournament.organiser)
    assert f"/tournaments/{tournament.slug}/manage/" in page(host, "/tournaments/mine/")
    assert Client().get("/tournaments/mine/").status_code == 302  # sign in first


def test_a_service_refusal_is_shown_in_the_readers_language_and_the_api_keeps_english():
    tournament, players = open_tournament("single_elimination", 2)
    for language, words in (("pt-br", "você já está inscrito"), ("ru", "вы уже зарегистрированы")):
        client = Client(headers={"accept-language": language})
        client.force_login(players[0].user)
        again = client.post(f"/tournaments/{tournament.slug}/register", follow=True)
        assert words in again.content.decode()
    api = Client(headers={"accept-language": "en"})
    api.force_login(players[0].user)
    answer = api.post(
        f"/api/tournaments/{tournament.slug}/register", content_type="application/json"
    )
    assert answer.status_code == 409
    assert answer.json()["detail"] == "you are already registered"


def test_status_and_format_labels_are_the_models_own_translated():
    assert set(labels.FORMATS) == set(services.TOURNAMENT_FORMATS)
    assert dict(Match.Status.choices) == labels.MATCH_STATUS
    with translation.override("ru"):
        assert str(labels.format_label("double_elimination")) == "Двойное выбывание"
        assert str(labels.tournament_status("running")) == str(Tournament.Status.RUNNING.label)
    with translation.override("pt-br"):
        assert str(labels.entrant_status("waitlisted")) == "Na lista de espera"


def test_a_players_htmx_form_is_answered_with_the_panel_and_the_entrants():
    tournament, _players = open_tournament("single_elimination", 2, capacity=2)
    client = Client(headers={"accept-language": "pt-br"})
    client.force_login(user("late"))
    headers = {"HX-Request": "true", "HX-Trigger": "register-form"}
    url = f"/tournaments/{tournament.slug}/register"
    done = client.post(url, {"display_name": "Lat"}, headers=headers).content.decode()
    assert 'id="player-forms"' in done and 'id="t-entrants"' in done
    assert 'role="status"' in done and "data-feedback" in done
    again = client.post(url, headers=headers)
    assert again.status_code == 409
    assert "você já está inscrito" in again.content.decode()
