"""The organiser console's webhooks page (``/tournaments/<slug>/manage/webhooks``): add an
endpoint, switch it on or off, send it a test, delete it, and read its delivery log. Each
form calls the one service the API calls (``tournaments.webhooks.services``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from hosting.core.errors import NotFound, UserError
from tournaments.events import EVENTS
from tournaments.views.manage import run_by
from tournaments.webhooks import services as webhooks

EVENT_LABELS = {
    "tournament.started": gettext_lazy("The tournament starts"),
    "match.ready": gettext_lazy("A match is ready to play"),
    "match.result": gettext_lazy("A match has a result"),
    "match.reset": gettext_lazy("A correction resets a match"),
    "dispute.filed": gettext_lazy("A dispute is filed"),
    "dispute.ruled": gettext_lazy("A dispute is ruled on"),
    "tournament.finished": gettext_lazy("The tournament finishes"),
    "notice.public": gettext_lazy(
        "Public reminders: check-in, pairings, agreed match times (Discord)"
    ),
}
DELIVERIES_SHOWN = 20  # per endpoint; the API pages through all of them


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=gettext_lazy("URL"),
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
        help_text=gettext_lazy(
            "Where each event is sent as a signed JSON POST; a Discord channel's webhook URL "
            "gets a readable message instead."
        ),
    )
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        choices=[(event, EVENT_LABELS[event]) for event in EVENTS],
        initial=list(EVENTS),
        widget=forms.CheckboxSelectMultiple,
    )


@login_required
@require_http_methods(["GET", "POST"])
def webhooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = run_by(request, slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            webhooks.endpoint_create(tournament=tournament, by=request.user, **form.cleaned_data)
        except UserError as error:
            form.add_error("url", error.message)
        else:
            messages.success(request, _("The webhook is added; its secret is below."))
            return redirect("tournament-webhooks", slug=slug)
    endpoints = [
        (
            endpoint,
            [EVENT_LABELS[event] for event in endpoint.events],
            list(webhooks.deliveries(endpoint)[:DELIVERIES_SHOWN]),
        )
        for endpoint in tournament.webhooks.all()
    ]
    context = {
        "tournament": tournament,
        "form": form,
        "endpoints": endpoints,
        "max_endpoints": webhooks.MAX_ENDPOINTS,
    }
    status = 400 if form.errors else 200
    return render(request, "tournaments/manage/webhooks.html", context, status=status)


@login_required
@require_POST
def webhook_action(request: HttpRequest, slug: str, hook_id: int, action: str) -> HttpResponse:
    tournament = run_by(request, slug)
    try:
        endpoint = webhooks.endpoint_for(tournament, hook_id, request.user)
    except NotFound:
        raise Http404 from None
    if action == "test":
        webhooks.send_test(endpoint=endpoint, by=request.user)
        messages.success(request, _("A test event is on its way; its delivery is in the log."))
    elif action in ("on", "off"):
        webhooks.endpoint_update(endpoint=endpoint, by=request.user, active=action == "on")
        messages.success(
            request,
            _("The webhook is on.") if action == "on" else _("The webhook is off."),
        )
    elif action == "delete":
        webhooks.endpoint_delete(endpoint=endpoint, by=request.user)
        messages.success(request, _("The webhook is deleted."))
    else:
        raise Http404
    return redirect("tournament-webhooks", slug=slug)
