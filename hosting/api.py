from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class PingView(APIView):
    """The smallest DRF endpoint: the live-load benchmark's baseline, and a liveness probe."""

    def get(self, request: Request) -> Response:
        return Response({"pong": True})
