"""The notices page, the notification settings (channels per kind, zone, calendar URL) and the
unsubscribe page that needs no login. Each view parses, calls one service, renders."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from hosting.core.errors import NotFound, UserError
from notifications import middleware, services, zones
from notifications.models import Channel, Notice

NOTICES_SHOWN = 100


@login_required
@require_http_methods(["GET", "POST"])
def notice_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        services.mark_read(user=request.user)
        return redirect("notifications")
    notices = list(Notice.objects.filter(user=request.user, on_site=True)[:NOTICES_SHOWN])
    rows = [(notice, services.notice_text(notice)) for notice in notices]
    return render(request, "notifications/list.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    reader = services.reader_for(request.user)
    status = 200
    if request.method == "POST":
        choices = {
            kind: [c for c in Channel.values if request.POST.get(f"{kind}:{c}") == "on"]
            for kind, _label, _chosen in services.preferences(request.user)
        }
        try:
            services.preferences_set(user=request.user, choices=choices)
        except UserError as error:
            messages.error(request, str(error))
            status = 400
        else:
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notification-settings")
    calendar_url = (
        request.build_absolute_uri(reverse("calendar-private", args=[reader.calendar_token]))
        if reader.calendar_token
        else None
    )
    context = {
        "preferences": services.preferences(request.user),
        "channels": Channel.choices,
        "reader": reader,
        "zones": sorted(zones.known()),
        "calendar_url": calendar_url,
    }
    return render(request, "notifications/settings.html", context, status=status)


@login_required
@require_POST
def zone_update(request: HttpRequest) -> HttpResponse:
    middleware.forget(request)
    try:
        services.zone_set(user=request.user, zone=request.POST.get("zone", ""))
    except UserError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("Times are now shown in %(zone)s.") % {"zone": request.POST["zone"]}
        )
    response = redirect(request.POST.get("next") or "notification-settings")
    if zones.parse(request.POST.get("zone")):
        response.set_cookie(zones.COOKIE, request.POST["zone"], max_age=365 * 86400, samesite="Lax")
    return response


@login_required
@require_POST
def calendar_token(request: HttpRequest, action: str) -> HttpResponse:
    if action == "new":
        services.calendar_token_new(user=request.user)
        messages.success(
            request, _("Your calendar has a new private address; the old one no longer works.")
        )
    elif action == "revoke":
        services.calendar_token_revoke(user=request.user)
        messages.success(request, _("Your private calendar address is revoked."))
    else:
        raise Http404
    return redirect("notification-settings")


@csrf_exempt  # the signed token is the credential; mail clients post it (RFC 8058 one-click)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    done = False
    if request.method == "POST":
        try:
            services.unsubscribe(token=token)
        except NotFound:
            raise Http404 from None
        done = True
    return render(request, "notifications/unsubscribe.html", {"done": done})
