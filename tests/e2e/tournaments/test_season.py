"""Issue 16, test 2: a Genius season's first episode in browsers: sealed MM answers, the
host's reveal and MM, the EC named, a ToL given, the DMO picked, the Drafting Trios Death
Match played on its play page, the elimination, all on the season board."""

from __future__ import annotations

import time
from datetime import timedelta

from django.utils import timezone

from games.fairness import effective_seed
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.e2e.test_drafting_trios import act_if_asked
from tests.tournaments.builders import user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import Entrant, Episode
from tournaments.seasons import services as seasons

ANSWER_SECONDS = 25


def test_a_first_episode_in_browsers(live_url, new_context, sign_in, screenshot):
    host = user("host", "organiser")
    season = services.tournament_create(
        organiser=host,
        name="Season One",
        slug="season-one",
        game="drafting_trios",
        format="genius",
        format_options=RULES,
        play_online=True,
        # Short enough for a test, long enough that clicking never runs out of time.
        time_control={"allowances": {"draft": 30, "play": 30, "choice": 30}, "reserve": 120},
    )
    services.registration_open(tournament=season, by=host)
    cast = [
        services.entrant_register(tournament=season, user=user(f"cast{i}"), rating=100 - i)
        for i in range(1, 7)
    ]
    services.seeding_apply(tournament=season, by=host, method="rating")
    episode = seasons.season_start(tournament=season, by=host)
    deadline = timezone.now() + timedelta(seconds=ANSWER_SECONDS)
    seasons.sealed_open(episode=episode, by=host, prompt="A number from 1 to 10", deadline=deadline)
    url = f"{live_url}/tournaments/season-one/"

    players = []
    for number, entrant in enumerate(cast, start=1):
        page = new_context(viewport={"width": 390, "height": 844}).new_page()
        sign_in(page.context, live_url, entrant.user)
        page.goto(url)
        page.get_by_label("Your sealed answer").fill(f"{number} secret-{number}")
        page.get_by_role("button", name="Send my answer").click()
        page.locator("[data-feedback]", has_text="Your sealed answer is saved.").wait_for()
        assert len(page.locator(".receipt code.hash").inner_text()) == 64
        players.append(page)
    screenshot(players[0], "tournament-season-sealed-answer")
    spectator = new_context().new_page()
    spectator.goto(url)
    assert "secret-" not in spectator.content()  # sealed until the host reveals them

    console = new_context().new_page()
    sign_in(console.context, live_url, host)
    console.goto(f"{url}manage/")
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.5)
    console.get_by_role("button", name="Reveal the answers").click()
    console.locator("[data-feedback]", has_text="The sealed answers are revealed.").wait_for()
    spectator.get_by_text("1 secret-1").wait_for()  # live, without a reload
    console.get_by_role("checkbox", name=cast[0].display_name, exact=True).check()
    console.get_by_role("button", name="Record the main match").click()
    console.locator("[data-feedback]", has_text="The main match is recorded.").wait_for()
    # The host sets the episode's Death Match: Drafting Trios on its own clocks, and a
    # deadline for the DMO pick.
    dm = console.locator("#dm-setup")
    dm.get_by_label("Game", exact=True).select_option("drafting_trios")
    # The Death Match's clock in fields, no JSON typed (finding 9).
    assert not dm.get_by_label("Allowance per phase").is_visible()
    assert not dm.get_by_label("Turn: seconds per move").first.is_visible()
    for phase in ("Draft", "Play", "Choice"):
        dm.get_by_label(f"{phase}: seconds per move").fill("40")
    dm.get_by_label("Reserve").fill("150")
    pick_by = timezone.localtime(timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    dm.get_by_label("Deadline for the EC's DMO pick").fill(pick_by)
    dm.get_by_role("button", name="Save the DM settings").click()
    console.locator("[data-feedback]", has_text="The Death Match settings are saved.").wait_for()
    screenshot(console, "tournament-manage-season")

    # The sole MM winner names the EC and hands on the spare Token of Life.
    winner = players[0]
    winner.reload()
    winner.get_by_label("name the elimination candidate").select_option(str(cast[5].pk))
    winner.get_by_role("button", name="Name the EC").click()
    winner.get_by_label("Give your spare Token of Life").select_option(str(cast[1].pk))
    winner.get_by_role("button", name="Give the ToL").click()
    winner.locator("[data-feedback]", has_text="Your Token of Life is given.").wait_for()

    # The EC is offered only the players the rules allow, and picks one.
    ec = players[5]
    ec.reload()
    offered = ec.get_by_label("pick your Death Match opponent").locator("option")
    offered_ids = {int(v) for v in offered.evaluate_all("os => os.map(o => o.value)")}
    assert offered_ids == {cast[2].pk, cast[3].pk, cast[4].pk}  # not the MM winner, not the ToL
    ec.get_by_label("pick your Death Match opponent").select_option(str(cast[2].pk))
    assert ec.locator(".dmo-form time[data-countdown]").count() == 1  # the pick's deadline
    ec.get_by_role("button", name="Pick this DMO").click()
    ec.locator("[data-feedback]", has_text="Your Death Match opponent is picked.").wait_for()
    assert Episode.objects.get(pk=episode.pk).status == "death_match"

    # The Death Match: EC and DMO follow "Play your game" to its play page and click it out.
    # The game waits in its seed window until both browsers have sent their part of the
    # shuffle, which each does on opening the page.
    duel = []
    for page in (ec, players[2]):
        page.reload()
        page.get_by_role("link", name="Play your game").click()
        duel.append(page)
        if len(duel) == 1:
            waiting = page.locator("#seed-window")
            waiting.get_by_text("Waiting for both players").wait_for()
            waiting.get_by_text("Your part of the shuffle is sent").wait_for()
            assert "Starts in" in waiting.inner_text()
            screenshot(page, "tournament-death-match-seed-window")
    for page in duel:
        page.locator("#game[data-status='running']").wait_for()
        assert page.locator("#seed-window").is_hidden()
    game_id = int(duel[0].locator("#game").get_attribute("data-game"))
    dealt = GameSession.objects.get(pk=game_id)
    client_seeds = [seat.client_seed for seat in dealt.seats.order_by("number")]
    assert all(len(seed) == 32 for seed in client_seeds)  # each browser's own 16 random bytes
    assert dealt.effective_seed == effective_seed(bytes.fromhex(dealt.seed), client_seeds).hex()
    assert spectator.locator(f"#match-E1\\.DM1 a[href='/games/{game_id}/']").count() == 1
    for _ in range(2000):
        if duel[0].locator("#game").get_attribute("data-status") != "running":
            break
        if not (act_if_asked(duel[0]) | act_if_asked(duel[1])):
            duel[0].wait_for_timeout(50)
    game = GameSession.objects.get(pk=game_id)
    assert game.status == "finished"
    assert game.time_control["reserve"] == 150  # the clocks the host chose for this DM
    assert game.time_control["allowances"] == {"draft": 40, "play": 40, "choice": 40}
    spectator.locator(".season-cast tr.out").wait_for()  # live, without a reload
    loser = Entrant.objects.get(tournament=season, eliminated_in=1)
    assert loser.pk in (cast[5].pk, cast[2].pk)
    board = spectator.locator("#episode-1").inner_text()
    assert "cast6 picked cast3" in board and "E1.DM1" in board
    row = spectator.locator(".season-cast tr", has_text=loser.display_name)
    assert "Eliminated in episode 1" in row.inner_text()
    assert serious_violations(spectator) == []
    screenshot(spectator, "tournament-season-episode-1")
