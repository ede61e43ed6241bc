import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from hosting.core.identity import guest_for, guest_from_token
from hosting.core.roles import ORGANISER, ROLES, STAFF_ADMIN, grant, is_organiser, is_staff_admin

pytestmark = pytest.mark.django_db


def test_sign_up_creates_a_player_and_logs_them_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newplayer",
            "password1": "a-long-pass-phrase-42",
            "password2": "a-long-pass-phrase-42",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newplayer")
    assert not is_organiser(user) and not is_staff_admin(user)
    assert "newplayer" in client.get("/").content.decode()


def test_sign_up_refuses_mismatched_passwords_with_a_message(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "x", "password1": "a-long-pass-phrase-42", "password2": "different-42-phrase"},
    )
    assert response.status_code == 200
    assert "match" in response.content.decode()
    assert not get_user_model().objects.filter(username="x").exists()


def test_log_in_and_log_out(client):
    get_user_model().objects.create_user("ada", password="a-long-pass-phrase-42")
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "ada", "password": "a-long-pass-phrase-42"}
    )
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/").content.decode()


def test_an_expired_or_unknown_session_signs_nobody_in(client):
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    get_user_model().objects.create_user("ada", password="a-long-pass-phrase-42")
    client.post("/accounts/login/", {"username": "ada", "password": "a-long-pass-phrase-42"})
    assert "Log out" in client.get("/").content.decode()
    Session.objects.update(expire_date=timezone.now() - timezone.timedelta(seconds=1))
    assert "Log in" in client.get("/").content.decode()
    client.cookies["sessionid"] = "not-a-session-key-of-ours-1234567890"
    assert "Log in" in client.get("/").content.decode()


def test_a_signed_in_request_reads_the_same_user_the_orm_would():
    from hosting.core.backends import AccountBackend

    ada = get_user_model().objects.create_user("ada", password="a-long-pass-phrase-42")
    loaded = AccountBackend().get_user(ada.pk)
    orm = get_user_model().objects.get(pk=ada.pk)
    fields = [f.attname for f in get_user_model()._meta.concrete_fields]
    assert [getattr(loaded, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert loaded.date_joined.tzinfo is not None and not loaded._state.adding
    assert AccountBackend().get_user(ada.pk + 1) is None


def test_a_deactivated_user_is_signed_out_on_the_next_request(client):
    ada = get_user_model().objects.create_user("ada", password="a-long-pass-phrase-42")
    client.post("/accounts/login/", {"username": "ada", "password": "a-long-pass-phrase-42"})
    assert "Log out" in client.get("/").content.decode()
    ada.is_active = False
    ada.save()
    assert "Log in" in client.get("/").content.decode()


def test_expired_sessions_are_cleared_and_live_ones_kept():
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from hosting.tasks import clear_expired_sessions

    now = timezone.now()
    for key, expiry in (("live" * 8, now + timezone.timedelta(days=1)), ("gone" * 8, now)):
        Session.objects.create(session_key=key, session_data="", expire_date=expiry)
    clear_expired_sessions.apply()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live" * 8]


def test_roles_are_groups():
    user = get_user_model().objects.create_user("org")
    assert not is_organiser(user)
    grant(user, ORGANISER)
    assert is_organiser(user) and not is_staff_admin(user)
    grant(user, STAFF_ADMIN)
    assert is_staff_admin(user)


def test_a_guest_keeps_one_signed_identity_per_session(rf, client):
    request = rf.get("/")
    request.session = client.session
    first = guest_for(request)
    assert guest_for(request) == first
    assert guest_from_token(first.token) == first
    assert " " in first.name  # "Swift Otter"


def test_a_tampered_guest_token_is_refused():
    from hosting.core.identity import new_guest

    token = new_guest().token
    assert guest_from_token(token[:-2] + "xx") is None
    assert guest_from_token("not a token") is None


def test_the_roles_migration_makes_both_groups():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("hosting.migrations.0001_roles")
    Group.objects.filter(name__in=ROLES).delete()
    migration.create_roles(apps, None)
    assert set(Group.objects.filter(name__in=ROLES).values_list("name", flat=True)) == set(ROLES)
