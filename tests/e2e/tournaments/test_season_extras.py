"""Issue 29's season in browsers and through the services, to its final: seven players, a
private garnet transfer, a question published as a clarification, a handout, a confessional,
an activity check with a no-show (applied by the worker at its cut-off), two ECs in one
episode, Death Matches of three players on Color Clash, and the DM game left by the ECs' and
DMOs' bans (vetoes). Hidden texts stay with their owners and the hosts throughout."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import engines
from games import services as game_services
from games.models import GameSession
from tests.e2e.a11y import serious_violations
from tests.games.hosting_helpers import register_tiny, wait_for
from tests.tournaments.builders import user
from tests.tournaments.test_genius_season import RULES
from tournaments import checks, services
from tournaments.models import ActivityCheck, Entrant, Episode, LedgerEntry, Match
from tournaments.seasons import activity
from tournaments.seasons import death_match_picks as picks
from tournaments.seasons import services as seasons

SECRET_HANDOUT = "The vault opens at dawn"
SECRET_REASON = "for our quiet alliance"
SECRET_DIARY = "I will betray cast1"


def play_out(game_id: int) -> None:
    """Each seat to act takes its first legal move until the game ends (the worker settles)."""
    engine = None
    for _ in range(20000):
        game = GameSession.objects.get(pk=game_id)
        if game.is_over:
            return
        engine = engine or engines.get(game.engine)
        seat = sorted(engine.to_act(game.state))[0]
        game_services.act(
            game_id=game_id, seat=seat, action=engine.legal_actions(game.state, seat)[0]
        )
    raise AssertionError("the game did not end")


def play_death_matches(episode: Episode) -> None:
    for match in Match.objects.filter(round__number=episode.number, round__bracket="episodes"):
        game = match.match_games.get().game
        wait_for(lambda g=game: GameSession.objects.get(pk=g.pk).status == "running", 5)
        play_out(game.pk)
    assert wait_for(
        lambda: Episode.objects.get(pk=episode.pk).status == Episode.Status.FINISHED, 10
    )


def run_episode(season, episode: Episode) -> None:
    """The top seed still in wins the MM alone; the host names the ECs; each EC picks two."""
    host = season.organiser
    still = list(season.entrants.filter(eliminated_in__isnull=True, status="registered"))
    still.sort(key=lambda e: e.seed)
    seasons.main_match_record(
        episode=episode, by=host, winners=[still[0].pk], losers=[e.pk for e in still[1:]]
    )
    episode.refresh_from_db()
    if episode.status == Episode.Status.CANDIDATES:
        seasons.candidates_choose(episode=episode, by=host, chosen=[still[-1].pk])
    episode.refresh_from_db()
    if episode.status == Episode.Status.TOKENS:
        seasons.token_give(episode=episode, by=host, giver=still[0].pk, receiver=still[1].pk)
    episode.refresh_from_db()
    for ec in episode.ecs:
        while True:
            left = seasons.opponents_left(season, Episode.objects.get(pk=episode.pk), ec)
            if not left:
                break
            seasons.opponent_choose(
                episode=Episode.objects.get(pk=episode.pk), by=host, ec=ec, dmo=left[0]
            )
    play_death_matches(Episode.objects.get(pk=episode.pk))


def test_a_season_of_seven_with_its_extras_to_the_final(live_url, new_context, sign_in, screenshot):
    register_tiny()  # High Card, in the Death Match pool
    host = user("host", "organiser")
    season = services.tournament_create(
        organiser=host,
        name="Season Extras",
        slug="season-extras",
        game="color_clash",
        ruleset={"match": "one_round"},
        format="genius",
        format_options=RULES
        | {
            "ec_count": 2,
            "dm_players": 3,
            "transfer_visibility": "choice",
            "no_show": "fine",
            "no_show_fine": 2,
        },
        play_online=True,
        seed_window_seconds=0,
        time_control={"allowances": {"turn": 90}, "reserve": 600},
    )
    services.registration_open(tournament=season, by=host)
    cast = [
        services.entrant_register(tournament=season, user=user(f"cast{i}"), rating=100 - i)
        for i in range(1, 8)
    ]
    services.seeding_apply(tournament=season, by=host, method="rating")
    episode = seasons.season_start(tournament=season, by=host)
    for player in cast:
        seasons.ledger_record(
            tournament=season, by=host, kind="award", entrant=player.pk, amount=5, reason="start"
        )
    url = f"{live_url}/tournaments/season-extras/"

    def browser(who):
        page = new_context(viewport={"width": 390, "height": 844}).new_page()
        sign_in(page.context, live_url, who)
        return page

    hosting = browser(host)
    players = {i: browser(cast[i].user) for i in (1, 2, 3, 4, 5)}

    # A private transfer: cast2 pays cast3 with a reason only they (and the hosts) read.
    payer = players[1]
    payer.goto(f"{url}desk")
    payer.get_by_label("Offer garnets").fill("3")
    payer.get_by_label("to", exact=True).select_option(str(cast[2].pk))
    payer.get_by_label("Reason (optional)").fill(SECRET_REASON)
    payer.get_by_label("Private", exact=True).check()
    payer.get_by_role("button", name="Offer", exact=True).click()
    payer.get_by_text("The garnets are transferred.").wait_for()
    assert LedgerEntry.objects.get(kind="transfer").private

    # A rule question, published by the host as a clarification (anonymised).
    asker = players[3]
    asker.goto(f"{url}desk")
    asker.get_by_label("Ask the hosts (privately)").fill("May a ToL be traded for garnets?")
    asker.get_by_role("button", name="Ask", exact=True).click()
    asker.get_by_text("Your question is sent to the hosts.").wait_for()
    hosting.goto(f"{url}desk")
    hosting.get_by_label("Answer", exact=True).fill("No: tokens are never traded.")
    hosting.get_by_label("Publish as a clarification on the rules page").check()
    hosting.get_by_role("button", name="Send the answer").click()
    hosting.get_by_text("The clarification is published.").wait_for()

    # A handout to cast5, and a confessional by cast6.
    hosting.locator("fieldset").get_by_label(cast[4].display_name, exact=True).check()
    hosting.get_by_label("Title").fill("Extra info")
    hosting.get_by_label("Extra information").fill(SECRET_HANDOUT)
    hosting.get_by_role("button", name="Give the handout").click()
    hosting.get_by_text("The handout is given.").wait_for()
    players[4].goto(f"{url}desk")
    players[4].get_by_text(SECRET_HANDOUT).wait_for()
    diarist = players[5]
    diarist.goto(f"{url}desk")
    diarist.get_by_label("Your diary (the hosts read it)").fill(SECRET_DIARY)
    diarist.get_by_role("button", name="Save the entry").click()
    diarist.get_by_text("Your confessional entry is saved.").wait_for()
    screenshot(diarist, "season-desk-player")

    # An activity check: everyone but cast7 checks in; the worker fines the no-show.
    check = activity.open_check(
        tournament=season, by=host, cutoff=timezone.now() + timedelta(seconds=8)
    )
    for index in (1, 2, 3, 4, 5):
        page = players[index]
        page.goto(f"{url}desk")
        page.get_by_role("button", name="Check in").click()
        page.locator("#desk-activity-list").get_by_text("You are checked in.").wait_for()
    for entrant in (cast[0],):
        activity.check_in(check=check, by=entrant.user, entrant=entrant)
    assert wait_for(lambda: ActivityCheck.objects.get(pk=check.pk).status == "applied", 20)
    assert ActivityCheck.objects.get(pk=check.pk).outcome == {str(cast[6].pk): "fined 2"}

    # Episode 1: the DM game left by bans, two ECs, two three-player Death Matches.
    picks.pick_open(
        episode=episode,
        by=host,
        mode="bans",
        pool=["color_clash", "dropmix", "high_card"],
        step_seconds=120,
    )
    seasons.main_match_record(
        episode=episode, by=host, winners=[cast[0].pk], losers=[e.pk for e in cast[1:]]
    )
    seasons.candidates_choose(episode=episode, by=host, chosen=[cast[5].pk, cast[6].pk])
    seasons.token_give(episode=episode, by=host, giver=cast[0].pk, receiver=cast[1].pk)
    seasons.opponent_choose(episode=episode, by=host, ec=cast[5].pk, dmo=cast[2].pk)
    seasons.opponent_choose(episode=episode, by=host, ec=cast[5].pk, dmo=cast[3].pk)
    seasons.opponent_choose(episode=episode, by=host, ec=cast[6].pk, dmo=cast[4].pk)
    seasons.opponent_choose(episode=episode, by=host, ec=cast[6].pk, dmo=cast[1].pk)
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DM_PICK
    ec_page = players[5]  # cast6, the first EC, bans first; then their first DMO (cast3)
    ec_page.goto(url)
    ec_page.get_by_label("ban a game from the Death Match pool").select_option("dropmix")
    ec_page.get_by_role("button", name="Ban this game").click()
    ec_page.get_by_text("The game is banned.").wait_for()
    dmo_page = players[2]
    dmo_page.goto(url)
    dmo_page.get_by_label("ban a game from the Death Match pool").select_option("high_card")
    dmo_page.get_by_role("button", name="Ban this game").click()
    dmo_page.get_by_text("The game is banned.").wait_for()
    episode.refresh_from_db()
    assert episode.status == Episode.Status.DEATH_MATCH and episode.dm_engine == "color_clash"
    dms = Match.objects.filter(round__number=1).order_by("code")
    assert [len(m.extra["three"]) for m in dms] == [3, 3]
    play_death_matches(episode)
    assert Entrant.objects.filter(tournament=season, eliminated_in=1).count() == 2

    # Episodes 2 to 4 (one three-player DM each), then the final, decided by the host.
    while True:
        current = season.episodes.order_by("-number").first()
        if current.kind == Episode.Kind.FINAL:
            break
        run_episode(season, current)
    final = Match.objects.get(code="FINAL")
    services.match_report_result(match=final, by=host, winner=final.home)
    season.refresh_from_db()
    assert season.status == "finished"
    assert [p for _, p in checks.all_problems()] == [[]]

    # The spectator's view: the clarification, the story, the champion; no hidden text.
    spectator = new_context().new_page()
    spectator.goto(f"{url}rules")
    spectator.locator("#rules-clarifications ~ ol, .entries-list").first.get_by_text(
        "May a ToL be traded for garnets?"
    ).wait_for()
    assert serious_violations(spectator) == []
    screenshot(spectator, "season-rules")
    spectator.goto(url)
    spectator.get_by_text("Champion").first.wait_for()
    assert "Glossary" in spectator.content() and "The story of episode 1" in spectator.content()
    assert serious_violations(spectator) == []
    screenshot(spectator, "season-extras-board")
    for page, may_see in ((spectator, ()), (players[4], (SECRET_HANDOUT,))):
        for where in ("", "rules", "desk", "lounge", "board"):
            page.goto(f"{url}{where}")
            text = page.content()
            for secret in (SECRET_HANDOUT, SECRET_REASON, SECRET_DIARY):
                assert secret not in text or secret in may_see, (secret, where)
    hosting.goto(f"{url}desk")
    for secret in (SECRET_HANDOUT, SECRET_REASON, SECRET_DIARY):
        hosting.get_by_text(secret).first.wait_for()
    screenshot(hosting, "season-desk-host")
