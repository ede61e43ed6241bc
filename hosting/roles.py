"""Roles are auth groups: organisers create tournaments, staff admins resolve disputes.

Players are ordinary users; guests have no account (see ``hosting.identity``).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.db import connections, router

ORGANISER = "organiser"
STAFF_ADMIN = "staff admin"
ROLES = (ORGANISER, STAFF_ADMIN)


def has_role(user: AbstractBaseUser | AnonymousUser, role: str) -> bool:
    """Whether the user is in the role's group. Asked on every organiser's request: one fixed
    statement (the ORM built the same join for 400 us of CPU, four times the round trip)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    groups = user.groups
    membership = groups.through._meta
    db = connections[router.db_for_read(groups.through)]
    quote = db.ops.quote_name
    member = quote(membership.get_field(groups.source_field_name).column)
    group = quote(membership.get_field(groups.target_field_name).column)
    sql = (
        f"SELECT 1 FROM {quote(membership.db_table)} m"
        f" JOIN {quote(Group._meta.db_table)} g ON g.id = m.{group}"
        f" WHERE m.{member} = %s AND g.name = %s"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [user.pk, role])
        return cursor.fetchone() is not None


def is_organiser(user: AbstractBaseUser | AnonymousUser) -> bool:
    return has_role(user, ORGANISER)


def is_staff_admin(user: AbstractBaseUser | AnonymousUser) -> bool:
    return has_role(user, STAFF_ADMIN)


def grant(user: AbstractBaseUser, role: str) -> None:
    """Give ``user`` a role; the group is made if a flushed database lost it."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)
