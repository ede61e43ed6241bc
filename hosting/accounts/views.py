"""Sign-up; log-in and log-out are Django's own views with our templates."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpResponse
from django.urls import reverse_lazy
from django.views.generic import CreateView


class SignUpView(CreateView):
    form_class = UserCreationForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy("home")

    def form_valid(self, form: UserCreationForm) -> HttpResponse:
        response = super().form_valid(form)
        login(self.request, self.object)
        return response
