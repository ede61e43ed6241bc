"""The account page where a user makes, sees and revokes personal API tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from hosting.core import tokens
from hosting.core.errors import NotFound, UserError


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=80,
        help_text=gettext_lazy("What the token is for, e.g. “Discord bot”."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    made = None
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = tokens.token_create(user=request.user, name=form.cleaned_data["name"])
        except UserError as error:
            form.add_error("name", str(error))
        else:
            form = TokenForm()
    context = {"form": form, "made": made, "tokens": tokens.user_tokens(request.user)}
    return render(request, "account/tokens.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = tokens.token_revoke(user=request.user, token_id=token_id)
    except NotFound:
        raise Http404 from None  # someone else's token is the site's "not found" page
    messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("account-tokens")
