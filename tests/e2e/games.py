"""Games for the browser tests, made through the same services the API calls."""

from __future__ import annotations

from typing import Any

from games import services
from hosting.core.roles import ORGANISER, grant


def organiser(django_user_model, username: str = "host"):
    user = django_user_model.objects.create_user(username, password="pw-organiser-123")
    grant(user, ORGANISER)
    return user


def create_game(creator, engine: str, seats: list[dict[str, Any]], **options: Any) -> Any:
    specs = [services.SeatSpec(**seat) for seat in seats]
    return services.game_create(engine_key=engine, seats=specs, created_by=creator, **options)


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def wait_for_version(page, above: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#game').dataset.version) > v",
        arg=above,
        timeout=timeout,
    )


PHONE_OPTIONS = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP_OPTIONS = {"viewport": {"width": 1280, "height": 900}}


def seated_page(new_context, live_url: str, game, number: int, **options: Any):
    """A browser page seated at ``number`` of a waiting game, through its invite link."""
    from games.invites import invite_for

    page = new_context(**options).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.console_errors = errors
    page.goto(f"{live_url}/games/{game.pk}/?invite={invite_for(game)}")
    page.get_by_role("button", name=f"Take seat {number + 1}").click()
    page.wait_for_url(f"{live_url}/games/{game.pk}/")
    return page


def outside_first_screen(page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the first viewport (the
    page scrolled to the top), each as "tag.class bottom"."""
    return page.evaluate(
        """(selector) => {
          window.scrollTo(0, 0);
          const height = window.innerHeight, width = window.innerWidth;
          return [...document.querySelectorAll(selector)]
            .filter((n) => n.getClientRects().length)
            .map((n) => [n, n.getBoundingClientRect()])
            .filter(([, r]) => r.top < 0 || r.bottom > height + 0.5
              || r.left < 0 || r.right > width + 0.5)
            .map(([n, r]) => `${n.tagName.toLowerCase()}.${n.className} ${Math.round(r.bottom)}`);
        }""",
        selector,
    )


def small_targets(page) -> list[str]:
    """Visible buttons, links, summaries and form controls smaller than 24 by 24 px (WCAG 2.5.8),
    except links inside a sentence (the criterion's inline exception)."""
    return page.evaluate(
        """() => {
          const inline = (n) => n.tagName === "A"
            && getComputedStyle(n).display === "inline" && n.parentElement
            && /^(P|LI|SPAN|TD|DD|FOOTER|SMALL)$/.test(n.parentElement.tagName);
          const targets = "button, a[href], summary, select, input:not([type=hidden])";
          return [...document.querySelectorAll(targets)]
            .filter((n) => n.getClientRects().length && !inline(n))
            .map((n) => [n, n.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.width < 23.5 || r.height < 23.5))
            .map(([n, r]) => `${n.tagName.toLowerCase()}#${n.id}.${n.className} `
              + `"${(n.textContent || n.name || "").trim().slice(0, 20)}" `
              + `${Math.round(r.width)}x${Math.round(r.height)}`);
        }"""
    )


def running_animations(page) -> list[str]:
    """The animations running now, each as "element.class: name" (none under reduced motion)."""
    return page.evaluate(
        """() => document.getAnimations().filter((a) => a.playState === 'running').map((a) =>
             `${a.effect?.target?.tagName}.${a.effect?.target?.className}: ${a.animationName
               || a.transitionProperty || a.id}`)"""
    )


def page_weight(page, live_url: str) -> int:
    """Bytes of the page's HTML, scripts, style sheets and images as served (uncompressed):
    the page itself and every same-origin resource it loaded."""
    urls = page.evaluate(
        """() => [location.href, ...performance.getEntriesByType("resource")
             .map((e) => e.name)]"""
    )
    total = 0
    seen = set()
    for url in urls:
        if not url.startswith(live_url) or url in seen or "/live/" in url or "/api/" in url:
            continue
        seen.add(url)
        response = page.request.get(url, headers={"Accept-Encoding": "identity"})
        total += len(response.body())
    return total


def claim_others(game, seats: list[int]) -> None:
    """Guests take these seats through the service (they play no part in the test)."""
    from games.invites import invite_for
    from hosting.core.identity import Guest

    for n in seats:
        services.seat_claim(
            game_id=game.pk,
            number=n,
            guest=Guest(id=f"g{n}", name=f"P{n}"),
            invite=invite_for(game),
        )


def check_table(page, live_url: str, name: str, size: str, controls: str) -> None:
    """The measures every table page keeps, as a seated player: on a phone the own hand and
    enabled controls (``controls``) in the first screen; nothing sideways; 24 px targets;
    axe-core clean; a light page; a screenshot to look at."""
    from tests.e2e.a11y import serious_violations
    from tests.e2e.conftest import save_snapshot, sticking_out

    shot = save_snapshot(page, f"{name}-{size}")
    page.screenshot(path=str(shot).replace(".png", "-full.png"), full_page=True)
    if size == "phone":
        assert page.locator(controls).count() > 0, controls
        below = outside_first_screen(page, controls)
        assert below == [], f"outside the first screen: {below}"
    wide = sticking_out(page)
    assert wide == [], f"wider than the page: {wide}"
    small = small_targets(page)
    assert small == [], f"targets under 24 px: {small}"
    violations = serious_violations(page)
    assert violations == [], violations
    weight = page_weight(page, live_url)
    print(f"page weight of {name} ({size}): {weight} bytes")
    assert weight < 250_000, f"{weight} bytes"
