from django.http import HttpRequest

from hosting.core.roles import is_organiser, is_staff_admin


def roles(request: HttpRequest) -> dict[str, bool]:
    user = request.user
    return {"is_organiser": is_organiser(user), "is_staff_admin": is_staff_admin(user)}
