"""Shuffles nobody can choose: how a game's randomness comes from the server's seed and the
players' client seeds together. Pure: no Django, so anything that deals (the services, the
verification, a tool outside the service) derives the seed with the very same function.

The construction, version 1:

1. When a game is created the server draws a secret 32-byte ``server_seed`` and publishes
   ``commitment = SHA-256(server_seed)`` (hex) before any client seed is accepted.
2. Each seat may send a ``client_seed`` when it claims, until the game starts: 1 to 64
   letters, digits and ``- _ . : + / =`` (hex, base64 and UUIDs fit). A seat that sends none
   (computers, reserved players who never claim) counts as the empty string.
3. When the game starts, ``message`` is the client seeds in seat order as a compact JSON
   array of strings, ASCII: ``["3f9a…",""]``. The allowed characters need no escaping, so
   the message is canonical and safe to paste into a shell between single quotes.
4. ``effective_seed = HMAC-SHA256(key=server_seed, msg=message)``: every deal, shuffle and
   draw of the game comes from it (``games.engines.base.StepRng``).

The server commits before seeing any client seed, so it cannot pick one that suits the
players' seeds; a player does not know the server seed, so no choice of client seed steers
the deal. At the end the server seed is revealed and anyone can recompute every step.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence

CONSTRUCTION = "HMAC-SHA256(server_seed, JSON array of client seeds in seat order)"
MAX_CLIENT_SEED_LENGTH = 64
SERVER_SEED_BYTES = 32
CLIENT_SEED_PATTERN = r"[A-Za-z0-9_.:+/=-]{1,64}"
_CLIENT_SEED = re.compile(CLIENT_SEED_PATTERN)


class ClientSeedError(ValueError):
    """A client seed that is not 1 to 64 of the allowed characters."""


def new_server_seed() -> bytes:
    return secrets.token_bytes(SERVER_SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """What is published from the game's creation: the server seed's SHA-256, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seed(value: object) -> str:
    """The client seed as given, or ``ClientSeedError`` saying what a client seed is."""
    if not isinstance(value, str) or _CLIENT_SEED.fullmatch(value) is None:
        raise ClientSeedError(
            f"a client seed is 1 to {MAX_CLIENT_SEED_LENGTH} letters, digits or - _ . : + / =, "
            "e.g. 32 random hex digits"
        )
    return value


def client_seed_message(client_seeds: Sequence[str]) -> bytes:
    """The HMAC's message: the client seeds in seat order ("" for a seat that sent none) as a
    compact JSON array."""
    for seed in client_seeds:
        if seed:
            check_client_seed(seed)
    return json.dumps(list(client_seeds), separators=(",", ":"), ensure_ascii=True).encode()


def effective_seed(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    """The seed every shuffle of the game draws from (32 bytes)."""
    message = client_seed_message(client_seeds)
    return hmac.new(server_seed, message, hashlib.sha256).digest()
