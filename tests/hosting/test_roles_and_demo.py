"""``grant_role`` gives and takes roles without a shell; ``seed_demo`` (``make run``) prints every
demo account's password, and those accounts sign in."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from hosting.core.roles import is_organiser, is_staff_admin
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_hashing(settings):
    """seed_demo sets seven passwords a run; the default hasher spends seconds on each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


def test_grant_and_remove_roles():
    ada = get_user_model().objects.create_user("ada")
    assert run("grant_role", "ada", "organiser") == "ada is now organiser"
    assert run("grant_role", "ada", "organiser") == "ada already was organiser"
    assert run("grant_role", "ada", "staff_admin") == "ada is now staff_admin"
    assert is_organiser(ada) and is_staff_admin(ada)
    assert run("grant_role", "ada", "organiser", "--remove") == "ada is no longer organiser"
    assert run("grant_role", "ada", "organiser", "--remove") == "ada was not organiser"
    assert not is_organiser(ada) and is_staff_admin(ada)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nobody", "organiser"), "no user 'nobody'; they sign up first"),
        (("ada", "referee"), "unknown role 'referee'; roles: organiser, staff_admin"),
        (("ada", "staff admin"), "unknown role 'staff admin'"),
    ],
)
def test_unknown_users_and_roles_are_named(args, message):
    ada = get_user_model().objects.create_user("ada")
    with pytest.raises(CommandError, match=message):
        call_command("grant_role", *args, stdout=StringIO())
    assert not ada.groups.exists()


def test_demo_players_get_printed_passwords_and_sign_in(client):
    printed = run("seed_demo")
    accounts = dict(re.findall(r"username '(\w+)', password '([^']+)'", printed))
    assert set(accounts) == {"organiser", "ada", "brook", "cyrus", "dana", "eli", "fern"}
    for username, password in accounts.items():
        response = client.post("/accounts/login/", {"username": username, "password": password})
        assert response.status_code == 302, username
        client.post("/accounts/logout/")


def test_running_the_demo_again_leaves_a_season_under_way_alone():
    run("seed_demo")
    demo = Tournament.objects.get(slug="demo-season")
    demo.stages.create(format="genius")
    Tournament.objects.filter(pk=demo.pk).update(status=Tournament.Status.RUNNING)
    run("seed_demo")
    demo.refresh_from_db()
    assert demo.status == Tournament.Status.RUNNING and demo.stages.count() == 1
    assert demo.entrants.count() == 6
