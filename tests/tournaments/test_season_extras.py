"""A Genius season's extras through the services and the API: garnet transfers by the
season's rule, rule questions published as clarifications with versioned rules, private
handouts, confessionals and the viewing lounge."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from hosting.core.errors import Conflict, Forbidden
from notifications.models import Notice
from tests.tournaments.builders import open_tournament
from tests.tournaments.test_genius_season import RULES, play_episode
from tournaments.core.errors import TournamentUserError
from tournaments.models import AuditEntry, GarnetTransfer, LedgerEntry, RulesVersion
from tournaments.seasons import confessionals, handouts, questions, transfers
from tournaments.seasons import services as seasons
from tournaments.seasons.signals import rules_changed

pytestmark = pytest.mark.django_db


def _season(**rules):
    tournament, cast = open_tournament("genius", 6, format_options=RULES | rules)
    episode = seasons.season_start(tournament=tournament, by=tournament.organiser)
    for player in cast[:2]:
        seasons.ledger_record(
            tournament=tournament,
            by=tournament.organiser,
            kind="award",
            entrant=player.pk,
            amount=10,
            reason="start",
        )
    return tournament, cast, episode


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# -- transfers --------------------------------------------------------------------------------


def test_an_immediate_public_transfer_is_one_ledger_entry_with_both_players():
    tournament, cast, _ = _season()
    done = transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[2], amount=3
    )
    assert done.status == "done" and not done.private
    entry = done.ledger_entry
    assert (entry.kind, entry.entrant_id, entry.to_id, entry.amount) == (
        "transfer",
        cast[0].pk,
        cast[2].pk,
        3,
    )
    assert seasons.public_balances(tournament)[cast[2].pk] == 3


def test_the_receiver_accepts_or_declines():
    tournament, cast, _ = _season(transfers="receiver_accepts")
    offered = transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[2], amount=4
    )
    assert offered.status == "awaiting_receiver"
    assert not LedgerEntry.objects.filter(kind="transfer").exists()
    with pytest.raises(Forbidden):
        transfers.accept(transfer=offered, by=cast[3].user)
    transfers.accept(transfer=offered, by=cast[2].user)
    assert seasons.balances(tournament)[cast[2].pk] == 4
    again = transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[2], amount=1
    )
    transfers.decline(transfer=again, by=cast[2].user)
    assert GarnetTransfer.objects.get(pk=again.pk).status == "declined"
    with pytest.raises(Conflict):
        transfers.accept(transfer=again, by=cast[2].user)


def test_the_host_approves_and_an_overdraft_is_refused():
    tournament, cast, _ = _season(transfers="host_approves")
    with pytest.raises(TournamentUserError, match="garnets, not the 99 needed"):
        transfers.offer(
            tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[2], amount=99
        )
    offered = transfers.offer(
        tournament=tournament, by=cast[0].user, sender=cast[0], receiver=cast[2], amount=2
    )
    with pytest.raises(Forbidden):
        transfers.approve(transfer=offered, by=cast[2].user)
    transfers.approve(transfer=offered, by=tournament.organiser)
    assert GarnetTransfer.objects.get(pk=offered.pk).status == "done"
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"tournaments.season.transfer.offered", "tournaments.season.transfer.done"} <= actions


def test_a_private_transfer_is_seen_only_by_its_players_and_the_hosts():
    tournament, cast, _ = _season(transfer_visibility="choice")
    secret = transfers.offer(
        tournament=tournament,
        by=cast[0].user,
        sender=cast[0],
        receiver=cast[2],
        amount=5,
        reason="for the alliance",
        private=True,
    )
    assert secret.ledger_entry.private
    assert cast[2].pk not in seasons.public_balances(tournament)
    assert seasons.balances(tournament)[cast[2].pk] == 5
    slug = tournament.slug
    for user, sees in (
        (cast[0].user, True),
        (cast[2].user, True),
        (tournament.organiser, True),
        (cast[3].user, False),
    ):
        answer = _client(user).get(f"/api/tournaments/{slug}/transfers").json()
        assert any(t["id"] == secret.pk for t in answer) is sees
    assert Client().get(f"/api/tournaments/{slug}/transfers").json() == []
    audit = AuditEntry.objects.filter(action="tournaments.season.transfer.done").get()
    assert "amount" not in audit.data and "to" not in audit.data


def test_transfers_through_the_api():
    tournament, cast, _ = _season(transfers="receiver_accepts")
    slug = tournament.slug
    made = _client(cast[0].user).post(
        f"/api/tournaments/{slug}/transfers",
        {"to": cast[1].pk, "amount": 2, "reason": "a deal"},
        content_type="application/json",
    )
    assert made.status_code == 201 and made.json()["status"] == "awaiting_receiver"
    wrong = _client(cast[0].user).post(
        f"/api/tournaments/{slug}/transfers/{made.json()['id']}",
        {"decision": "accept"},
        content_type="application/json",
    )
    assert wrong.status_code == 403
    accepted = _client(cast[1].user).post(
        f"/api/tournaments/{slug}/transfers/{made.json()['id']}",
        {"decision": "accept"},
        content_type="application/json",
    )
    assert accepted.status_code == 200 and accepted.json()["status"] == "done"
    bad = _client(cast[0].user).post(
        f"/api/tournaments/{slug}/transfers",
        {"to": cast[1].pk, "amount": "lots"},
        content_type="application/json",
    )
    assert bad.status_code == 400


# -- rule questions and versioned rules -------------------------------------------------------


def test_a_question_answered_privately_then_published_makes_a_new_rules_version(
    django_capture_on_commit_callbacks,
):
    tournament, cast, _ = _season()
    heard = []

    def listener(**kwargs):
        heard.append(kwargs)

    rules_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            questions.rules_edit(
                tournament=tournament,
                by=tournament.organiser,
                text="Be kind.",
                change="First rules",
            )
            asked = questions.ask(
                tournament=tournament, by=cast[1].user, entrant=cast[1], text="Can a ToL be sold?"
            )
            questions.answer(question=asked, by=tournament.organiser, text="Not yet decided")
            assert questions.clarifications(tournament) == []
            assert list(questions.visible_to(tournament, cast[2].user)) == []
            questions.answer(question=asked, by=tournament.organiser, text="No.", publish=True)
    finally:
        rules_changed.disconnect(listener)
    (clarification,) = questions.clarifications(tournament)
    assert clarification["answer"] == "No." and clarification["asker"] is None
    assert clarification["version"] == 2
    assert RulesVersion.objects.filter(tournament=tournament).count() == 2
    assert len(heard) == 2 and heard[1]["version"].number == 2
    assert cast[1].user_id in heard[1]["players"]
    page = Client().get(f"/tournaments/{tournament.slug}/rules").content.decode()
    assert "Can a ToL be sold?" in page and "Change log" in page and "Version 2" in page
    with pytest.raises(Forbidden):
        questions.answer(question=asked, by=cast[2].user, text="yes")


def test_questions_through_the_api():
    tournament, cast, _ = _season()
    slug = tournament.slug
    asked = _client(cast[1].user).post(
        f"/api/tournaments/{slug}/questions",
        {"text": "Is lying allowed?", "anonymous": False},
        content_type="application/json",
    )
    assert asked.status_code == 201
    assert _client(cast[2].user).get(f"/api/tournaments/{slug}/questions").json() == []
    published = _client(tournament.organiser).post(
        f"/api/tournaments/{slug}/questions/{asked.json()['id']}/answer",
        {"text": "Yes.", "publish": True},
        content_type="application/json",
    )
    assert published.json()["status"] == "published"
    rules = Client().get(f"/api/tournaments/{slug}/rules").json()
    assert rules["clarifications"][0]["asker"] == cast[1].display_name
    assert rules["versions"][-1]["number"] == 1


# -- handouts, confessionals, lounge ----------------------------------------------------------


def test_handouts_reach_only_their_recipients_and_the_hosts():
    tournament, cast, _ = _season()
    given = handouts.give(
        tournament=tournament,
        by=tournament.organiser,
        recipients=[cast[0].pk, cast[1].pk],
        title="Hint",
        text="The vault code is 4711",
    )
    assert list(handouts.visible_to(tournament, cast[0].user)) == [given]
    assert list(handouts.visible_to(tournament, cast[2].user)) == []
    with pytest.raises(Forbidden):
        handouts.give(
            tournament=tournament, by=cast[0].user, recipients=[cast[1].pk], title="x", text="y"
        )
    slug = tournament.slug
    answer = _client(cast[3].user).get(f"/api/tournaments/{slug}/handouts").json()
    assert answer == []
    made = _client(tournament.organiser).post(
        f"/api/tournaments/{slug}/handouts",
        {"recipients": [cast[2].pk], "title": "More", "text": "Look left"},
        content_type="application/json",
    )
    assert made.status_code == 201
    assert _client(cast[2].user).get(f"/api/tournaments/{slug}/handouts").json()[0]["text"] == (
        "Look left"
    )


def test_confessionals_and_the_lounge():
    tournament, cast, episode = _season(confessionals_after_season=True)
    entry = confessionals.write(
        tournament=tournament, by=cast[5].user, entrant=cast[5], text="I trust nobody"
    )
    with pytest.raises(Forbidden):
        confessionals.write(tournament=tournament, by=cast[4].user, entrant=cast[5], text="x")
    assert list(confessionals.visible_to(tournament, tournament.organiser)) == [entry]
    assert list(confessionals.visible_to(tournament, cast[4].user)) == []
    slug = tournament.slug
    assert _client(cast[5].user).get(f"/api/tournaments/{slug}/lounge").status_code == 403
    play_episode(tournament, episode)  # the bottom seed (cast[5]) is eliminated
    lounge = _client(cast[5].user).get(f"/api/tournaments/{slug}/lounge")
    assert lounge.status_code == 200 and cast[5].pk in lounge.json()["eliminated"]
    assert lounge.json()["confessionals"] == []  # not until the season is over
    page = _client(cast[5].user).get(f"/tournaments/{slug}/lounge")
    assert page.status_code == 200 and "viewing lounge" in page.content.decode()
    assert _client(cast[0].user).get(f"/tournaments/{slug}/lounge").status_code == 403


def test_the_desk_page_shows_a_player_their_own_and_a_host_everything():
    tournament, cast, _ = _season(transfer_visibility="private")
    handouts.give(
        tournament=tournament,
        by=tournament.organiser,
        recipients=[cast[0].pk],
        title="Hint",
        text="Only for p1",
    )
    slug = tournament.slug
    client = _client(cast[1].user)
    client.post(f"/tournaments/{slug}/desk/confess", {"text": "p2 diary"})
    client.post(f"/tournaments/{slug}/desk/ask", {"text": "p2 question"})
    client.post(f"/tournaments/{slug}/desk/offer", {"to": cast[0].pk, "amount": 2})
    mine = client.get(f"/tournaments/{slug}/desk").content.decode()
    assert "p2 diary" in mine and "p2 question" in mine and "Only for p1" not in mine
    assert "private" in mine
    host = _client(tournament.organiser).get(f"/tournaments/{slug}/desk").content.decode()
    assert "p2 diary" in host and "Only for p1" in host and "p2 question" in host
    other = _client(cast[2].user).get(f"/tournaments/{slug}/desk").content.decode()
    assert "p2 diary" not in other and "p2 question" not in other
    assert Client().get(f"/tournaments/{slug}/desk").status_code == 302


def test_a_handout_with_a_file_is_downloaded_by_its_recipient_only():
    tournament, cast, _ = _season()
    slug = tournament.slug
    host = _client(tournament.organiser)
    upload = SimpleUploadedFile("clue.txt", b"the clue is under the table", "text/plain")
    host.post(
        f"/tournaments/{slug}/desk/handout",
        {"recipients": [cast[1].pk], "title": "Clue", "text": "See the file", "file": upload},
    )
    (given,) = handouts.visible_to(tournament, tournament.organiser)
    url = f"/tournaments/{slug}/handouts/{given.pk}/file"
    got = _client(cast[1].user).get(url)
    assert got.status_code == 200 and got.content == b"the clue is under the table"
    assert got["Content-Disposition"] == 'attachment; filename="clue.txt"'
    assert _client(cast[2].user).get(url).status_code == 404
    listed = _client(cast[1].user).get(f"/api/tournaments/{slug}/handouts").json()
    assert listed[0]["file"] == url
    too_big = SimpleUploadedFile("big.bin", b"x" * 1_000_001)
    refused = host.post(
        f"/tournaments/{slug}/desk/handout",
        {"recipients": [cast[1].pk], "title": "Big", "text": "x", "file": too_big},
        follow=True,
    )
    assert "at most 1 MB" in refused.content.decode() or "1 MB" in refused.content.decode()


def test_a_rules_change_tells_each_player_still_in_once_with_a_link_to_the_rules(
    django_capture_on_commit_callbacks,
):
    tournament, cast, _ = _season()
    with django_capture_on_commit_callbacks(execute=True):
        questions.rules_edit(
            tournament=tournament, by=tournament.organiser, text="Be kind.", change="First rules"
        )
    told = Notice.objects.filter(kind="rules_changed", user__in=[e.user for e in cast])
    assert told.count() == len(cast)
    assert {n.user_id for n in told} == {e.user_id for e in cast}
    assert all(n.url.endswith(f"/tournaments/{tournament.slug}/rules") for n in told)
