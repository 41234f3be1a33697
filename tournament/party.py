"""The evening on the venue's Wi-Fi: where phones reach this computer, and the settings that follow.

``manage.py party`` (what ``make party`` runs) serves the site with gunicorn on every address of
this computer, with ``DEBUG=0``. This module holds the parts it needs that are worth testing on
their own:

* ``lan_address``: this computer's address on the local network, found the standard way (a UDP
  socket "connected" to a private address picks the interface the system would route through;
  nothing is sent), or None where there is none (no network: then only this computer can reach
  the site, and the Connect phones page says so).
* ``party_settings``: the environment the web server and the worker get from that address:
  ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``, ``SITE_URL`` (what QR codes and printed links
  carry) and ``SITE_LOCAL_URL`` (the ``*.local`` name, where multicast DNS works).
* ``party_secret_key``: the secret key, generated once and kept in ``var/secret_key`` (mode 600),
  so sessions and CSRF tokens survive a restart of the party.
* ``LocalName``: announces ``headtable.local`` on the network through the ``zeroconf`` library
  (multicast DNS, what iPhones, Macs, most laptops and recent Android phones resolve); where
  multicast is not available it gives up quietly and phones use the numeric address.

House rule (the issue is silent on names): QR codes carry the numeric address, which every
phone can open; the ``.local`` name is shown beside it for typing by hand.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.core.management.utils import get_random_secret_key

if TYPE_CHECKING:  # imported where the name is announced, so a missing library only loses the name
    from zeroconf import ServiceInfo, Zeroconf

LOCAL_NAME = "headtable"
"""The multicast DNS name announced for the party: ``headtable.local``."""

_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
"""Private addresses a UDP socket is "connected" to (no packet is sent) to learn which local
address the system would use to reach the local network."""

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}

log = logging.getLogger(__name__)


def is_loopback_host(host: str) -> bool:
    """True when ``host`` (a name or an address, IPv6 with or without brackets, no port) can only
    be reached from this computer: 127.0.0.0/8, ::1, 0.0.0.0, "localhost" and the like."""
    host = host.strip().strip("[]").lower().rstrip(".")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def is_loopback_url(url: str) -> bool:
    """True when the host of ``url`` (e.g. "http://127.0.0.1:8000") is a loopback host; an empty
    or unreadable URL counts as loopback (nothing outside this computer could use it)."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return True
    return not host or is_loopback_host(host)


def lan_address() -> str | None:
    """This computer's IPv4 address on the local network, e.g. "192.168.1.23", or None when it
    has none (only loopback). No packet leaves the computer: ``connect`` on a UDP socket only
    asks the system which local address it would send from."""
    for probe in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
                address = udp.getsockname()[0]
            except OSError:
                continue
        if not is_loopback_host(address):
            return address
    return None


def _url(host: str, port: int) -> str:
    """ "http://host:port" (port 80 left out); an IPv6 address gets its brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def party_settings(address: str | None, port: int, local_name: str | None = None) -> dict[str, str]:
    """The environment for the party's web server and worker, from this computer's LAN
    ``address`` (None: loopback only), the ``port`` it serves on and the announced multicast
    DNS ``local_name`` (e.g. "headtable.local", or None).

    Returns strings for ``ALLOWED_HOSTS`` and ``CSRF_TRUSTED_ORIGINS`` (comma-separated: the
    address, the local name and this computer's own loopback names), ``SITE_URL`` (the address
    phones open, in QR codes; "http://127.0.0.1:PORT" without a LAN address) and
    ``SITE_LOCAL_URL`` ("" without a local name). Raises ``ValueError`` for a port outside
    1..65535 or an address that is not an IP address."""
    if not 1 <= port <= 65535:
        raise ValueError(f"Port {port} is not between 1 and 65535.")
    if address is not None:
        ipaddress.ip_address(address)  # ValueError for anything else
    hosts = [h for h in (address, local_name) if h]
    hosts += ["127.0.0.1", "localhost", "[::1]"]
    hosts = list(dict.fromkeys(f"[{h}]" if ":" in h and not h.startswith("[") else h for h in hosts))
    origins = [_url(h, port) for h in hosts]
    return {
        "ALLOWED_HOSTS": ",".join(hosts),
        "CSRF_TRUSTED_ORIGINS": ",".join(origins),
        "SITE_URL": _url(address or "127.0.0.1", port),
        "SITE_LOCAL_URL": _url(local_name, port) if local_name else "",
    }


def party_secret_key(var_dir: Path) -> Path:
    """The file holding the party's secret key, ``var_dir/secret_key``: created once (a random
    50-character key from Django, file mode 600) and reused after. Returns its path; raises
    ``OSError`` when the folder cannot be written."""
    path = Path(var_dir) / "secret_key"
    if not path.exists() or not path.read_text(encoding="ascii").strip():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(get_random_secret_key() + "\n")
    os.chmod(path, 0o600)
    return path


@dataclass
class LocalName:
    """The party's multicast DNS name, announced while the party runs.

    ``LocalName.announce(address, port)`` registers an HTTP service whose host is
    ``headtable.local`` with ``address`` through ``zeroconf``; ``name`` is "headtable.local".
    It returns None, quietly (one line in the log), where multicast is not available or the
    library is missing. ``close()`` withdraws the name."""

    name: str
    _zeroconf: Zeroconf
    _info: ServiceInfo

    @classmethod
    def announce(cls, address: str, port: int) -> LocalName | None:
        """Announce ``headtable.local`` → ``address`` with an HTTP service on ``port``; None on failure."""
        try:
            from zeroconf import IPVersion, ServiceInfo, Zeroconf

            info = ServiceInfo(
                "_http._tcp.local.",
                "Head Table._http._tcp.local.",
                addresses=[socket.inet_aton(address)],
                port=port,
                properties={"path": "/"},
                server=f"{LOCAL_NAME}.local.",
            )
            zc = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
            try:
                zc.register_service(info, allow_name_change=True)
            except Exception:
                zc.close()
                raise
        except Exception as error:  # no multicast, no interface, name clash, library missing
            log.info("No multicast DNS name for the party: %s", error)
            return None
        return cls(f"{LOCAL_NAME}.local", zc, info)

    def close(self) -> None:
        """Withdraw the name from the network (errors on the way out are ignored)."""
        try:
            self._zeroconf.unregister_service(self._info)
            self._zeroconf.close()
        except Exception as error:
            log.info("Withdrawing the multicast DNS name: %s", error)


@dataclass(frozen=True)
class PhoneAddress:
    """Where guests' phones open this site, as the host's pages show it.

    ``url``: the base of every link and QR code handed to a phone (no trailing slash);
    ``local_url``: the ``*.local`` name's address ("" when none is announced); ``loopback``:
    True when ``url`` only works on this computer (the pages then warn)."""

    url: str
    local_url: str
    loopback: bool


def phone_address(request) -> PhoneAddress:
    """The address phones use, for the host's ``request``: ``SITE_URL`` when it is a network
    address (``make party`` sets it), else the address the host's browser used (a server
    started on the network by hand is reached that way). Either may be loopback."""
    from django.conf import settings

    site = settings.SITE_URL.rstrip("/")
    url = site if not is_loopback_url(site) else request.build_absolute_uri("/").rstrip("/")
    local = getattr(settings, "SITE_LOCAL_URL", "").rstrip("/")
    return PhoneAddress(url=url, local_url=local, loopback=is_loopback_url(url))
