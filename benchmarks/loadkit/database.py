"""The scratch database a run migrates, fills with its organiser, and drops."""

from __future__ import annotations

import subprocess
import sys

import psycopg

from loadkit.run import ORGANISER
from loadkit.server import PG_SERVER, ROOT


def create_database(name: str) -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepare_django(env: dict[str, str], password: str) -> None:
    """Migrate the fresh database and create the organiser the load logs in as."""
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    script = (
        "import os\n"
        "from django.contrib.auth.models import Group, User\n"
        f"user = User.objects.create_user({ORGANISER!r}, password=os.environ['BENCH_PASSWORD'])\n"
        "user.groups.add(Group.objects.get(name='organiser'))\n"
    )
    env = {**env, "BENCH_PASSWORD": password}
    subprocess.run([*manage, "shell", "-c", script], cwd=ROOT, env=env, check=True)
