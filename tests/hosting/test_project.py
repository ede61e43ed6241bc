"""Project-wide promises: admin for every model, a clean deploy check, pure layers stay pure."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib import admin

ROOT = Path(__file__).resolve().parents[2]
PURE = ["games/engines", "games/clocks.py", "tournaments/formats", "tournaments/tiebreaks.py"]
FORBIDDEN = ("django", "rest_framework", "celery", "hosting", "redis", "psycopg")


def test_every_model_of_ours_is_in_the_admin():
    ours = [
        m for m in apps.get_models() if m._meta.app_label in {"games", "tournaments", "hosting"}
    ]
    assert ours
    missing = [m.__name__ for m in ours if not admin.site.is_registered(m)]
    assert missing == []


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_pure_layers_import_no_framework():
    files = []
    for entry in PURE:
        path = ROOT / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
    assert files
    offenders = {
        str(f.relative_to(ROOT)): sorted(_imports(f) & set(FORBIDDEN))
        for f in files
        if _imports(f) & set(FORBIDDEN)
    }
    assert offenders == {}


def test_production_profile_passes_the_deploy_check():
    env = {
        **os.environ,
        "APP_PROFILE": "production",
        "SECRET_KEY": "k" * 20 + "production-secret-key-with-enough-entropy-9f8e7d6c5b4a",
        "ALLOWED_HOSTS": "arena.example.org",
    }
    env.pop("DEBUG", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "APP_PROFILE": "production", "ALLOWED_HOSTS": "arena.example.org"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set in production" in result.stderr


@pytest.mark.django_db
def test_home_page_lists_public_tournaments(client, django_user_model):
    from tournaments.models import Tournament

    organiser = django_user_model.objects.create_user("org")
    Tournament.objects.create(
        name="Spring Swiss",
        slug="spring",
        organiser=organiser,
        game="color_clash",
        format="swiss",
        status=Tournament.Status.REGISTRATION,
    )
    Tournament.objects.create(
        name="Secret Cup",
        slug="secret",
        organiser=organiser,
        game="color_clash",
        format="swiss",
        status=Tournament.Status.REGISTRATION,
        visibility=Tournament.Visibility.UNLISTED,
    )
    page = client.get("/").content.decode()
    assert "Spring Swiss" in page
    assert "Secret Cup" not in page


@pytest.mark.django_db
def test_seed_demo_prints_the_organiser_password(django_user_model, settings):
    from io import StringIO

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # 7 accounts

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_demo", stdout=out)
    password = out.getvalue().split("password '")[1].split("'")[0]
    organiser = django_user_model.objects.get(username="organiser")
    assert organiser.check_password(password)
    call_command("seed_demo", stdout=StringIO())  # a second run refreshes, never duplicates
    assert django_user_model.objects.filter(username="organiser").count() == 1


@pytest.mark.django_db
def test_the_admin_shows_no_running_games_secrets(admin_client):
    from games import invites, services
    from games.services import SeatSpec
    from hosting.core.identity import Guest
    from tests.games.hosting_helpers import register_tiny

    register_tiny()
    game = services.game_create(engine_key="high_card", seats=[SeatSpec(), SeatSpec()])
    for number in (0, 1):
        services.seat_claim(
            game_id=game.pk,
            number=number,
            guest=Guest(id=f"g{number}", name="x"),
            invite=invites.invite_for(game),
        )
    game = services.game_start(game_id=game.pk, by=None)
    services.act(
        game_id=game.pk, seat=0, action={"type": "play", "card": game.state["hands"][0][0]}
    )
    page = admin_client.get(f"/admin/games/gamesession/{game.pk}/change/").content.decode()
    assert game.seed not in page and '"hands"' not in page
    events = admin_client.get("/admin/games/gameevent/").content.decode()
    assert "0 game events" in events
