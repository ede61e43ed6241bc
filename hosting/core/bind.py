"""DEBUG pages stay on this machine: a process bound beyond loopback refuses to start with
DEBUG on, since Django's debug pages show tracebacks, settings and request data to whoever
can reach them. ``make run`` binds 127.0.0.1 and keeps them."""

from __future__ import annotations

import ipaddress
import sys
from typing import Any

from django.core.exceptions import ImproperlyConfigured


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name other than localhost may resolve to anything
        return False


def refuse_debug_beyond_loopback(host: str, *, debug: bool) -> None:
    if debug and not is_loopback(host):
        raise ImproperlyConfigured(
            f"DEBUG is on, so this process will not listen on {host}: debug pages show "
            "tracebacks, settings and request data to anyone who reaches them. Bind 127.0.0.1 "
            "(as `make run` does), or turn DEBUG off (APP_PROFILE=production, or DEBUG=0)."
        )


def uvicorn_config() -> Any | None:
    """The ``uvicorn.Config`` importing the app now (its CLI, ``uvicorn.run`` or a ``Server``
    of one's own all import it from ``Config.load``), or None when uvicorn is not the importer."""
    module = sys.modules.get("uvicorn.config")
    if module is None:
        return None
    frame: Any = sys._getframe(1)
    while frame is not None:
        config = frame.f_locals.get("self")
        if isinstance(config, module.Config):
            return config
        frame = frame.f_back
    return None


def uvicorn_host(config: Any) -> str | None:
    """The address a uvicorn ``Config`` serves, or None when it serves a Unix socket (which
    only this machine reaches)."""
    if config.uds:
        return None
    return "an inherited socket" if config.fd is not None else config.host
