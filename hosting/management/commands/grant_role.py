"""``python manage.py grant_role USERNAME organiser|staff_admin [--remove]``.

Roles are what an account may do beyond playing: organisers create tournaments, staff admins
force corrections and resolve disputes. This is the way to give (or take) one without a shell.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from hosting.core.roles import ORGANISER, STAFF_ADMIN, grant, revoke

# The command's spelling of each role (one word, for the shell) -> its group.
ROLE_NAMES = {"organiser": ORGANISER, "staff_admin": STAFF_ADMIN}


class Command(BaseCommand):
    help = "Give a user a role (organiser or staff_admin), or take it away with --remove."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("role", help="organiser or staff_admin")
        parser.add_argument("--remove", action="store_true", help="take the role away")

    def handle(self, *args: Any, **options: Any) -> None:
        username, role = options["username"], options["role"]
        if role not in ROLE_NAMES:
            raise CommandError(f"unknown role {role!r}; roles: {', '.join(ROLE_NAMES)}")
        users = get_user_model()
        user = users.objects.filter(**{users.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"no user {username!r}; they sign up first")
        group = ROLE_NAMES[role]
        had = user.groups.filter(name=group).exists()
        if options["remove"]:
            revoke(user, group)
            done = "is no longer" if had else "was not"
            self.stdout.write(f"{username} {done} {role}")
        else:
            grant(user, group)
            self.stdout.write(f"{username} {'already was' if had else 'is now'} {role}")
