"""Roles are auth groups: organisers create tournaments, staff admins resolve disputes.

Players are ordinary users; guests have no account (see ``hosting.core.identity``).
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.db import connections, router, transaction
from django.dispatch import Signal

ORGANISER = "organiser"
STAFF_ADMIN = "staff admin"
ROLES = (ORGANISER, STAFF_ADMIN)

# Sent inside the change's transaction when a role is granted or revoked, with ``by`` (who,
# ``None``: the shell or the system), ``action`` (``hosting.role.granted`` or ``.revoked``),
# ``user``, ``role`` and ``had`` (held before). The audit log listens
# (``tournaments.core.audit.record_role_change``): this shared core imports no app.
role_changed = Signal()


def has_role(user: AbstractBaseUser | AnonymousUser, role: str) -> bool:
    """Whether the user is in the role's group. Asked on every organiser's request: one fixed
    statement (the ORM built the same join for 400 us of CPU, four times the round trip)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    db = connections[router.db_for_read(Group)]
    with db.cursor() as cursor:
        cursor.execute(_membership_sql(db.alias), [user.pk, role])
        return cursor.fetchone() is not None


@functools.cache
def _membership_sql(alias: str) -> str:
    groups = get_user_model()._meta.get_field("groups")
    quote = connections[alias].ops.quote_name
    return (
        f"SELECT 1 FROM {quote(groups.m2m_db_table())} m"
        f" JOIN {quote(Group._meta.db_table)} g ON g.id = m.{quote(groups.m2m_reverse_name())}"
        f" WHERE m.{quote(groups.m2m_column_name())} = %s AND g.name = %s"
    )


def is_organiser(user: AbstractBaseUser | AnonymousUser) -> bool:
    return has_role(user, ORGANISER)


def is_staff_admin(user: AbstractBaseUser | AnonymousUser) -> bool:
    return has_role(user, STAFF_ADMIN)


def grant(user: AbstractBaseUser, role: str, *, by: Any = None) -> None:
    """Give ``user`` a role; the group is made if a flushed database lost it. A change is
    sent as ``role_changed`` (``hosting.role.granted``), ``by`` whom (``None``: the shell or
    the system), and so audited."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    with transaction.atomic():
        group, _ = Group.objects.get_or_create(name=role)
        if user.groups.filter(pk=group.pk).exists():
            return
        user.groups.add(group)
        role_changed.send(
            grant, by=by, action="hosting.role.granted", user=user, role=role, had=False
        )


def revoke(user: AbstractBaseUser, role: str, *, by: Any = None) -> None:
    """Take a role away from ``user`` (nothing happens if they did not have it)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
    with transaction.atomic():
        groups = list(user.groups.filter(name=role))
        if not groups:
            return
        user.groups.remove(*groups)
        role_changed.send(
            revoke, by=by, action="hosting.role.revoked", user=user, role=role, had=True
        )
