"""The network interfaces the players' devices service may listen on: this machine's
IPv4 addresses, loopback first. Nothing is sent on the network to find them."""

from __future__ import annotations

import contextlib
import socket
import struct
import sys
from dataclasses import dataclass

LOOPBACK = "127.0.0.1"
#: the port the service listens on unless told otherwise
DEFAULT_PORT = 8765
#: SIOCGIFADDR (Linux): an interface's IPv4 address
_SIOCGIFADDR = 0x8915


@dataclass(frozen=True)
class Interface:
    name: str
    address: str

    def label(self) -> str:
        if self.address == LOOPBACK:
            return f"This computer only ({LOOPBACK})"
        return f"{self.name} — {self.address}"


def _linux() -> list[Interface]:
    import fcntl  # lazy: start-up (POSIX only)

    out = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            req = struct.pack("256s", name[:15].encode())
            with contextlib.suppress(OSError):
                addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), _SIOCGIFADDR, req)[20:24])
                out.append(Interface(name, addr))
    return out


def _portable() -> list[Interface]:
    found = set()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    # the address the system would use for the local network (a UDP "connect" sends nothing)
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        found.add(s.getsockname()[0])
    return [Interface("network", a) for a in sorted(found)]


def interfaces() -> list[Interface]:
    """Loopback first, then every other IPv4 address of this machine."""
    found: list[Interface] = []
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, ImportError):
            found = _linux()
    if not any(i.address != LOOPBACK for i in found):
        found += _portable()
    out = [Interface("lo", LOOPBACK)]
    seen = {LOOPBACK}
    for i in found:
        if i.address not in seen and not i.address.startswith("127."):
            seen.add(i.address)
            out.append(i)
    return out
