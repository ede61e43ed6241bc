"""The header's bell: the signed-in person's unread notices (one count query per page)."""

from django.http import HttpRequest
from django.utils import timezone

from notifications.models import Notice


def bell(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    zone = timezone.get_current_timezone()
    context: dict[str, object] = {"reader_zone": getattr(zone, "key", str(zone))}
    if user is not None and user.is_authenticated:
        # Once per request: a page that renders a partial as well asks twice.
        if not hasattr(request, "_unread_notices"):
            request._unread_notices = Notice.objects.filter(
                user=user, on_site=True, read_at__isnull=True
            ).count()
        context["unread_notices"] = request._unread_notices
    return context
