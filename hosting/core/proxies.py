"""Whose request this is: the one place that decides a request's client address.

``X-Forwarded-For`` is only a claim: anyone can send one. It is believed only from the proxies
in ``TRUSTED_PROXIES`` (addresses or networks; empty by default, so the client is the
connecting address and the header is ignored). From a trusted proxy, the client is the
rightmost address of the header that is not itself a trusted proxy: each proxy appends the
address it saw, so everything left of that may be the client's own invention.

The rate limits (``hosting.core.throttles``: log-ins, wrong room codes, the API's throttles)
and the live streams' caps all ask ``client_address``. uvicorn is told the same list
(``uvicorn_options``; its own default trusts 127.0.0.1), so that its access log, the
request's scheme (``X-Forwarded-Proto``) and the address it hands Django agree; asking again
here gives the same answer for an address uvicorn already resolved, and the right one under
any other server (or Django's test client).
"""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
EVERYONE = "*"


@functools.cache
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries if entry != "*")


def is_trusted(address: str) -> bool:
    """Whether ``address`` is one of the configured proxies."""
    entries = tuple(settings.TRUSTED_PROXIES)
    if EVERYONE in entries:
        return True
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in _networks(entries))


def client_address(request: HttpRequest) -> str:
    """The address this request is counted and capped as."""
    peer = request.META.get("REMOTE_ADDR") or "unknown"
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not forwarded or not is_trusted(peer):
        return peer
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop):
            return hop
    return hops[0] if hops else peer  # every hop a proxy: the first one is all there is


def uvicorn_options() -> dict[str, Any]:
    """uvicorn's settings for forwarded headers: exactly ``TRUSTED_PROXIES``."""
    trusted = list(settings.TRUSTED_PROXIES)
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted}


def configure_uvicorn(config: Any) -> None:
    """Make a uvicorn ``Config`` that is loading the app trust exactly ``TRUSTED_PROXIES``,
    whatever its command line or ``FORWARDED_ALLOW_IPS`` said (``hosting.asgi`` calls it: the
    app is imported before uvicorn wraps it in its proxy-headers middleware)."""
    for name, value in uvicorn_options().items():
        setattr(config, name, value)
