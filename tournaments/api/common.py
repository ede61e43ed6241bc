"""What every tournaments API view shares: who may call, and how a list is paged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.views import APIView


class Page(PageNumberPagination):
    page_size = 50  # hosting.core.openapi.PAGE says so to the API's readers

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        """The ``page`` asked for, a whole number from 1 (the document says so). Anything
        else is no page, a 404 as DRF answers one past the last (an empty ``page=`` was
        taken as the first)."""
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if not (raw.isascii() and raw.isdigit()):
            raise NotFound(_("no page %(page)r: pages are numbered from 1") % {"page": raw})
        return raw


class TournamentAPIView(APIView):
    # Spectators read without an account; every write acts as a signed-in user.
    permission_classes = [IsAuthenticatedOrReadOnly]
