"""The template context processor (``TEMPLATES`` in settings) that gives every page, of any app,
the visitor's roles: the header shows the organiser's and the staff admin's links by them."""

from django.http import HttpRequest

from hosting.core.roles import is_organiser, is_staff_admin


def roles(request: HttpRequest) -> dict[str, bool]:
    user = request.user
    return {"is_organiser": is_organiser(user), "is_staff_admin": is_staff_admin(user)}
