from drf_spectacular.utils import extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from hosting.core.openapi import operation


class Pong(serializers.Serializer):
    pong = serializers.BooleanField()


@extend_schema_view(get=operation(Pong, summary="Liveness", errors=()))
class PingView(APIView):
    """The smallest DRF endpoint: the live-load benchmark's baseline, and a liveness probe."""

    def get(self, request: Request) -> Response:
        return Response({"pong": True})
