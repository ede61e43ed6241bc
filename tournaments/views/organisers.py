"""Asking to become an organiser (``/tournaments/become-organiser/``) and the staff admins'
queue of requests (``/tournaments/organiser-requests/``): each form one service call."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from hosting.core.errors import UserError
from hosting.core.roles import is_organiser, is_staff_admin
from tournaments.models import OrganiserRequest
from tournaments.services import organisers


@login_required
@require_http_methods(["GET", "POST"])
def become_organiser(request: HttpRequest) -> HttpResponse:
    if is_organiser(request.user):
        return redirect("tournament-create")
    error = ""
    if request.method == "POST":
        try:
            organisers.organiser_request_file(
                user=request.user, plans=request.POST.get("plans", "")
            )
        except UserError as refused:
            error = refused.message
        else:
            messages.success(request, _("Your request is sent; a staff admin will answer it."))
            return redirect("become-organiser")
    waiting = OrganiserRequest.objects.filter(
        user=request.user, status=OrganiserRequest.Status.PENDING
    ).first()
    context = {"waiting": waiting, "error": error, "plans": request.POST.get("plans", "")}
    return render(
        request, "tournaments/become_organiser.html", context, status=400 if error else 200
    )


@login_required
def organiser_requests(request: HttpRequest) -> HttpResponse:
    if not is_staff_admin(request.user):
        raise PermissionDenied
    context = {"requests": list(organisers.waiting_requests())}
    return render(request, "tournaments/organiser_requests.html", context)


@login_required
@require_POST
def organiser_request_answer(request: HttpRequest, request_id: int) -> HttpResponse:
    if not is_staff_admin(request.user):
        raise PermissionDenied
    asked = OrganiserRequest.objects.select_related("user").filter(pk=request_id).first()
    if asked is None:
        raise Http404
    approve = request.POST.get("answer") == "approve"
    try:
        organisers.organiser_request_decide(request=asked, by=request.user, approve=approve)
    except UserError as refused:
        messages.error(request, refused.message)
    else:
        name = {"name": asked.user.get_username()}
        messages.success(
            request,
            _("%(name)s is an organiser now.") % name
            if approve
            else _("The request of %(name)s is declined.") % name,
        )
    return redirect("organiser-requests")
