"""Issue 18 in browsers: a player files a dispute on a Drafting Trios Death Match from its
page; a staff admin takes it from the queue, steps through the log on the dispute page with
the full state, and overturns the result; the season board shows the elimination it causes,
the player's tournament page the decision, and the audit log the ruling with its reason."""

from __future__ import annotations

import random

from games import engines
from games import services as game_services
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import no_horizontal_scroll
from tests.tournaments.builders import user
from tests.tournaments.test_genius_season import RULES
from tournaments import services
from tournaments.models import Entrant, Match
from tournaments.seasons import services as seasons

REASON = "The DMO's last pick was recorded twice"
RULING = "Server log shows a doubled pick; the EC wins the Death Match"


def death_match_under_way():
    """A season whose first Death Match is being played, four moves into its log."""
    host = user("host", "organiser")
    season = services.tournament_create(
        organiser=host,
        name="Disputed Season",
        slug="disputed-season",
        game="drafting_trios",
        format="genius",
        format_options=RULES,
        play_online=True,
        seed_window_seconds=0,  # dealt at once: this test is about the dispute, not the deal
        time_control={"allowances": {"draft": 300, "play": 300, "choice": 300}, "reserve": 600},
    )
    services.registration_open(tournament=season, by=host)
    cast = [
        services.entrant_register(tournament=season, user=user(f"cast{i}"), rating=100 - i)
        for i in range(1, 5)
    ]
    services.seeding_apply(tournament=season, by=host, method="rating")
    episode = seasons.season_start(tournament=season, by=host)
    winner, ec, dmo = cast[0], cast[3], cast[1]
    seasons.main_match_record(
        episode=episode, by=host, winners=[winner.pk], losers=[e.pk for e in cast[1:]]
    )
    seasons.candidates_choose(episode=episode, by=winner.user, chosen=[ec.pk])
    episode.refresh_from_db()
    if episode.status == "tokens":
        seasons.token_give(episode=episode, by=winner.user, giver=winner.pk, receiver=cast[2].pk)
    seasons.opponent_choose(episode=episode, by=ec.user, ec=ec.pk, dmo=dmo.pk)
    match = Match.objects.get(code="E1.DM1")
    game = match.match_games.get().game
    engine, rng = engines.get("drafting_trios"), random.Random(18)
    while GameSession.objects.get(pk=game.pk).version < 4:
        state = GameSession.objects.get(pk=game.pk).state
        seat = next(s for s in (0, 1) if engine.legal_actions(state, s))
        action = rng.choice(engine.legal_actions(state, seat))
        game_services.act(game_id=game.pk, seat=seat, action=action)
    return season, match, game, ec, dmo


def test_a_disputed_death_match_is_overturned_from_the_full_log(
    live_url, new_context, sign_in, screenshot
):
    season, match, game, ec, dmo = death_match_under_way()
    referee = user("referee", "staff admin")

    player = new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(player.context, live_url, ec.user)
    player.goto(f"{live_url}/games/{game.pk}/")
    player.get_by_role("link", name="File a dispute").click()
    player.get_by_label("What went wrong").fill(REASON)
    player.get_by_label("#4 ·").check()
    player.get_by_label("Evidence (optional)").fill("Screenshot at 21:04 shows one pick")
    player.get_by_role("button", name="File the dispute").click()
    assert "Your dispute is filed." in player.locator(".messages").inner_text()
    assert no_horizontal_scroll(player)
    screenshot(player, "dispute-filed")

    admin = new_context().new_page()
    sign_in(admin.context, live_url, referee)
    admin.goto(f"{live_url}/admin/disputes/")
    row = admin.locator("tr", has_text="E1.DM1")
    assert "cast4" in row.inner_text()
    row.get_by_role("button", name="Take it").click()
    assert "The dispute is assigned." in admin.locator(".messages").inner_text()
    row = admin.locator("tr", has_text="E1.DM1")
    assert "referee" in row.inner_text()  # still pending: assigned to whoever took it
    row.get_by_role("link").click()
    assert "Step 4 of 4" in admin.locator(".step-count").inner_text()
    admin.get_by_role("link", name="First").click()
    assert "The deal" in admin.locator(".step-action").inner_text()
    for number in (1, 2, 3):
        admin.get_by_role("link", name="Next step").click()
        assert f"Step {number} of 4" in admin.locator(".step-count").inner_text()
    admin.get_by_role("link", name="Next step").click()
    assert "disputed" in admin.locator(".step-action").inner_text()
    state = admin.locator("details", has_text="Full state").locator("pre").inner_text()
    assert '"decks"' in state and '"hands"' in state  # every hand, for the staff admin
    assert "What cast4 saw" in admin.content()
    screenshot(admin, "dispute-steps")

    admin.get_by_label("Ruling", exact=True).select_option("overturn")
    admin.get_by_label("Winner (overturn, forfeit)").select_option(str(ec.pk))
    admin.locator("#ruling-reason").fill(RULING)
    admin.get_by_role(
        "button", name="Rule (a ruling that changes the bracket is shown first)"
    ).click()
    assert "This ruling resets no match that had started." in admin.locator(".preview").inner_text()
    admin.get_by_role("button", name="Confirm the ruling").click()
    assert "The ruling is recorded." in admin.locator(".messages").inner_text()
    assert RULING in admin.locator(".dispute-ruling").inner_text()
    admin.reload()  # without the one-off message (the site's message list is not ours)
    assert serious_violations(admin) == []
    screenshot(admin, "dispute-ruled")

    match.refresh_from_db()
    assert match.winner_id == ec.pk and GameSession.objects.get(pk=game.pk).status == "aborted"
    assert Entrant.objects.get(pk=dmo.pk).eliminated_in == 1
    board = new_context().new_page()
    board.goto(f"{live_url}/tournaments/{season.slug}/")
    out = board.locator(".season-cast tr", has_text=dmo.display_name)
    assert "Eliminated in episode 1" in out.inner_text()
    assert "E1.DM1" in board.locator("#episode-1").inner_text()
    player.goto(f"{live_url}/tournaments/{season.slug}/")
    notice = player.locator(".dispute-notice").inner_text()
    assert "Ruled: Result overturned" in notice and RULING in notice
    screenshot(player, "dispute-notice")

    admin.goto(f"{live_url}/audit/?action=disputes.ruled")
    logged = admin.locator(".audit-row").first.inner_text()
    assert "ruled on the dispute on" in logged and RULING in logged and "referee" in logged
    screenshot(admin, "audit-log")
