"""Roles are auth groups: organisers create tournaments, staff admins resolve disputes.

Players are ordinary users; guests have no account (see ``hosting.identity``).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group

ORGANISER = "organiser"
STAFF_ADMIN = "staff admin"
ROLES = (ORGANISER, STAFF_ADMIN)


def has_role(user: AbstractBaseUser | AnonymousUser, role: str) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return user.groups.filter(name=role).exists()


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
