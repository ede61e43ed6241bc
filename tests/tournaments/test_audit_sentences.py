"""Issue #27, finding 8: the audit log reads as sentences naming people and matches, with the
reason beside it and the raw record behind a disclosure; the filters are kept."""

import pytest
from django.test import Client

from tests.tournaments.builders import started
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_correction_is_said_with_the_names_and_the_raw_record_is_behind_a_disclosure():
    tournament, stage, players = started("single_elimination", 4)
    host = tournament.organiser
    first = stage.matches.get(code="W1.1")
    services.match_report_result(match=first, by=host, winner=first.home)
    services.match_report_result(
        match=first, by=host, winner=first.away, reason="score sheet misread"
    )
    services.entrant_withdraw(entrant=players[1], by=host, reason="fell ill")
    client = Client()
    client.force_login(host)
    page = client.get(f"/audit/?tournament={tournament.slug}").content.decode()
    assert "organiser corrected W1.1: p4 wins (was p1) — " in page
    assert "reason: score sheet misread" in page
    assert "organiser withdrew p2 — forfeited: W1.2" in page
    assert "organiser entered W1.1: p1 wins" in page
    # The ids are in the recorded data only, behind a disclosure.
    sentences = [line for line in page.splitlines() if 'class="audit-sentence"' in line]
    assert sentences and not any("winner=" in s or "entrant=" in s for s in sentences)
    assert '<details class="audit-raw"><summary>Recorded data</summary>' in page
    assert "<code>tournaments.match.result_corrected</code>" in page
    # The filters are kept: the chosen kind of action stays selected.
    kept = client.get(
        f"/audit/?tournament={tournament.slug}&action=tournaments.match."
    ).content.decode()
    assert '<option value="tournaments.match." selected>' in kept
    assert f'name="tournament" value="{tournament.slug}"' in kept
    assert "withdrew p2" not in kept
    # The console's audit trail says the same.
    console = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert "organiser corrected W1.1: p4 wins (was p1)" in console
