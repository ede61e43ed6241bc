import random

import pytest

from hosting.core.errors import Conflict, Forbidden
from tests.games.hosting_helpers import register_tiny
from tests.tournaments.builders import organiser, user
from tournaments import services
from tournaments.models import AuditEntry, Entrant, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    register_tiny()
    host = organiser()
    tournament = services.tournament_create(
        organiser=host,
        name="Cup",
        slug="cup",
        game="high_card",
        format="swiss",
        capacity=2,
        play_online=False,
    )
    services.registration_open(tournament=tournament, by=host)
    return tournament


def test_only_organisers_create_tournaments():
    with pytest.raises(Forbidden):
        services.tournament_create(organiser=user("nobody"), name="x", slug="x", format="swiss")


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"game": "chess", "format": "swiss"}, "unknown game 'chess'"),
        ({"game": "high_card", "format": "ladder"}, "the format is one of"),
        ({"game": "high_card", "format": "swiss", "tiebreaks": ["luck"]}, "unknown tie-break"),
    ],
)
def test_a_broken_tournament_config_is_refused_with_a_reason(fields, message):
    register_tiny()
    with pytest.raises(services.TournamentUserError, match=message):
        services.tournament_create(organiser=organiser(), name="x", slug="x", **fields)


def test_a_full_tournament_waitlists_and_a_withdrawal_promotes_the_first_waiting(tournament):
    a, b, c, d = (services.entrant_register(tournament=tournament, user=user(n)) for n in "abcd")
    assert [e.status for e in (a, b, c, d)] == [
        "registered",
        "registered",
        "waitlisted",
        "waitlisted",
    ]
    services.entrant_withdraw(entrant=a, by=a.user)
    c.refresh_from_db()
    d.refresh_from_db()
    assert (c.status, d.status) == ("registered", "waitlisted")
    actions = list(AuditEntry.objects.values_list("action", flat=True))
    assert "tournaments.entrant.promoted" in actions


def test_registering_twice_or_when_closed_is_refused(tournament):
    person = user("a")
    services.entrant_register(tournament=tournament, user=person)
    with pytest.raises(Conflict, match="already registered"):
        services.entrant_register(tournament=tournament, user=person)
    services.check_in_open(tournament=tournament, by=tournament.organiser)
    with pytest.raises(Conflict, match="registration is not open"):
        services.entrant_register(tournament=tournament, user=user("late"))


def test_check_in_no_shows_drop_to_the_bottom_seeds_and_out_at_the_start(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(capacity=None)
    players = [
        services.entrant_register(tournament=tournament, user=user(f"p{i}"), rating=2000 - i)
        for i in range(4)
    ]
    services.check_in_open(tournament=tournament, by=tournament.organiser)
    for entrant in (players[1], players[2], players[3]):
        services.entrant_check_in(entrant=entrant, by=entrant.user)
    with pytest.raises(Forbidden):
        services.entrant_check_in(entrant=players[0], by=players[1].user)
    seeded = services.seeding_apply(tournament=tournament, by=tournament.organiser, method="rating")
    assert [e.pk for e in seeded] == [players[1].pk, players[2].pk, players[3].pk, players[0].pk]
    services.stage_start(tournament=tournament, by=tournament.organiser)
    players[0].refresh_from_db()
    assert players[0].status == Entrant.Status.WITHDRAWN and players[0].seed is None


def test_manual_and_random_seeding(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(capacity=None)
    entrants = [services.entrant_register(tournament=tournament, user=user(n)) for n in "abc"]
    order = [entrants[2].pk, entrants[0].pk, entrants[1].pk]
    seeded = services.seeding_apply(
        tournament=tournament, by=tournament.organiser, method="manual", order=order
    )
    assert [e.pk for e in seeded] == order
    with pytest.raises(services.TournamentUserError, match="exactly once"):
        services.seeding_apply(
            tournament=tournament, by=tournament.organiser, method="manual", order=order[:2]
        )
    shuffled = services.seeding_apply(
        tournament=tournament, by=tournament.organiser, method="random", rng=random.Random(3)
    )
    assert sorted(e.seed for e in shuffled) == [1, 2, 3]
    with pytest.raises(Forbidden):
        services.seeding_apply(tournament=tournament, by=entrants[0].user, method="random")


def test_a_taken_address_or_a_bad_ruleset_is_refused_up_front():
    register_tiny()
    host = organiser()
    fields = {"name": "x", "game": "high_card", "format": "swiss"}
    services.tournament_create(organiser=host, slug="same", **fields)
    with pytest.raises(Conflict, match="is taken"):
        services.tournament_create(organiser=host, slug="same", **fields)
    with pytest.raises(services.TournamentUserError, match="hand_size"):
        services.tournament_create(organiser=host, slug="b", ruleset={"hand_size": 0}, **fields)
    with pytest.raises(services.TournamentUserError, match="from 0 to 86400"):
        services.tournament_create(organiser=host, slug="c", time_control={"reserve": -1}, **fields)
    with pytest.raises(services.TournamentUserError, match="season rules"):
        services.tournament_create(
            organiser=host,
            slug="d",
            name="s",
            game="high_card",
            format="genius",
            format_options={"final_best_of": 2},
        )
