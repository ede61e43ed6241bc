"""What every tournaments API view shares: who may call, and how a list is paged."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.views import APIView


class Page(PageNumberPagination):
    page_size = 50  # hosting.core.openapi.PAGE says so to the API's readers


class TournamentAPIView(APIView):
    # Spectators read without an account; every write acts as a signed-in user.
    permission_classes = [IsAuthenticatedOrReadOnly]
