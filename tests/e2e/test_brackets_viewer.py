"""Our brackets-viewer export drawn by brackets-viewer.js itself (the npm release, vendored
for tests) in Chromium, with the same matches and scores as our own API and pages."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import SCREENSHOTS
from tests.tournaments.builders import report_top_seed_wins, started

VIEWER = Path(__file__).resolve().parent / "vendor" / "brackets-viewer"


def draw(page, origin: str, data: dict) -> None:
    # An origin of our own first: the viewer's i18n reads localStorage, which about:blank lacks.
    page.goto(f"{origin}/api/ping")
    page.set_content('<main><div id="bv" class="brackets-viewer"></div></main>')
    page.add_style_tag(path=str(VIEWER / "brackets-viewer.min.css"))
    page.add_script_tag(path=str(VIEWER / "brackets-viewer.min.js"))
    page.evaluate(
        "data => window.bracketsViewer.render(data, {selector: '#bv', clear: true})", data
    )
    page.locator("#bv .match").first.wait_for()


def drawn_matches(page) -> dict[int, dict]:
    """Each drawn match (by its id in the data): its two names and two results as shown."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#bv .match[data-match-id]')]
             .map(m => [m.dataset.matchId, [...m.querySelectorAll('.participant')].map(p => ({
               name: (p.querySelector('.name')?.textContent || '').trim(),
               result: (p.querySelector('.result')?.textContent || '').trim()}))]))"""
    )


@pytest.mark.parametrize(
    ("fmt", "entrants", "played"),
    [("double_elimination", 4, ["W1.1", "W1.2"]), ("round_robin", 4, ["R1.1", "R1.2"])],
)
def test_brackets_viewer_draws_our_export(asgi_server, new_context, fmt, entrants, played):
    tournament, stage, _ = started(fmt, entrants)
    for code in played:
        report_top_seed_wins(stage, code)
    base = f"{asgi_server}/api/tournaments/{tournament.slug}"
    data = httpx.get(f"{base}/export.json", params={"format": "brackets-viewer"}).json()
    detail = httpx.get(f"{base}/").json()
    ours = {m["code"]: m for s in detail["stages"] for r in s["rounds"] for m in r["matches"]}

    # A community site's page, drawn on our origin only for its localStorage: not under our CSP.
    page = new_context(bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    draw(page, asgi_server, data)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"brackets-viewer-{fmt}.png"), full_page=True)
    assert errors == []
    drawn = drawn_matches(page)
    assert len(drawn) == len(data["matches"])
    for match in data["matches"]:
        mine = ours[match["code"]]
        sides = drawn[str(match["id"])]
        for shown, side in zip(sides, ("home", "away"), strict=False):
            if mine[side] is not None:
                # The viewer prefixes a first-round name with its seed ("#1 p1").
                assert re.sub(r"^#\d+ ", "", shown["name"]) == mine[side]["name"], sides
        if mine["status"] == "finished":
            scores = [s["result"] for s in sides]
            assert scores == [f"{mine['home_score']:g}", f"{mine['away_score']:g}"], scores
