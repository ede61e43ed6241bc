"""A real HTTP receiver for webhook tests: ``http.server`` in a thread, checking every
signature it is sent by the Standard Webhooks construction."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook


def expected_signature(secret: str, message_id: str, timestamp: str, body: bytes) -> str:
    """The spec's construction by hand: HMAC-SHA256 of ``id.timestamp.body``, keyed by the
    base64-decoded part of the secret after ``whsec_``."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    # path -> the statuses it answers, one per request (then 200 for good)
    script: dict[str, list[int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def at(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == path]

    def verified(self, secret: str, path: str) -> list[Any]:
        """Every body sent to ``path``, each checked against its signature both ways."""
        bodies = []
        for request in self.at(path):
            headers = request.headers
            assert headers["webhook-signature"] == expected_signature(
                secret, headers["webhook-id"], headers["webhook-timestamp"], request.body
            )
            bodies.append(Webhook(secret).verify(request.body, headers))
        return bodies


@contextmanager
def receiver(tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1; with ``tls``, an HTTPS one serving that context."""
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            with state.lock:
                state.received.append(Received(self.path, headers, body))
                statuses = state.script.get(self.path, [])
                status = statuses.pop(0) if statuses else 200
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:  # quiet test output
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    scheme = "https" if tls is not None else "http"
    state.url = f"{scheme}://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
