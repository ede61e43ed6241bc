"""Where a webhook may be sent: the address check, and a connection pinned to the checked address.

A webhook is a request the server makes on an organiser's behalf, so a URL must never reach
into the server's own network: a cloud's metadata service (``169.254.169.254``), a database
on ``10.0.0.0/8``, the machine itself. Every address a webhook's host names or resolves to is
classified; anything but a public unicast address is refused unless a setting allows its kind:
``WEBHOOK_ALLOW_LOOPBACK`` (on in development, so a receiver on the same machine works) and
``WEBHOOK_ALLOW_PRIVATE_TARGETS`` (private, link-local, shared and reserved ranges; off in every
profile). Multicast and unspecified addresses are never a receiver. IPv6 forms that carry an
IPv4 address (IPv4-mapped, 6to4, Teredo, NAT64) are judged by the IPv4 address inside.

The check runs when the URL is saved and again before every attempt, after resolving the
name, and the attempt then connects to the address that was checked (the ``Host`` header and
TLS's SNI and certificate check keep the name): a name whose DNS answer changes between the
check and the connection (DNS rebinding) cannot swap in another address.

``resolver`` is the seam through which names are resolved (tests replace it, so that no test
asks the network's DNS).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from hosting.core.errors import UserError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


resolver: Callable[[str, int], list[str]] = _system_resolver


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]  # the client's address, where the tunnel ends
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_kind(ip: IPAddress) -> str | None:
    """None for a public unicast address; else the kind of address it is (``loopback``,
    ``private``, ``link-local``, ``multicast``, ``unspecified``, ``reserved`` or
    ``non-public``)."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None:
            return address_kind(inner)
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_multicast:
        return "multicast"
    if ip.is_link_local:
        return "link-local"
    if ip.is_reserved:
        return "reserved"
    if ip.is_private:
        return "private"
    if not ip.is_global:
        return "non-public"  # e.g. the carrier-grade NAT range 100.64.0.0/10
    return None


def allowed(ip: IPAddress) -> bool:
    kind = address_kind(ip)
    if kind is None:
        return True
    if kind == "loopback":
        return settings.WEBHOOK_ALLOW_LOOPBACK
    if kind in ("multicast", "unspecified"):
        return False
    return settings.WEBHOOK_ALLOW_PRIVATE_TARGETS


KINDS = {
    "loopback": gettext_lazy("loopback"),
    "private": gettext_lazy("private"),
    "link-local": gettext_lazy("link-local"),
    "multicast": gettext_lazy("multicast"),
    "unspecified": gettext_lazy("unspecified"),
    "reserved": gettext_lazy("reserved"),
    "non-public": gettext_lazy("not public"),
}


def _refusal(host: str, address: str, ip: IPAddress) -> UserError:
    kind = address_kind(ip) or ""
    if kind == "loopback":
        setting = "WEBHOOK_ALLOW_LOOPBACK"
    elif kind in ("multicast", "unspecified"):
        setting = None
    else:
        setting = "WEBHOOK_ALLOW_PRIVATE_TARGETS"
    where = {"host": host, "address": address, "kind": KINDS.get(kind, kind)}
    if host == address:
        message = _("url: %(address)s is not a public address (%(kind)s)") % where
    else:
        message = (
            _("url: %(host)s resolves to %(address)s, which is not a public address (%(kind)s)")
            % where
        )
    message += "; " + _("webhooks are sent only to public addresses")
    if setting:
        message += " " + _("unless the server's %(setting)s setting allows them") % {
            "setting": setting
        }
    return UserError(message)


@dataclass(frozen=True)
class Target:
    """A URL whose address was checked: connect to ``address``, name ``parts.hostname``."""

    parts: SplitResult
    address: str

    @property
    def pinned_url(self) -> str:
        """The URL with its host replaced by the checked address (its port kept)."""
        host = f"[{self.address}]" if ":" in self.address else self.address
        if self.parts.port is not None:
            host += f":{self.parts.port}"
        return self.parts._replace(netloc=host).geturl()

    @property
    def host_header(self) -> str:
        return self.parts.netloc

    @property
    def sni_hostname(self) -> str | None:
        """The name TLS sends and verifies the certificate against (None for an address)."""
        hostname = self.parts.hostname or ""
        try:
            ipaddress.ip_address(hostname)
        except ValueError:
            return hostname
        return None


def split(url: str) -> tuple[SplitResult, int]:
    """The URL's parts and port, if it is an http(s) URL with a host and no credentials."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UserError(_("url: the webhook URL is not a valid URL")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UserError(_("url: a webhook URL starts with http:// or https:// and names a host"))
    if parts.username or parts.password:
        raise UserError(_("url: a webhook URL carries no user name or password"))
    return parts, port


def resolve(url: str) -> Target:
    """The URL's host resolved and every one of its addresses checked: the target to connect
    to; otherwise a ``UserError`` saying why not (a name with any address that is not allowed
    is refused as a whole)."""
    parts, port = split(url)
    hostname = parts.hostname or ""
    try:
        addresses = [str(ipaddress.ip_address(hostname))]
    except ValueError:
        try:
            addresses = resolver(hostname, port)
        except (OSError, UnicodeError):
            addresses = []
        if not addresses:
            raise UserError(
                _("url: the webhook's host %(host)r does not resolve") % {"host": hostname}
            ) from None
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone is no part of it
        if not allowed(ip):
            raise _refusal(hostname, address, ip)
    return Target(parts, addresses[0].split("%", 1)[0])
