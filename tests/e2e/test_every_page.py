"""Issue #26, the last "Must show": the four measures every page keeps, on a phone (390x844,
touch) and a desktop (1280x900): nothing sticks out sideways, every tap target is at least
24x24 px (WCAG 2.5.8; links inside a sentence are exempt), axe-core finds no serious or critical
violation, and the console shows no error. One set of data serves every page; each page is
screenshot to ``var/screenshots/every-page-<name>-<size>.png``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from games.rooms import services as rooms
from notifications import services as notices
from notifications.models import Kind
from tests.e2e.a11y import serious_violations
from tests.e2e.conftest import SCREENSHOTS, sticking_out
from tests.e2e.games import DESKTOP_OPTIONS, PHONE_OPTIONS, small_targets
from tests.e2e.test_disputes import death_match_under_way
from tests.e2e.test_finished_games import play_out
from tests.e2e.tournaments.test_spectators import begun
from tests.tournaments.builders import report_top_seed_wins, user
from tournaments import services
from tournaments.disputes import services as disputes
from tournaments.models import MatchSlot
from tournaments.seasons import confessionals, handouts, questions

GAMES = ("color_clash", "drafting_trios", "dropmix")


@dataclass(frozen=True)
class Visit:
    name: str
    path: str
    who: str = "anyone"  # anyone | host | party | referee | stranger
    status: int = 200


def site() -> tuple[list[Visit], dict[str, object]]:
    """The data every page needs, made once through the services, and the visits it allows."""
    season, match, game, ec, _dmo = death_match_under_way()  # a Genius season under way
    host = season.organiser
    formats = {}
    for fmt in ("single_elimination", "double_elimination", "round_robin", "swiss"):
        cup, stage = begun(host, fmt, 4)
        first = stage.matches.filter(home__isnull=False, away__isnull=False).order_by("code")[0]
        report_top_seed_wins(stage, first.code)
        formats[fmt] = cup
    user("referee", "staff admin")
    user("stranger")
    dispute = disputes.dispute_file(match=match, by=ec.user, reason="A doubled pick", game=game)
    room = rooms.room_create(person=rooms.Person(user=host))
    # The Death Match played to its end: a finished game to replay and verify, still disputable.
    done = play_out(game.pk)
    services.tournament_create(
        organiser=host, name="Draft cup", slug="draft-cup", format="swiss", game="color_clash"
    )

    # The season's own pages (issue 29) with something on each.
    handouts.give(tournament=season, by=host, recipients=[ec.pk], title="Tip", text="Look left")
    asked = questions.ask(tournament=season, by=ec.user, entrant=ec, text="May we trade ToL?")
    questions.answer(question=asked, by=host, text="No.", publish=True)
    confessionals.write(tournament=season, by=ec.user, entrant=ec, text="Nervous today.")

    cup = formats["single_elimination"]
    # A slot the players agree (the Death Match, already played: the page still shows it).
    MatchSlot.objects.create(
        match=match,
        window_opens=timezone.now(),
        window_closes=timezone.now() + timedelta(days=2),
    )
    notices.notify(ec.user, Kind.MATCH_READY, notices.About("match:x", "Disputed Season · DM"))
    visits = [
        Visit("home", "/"),
        Visit("play", "/play/"),
        *(Visit(f"play-{key}", f"/play/?game={key}") for key in GAMES),
        Visit("room-lobby", f"/r/{room.code}", who="host"),
        Visit("games", "/games/"),
        Visit("replay", f"/games/{done.pk}/replay"),
        Visit("verify", f"/games/{done.pk}/verify"),
        Visit("tournaments", "/tournaments/"),
        *(Visit(f"tournament-{fmt}", f"/tournaments/{t.slug}/") for fmt, t in formats.items()),
        Visit("tournament-genius", f"/tournaments/{season.slug}/"),
        Visit("season-rules", f"/tournaments/{season.slug}/rules"),
        Visit("season-desk-host", f"/tournaments/{season.slug}/desk", who="host"),
        Visit("season-desk-player", f"/tournaments/{season.slug}/desk", who="party"),
        Visit("season-lounge", f"/tournaments/{season.slug}/lounge", who="host"),
        Visit("manage", f"/tournaments/{cup.slug}/manage/", who="host"),
        Visit("manage-genius", f"/tournaments/{season.slug}/manage/", who="host"),
        # Swiss and round robin are reported on match cards; a draft's settings are a form.
        Visit("manage-swiss", f"/tournaments/{formats['swiss'].slug}/manage/", who="host"),
        Visit(
            "manage-round-robin",
            f"/tournaments/{formats['round_robin'].slug}/manage/",
            who="host",
        ),
        Visit("tournament-edit", "/tournaments/draft-cup/manage/edit", who="host"),
        Visit("webhooks", f"/tournaments/{cup.slug}/manage/webhooks", who="host"),
        Visit("tournament-new", "/tournaments/new/", who="host"),
        Visit("tournaments-mine", "/tournaments/mine/", who="host"),
        Visit("tokens", "/accounts/tokens/", who="host"),
        Visit("notices", "/notifications/", who="party"),
        Visit("notice-settings", "/notifications/settings/", who="host"),
        Visit("unsubscribe", f"/notifications/unsubscribe/{notices.unsubscribe_token(host)}/"),
        Visit("slot", f"/tournaments/{season.slug}/matches/{match.code}/slot", who="party"),
        Visit("audit", "/audit/", who="referee"),
        Visit("dispute-file", f"/disputes/new/{season.slug}/{match.code}", who="party"),
        Visit("dispute", f"/disputes/{dispute.pk}/", who="party"),
        Visit("dispute-queue", "/admin/disputes/", who="referee"),
        Visit("dispute-ruling", f"/admin/disputes/{dispute.pk}/", who="referee"),
        Visit("become-organiser", "/tournaments/become-organiser/", who="stranger"),
        Visit("organiser-requests", "/tournaments/organiser-requests/", who="referee"),
        Visit("profile", f"/u/{host.username}/"),
        Visit("challenges", "/challenges/", who="host"),
        Visit("login", "/accounts/login/"),
        Visit("signup", "/accounts/signup/"),
        Visit("403", f"/tournaments/{cup.slug}/manage/", who="stranger", status=403),
        Visit("404", "/no-such-page/", status=404),
        Visit("api-docs", "/api/docs/"),
    ]
    people = {"host": host, "party": ec.user}
    return visits, people


def problems(page, visit: Visit) -> list[str]:
    found = []
    wide = sticking_out(page)
    if wide:
        found.append(f"wider than the page: {wide}")
    small = small_targets(page)
    if small:
        found.append(f"targets under 24 px: {small}")
    found += serious_violations(page)
    return found


@pytest.mark.parametrize("size", ["390x844", "1280x900"])
def test_every_page_keeps_the_four_measures(live_url, new_context, sign_in, size):
    from django.contrib.auth import get_user_model

    visits, people = site()
    people["referee"] = get_user_model().objects.get(username="referee")
    people["stranger"] = get_user_model().objects.get(username="stranger")
    options = PHONE_OPTIONS if size == "390x844" else DESKTOP_OPTIONS
    pages = {}
    errors: list[str] = []

    def page_of(who: str):
        if who not in pages:
            context = new_context(**options)
            if who in people:
                sign_in(context, live_url, people[who])
            page = context.new_page()
            page.on(
                "console",
                lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None,
            )
            pages[who] = page
        return pages[who]

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    failures = {}
    for visit in visits:
        page = page_of(visit.who)
        before = len(errors)
        response = page.goto(f"{live_url}{visit.path}")
        page.wait_for_load_state("networkidle")
        found = []
        if response.status != visit.status:
            found.append(f"status {response.status}, not {visit.status}")
        if visit.status != 200:  # the browser reports the page's own status as a console error
            errors[before:] = [e for e in errors[before:] if f"status of {visit.status}" not in e]
            if (
                not page.locator("header").count()
                or not page.locator("meta[name=viewport]").count()
            ):
                found.append("no site header or no viewport meta")
        page.screenshot(
            path=str(SCREENSHOTS / f"every-page-{visit.name}-{size}.png"), full_page=True
        )
        found += problems(page, visit)
        found += errors[before:]
        if found:
            failures[visit.name] = found
    report = "\n".join(f"{name}: {'; '.join(found)}" for name, found in failures.items())
    assert not failures, f"{len(failures)} of {len(visits)} pages fail at {size}:\n{report}"
