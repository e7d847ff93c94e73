"""What one device on the network may hold of the players' devices service, so that
no phone (nor anything else on the Wi-Fi) can lock the others out or exhaust the
Judge's machine. Pure bookkeeping, no network and no Qt: :mod:`.server` asks it
whom to let in and whom to close.

* **Connections** (:class:`Connections`). A connection has :data:`HEADER_TIMEOUT`
  seconds to send a whole request's headers, or it is closed; an idle one is closed
  after :data:`IDLE_TIMEOUT`. No request body is ever read. One address holds at
  most :data:`PER_ADDRESS_CONNECTIONS` connections, and the service at most
  :func:`connection_bound` (well under the process's open-file limit): past the first
  bound the address's oldest plain (non-WebSocket) connection makes room, past the
  second the oldest plain one of the address holding the most; with none, the new
  connection is closed at once.
* **Live pages** (:class:`Sockets`). One address holds at most
  :data:`PER_PAGE_SOCKETS` WebSockets on one page and :data:`PER_ADDRESS_SOCKETS`
  in all; the service at most :data:`MAX_SOCKETS`. A new socket never waits for an
  old one: it replaces the oldest socket of the same page from the same address (a
  phone back after a Wi-Fi drop whose stale socket is still open), else the oldest
  of the same address, else, when the service is full, the oldest of the address
  holding the most. So many sockets from one address cost only that address, and a
  page's own phone can always reconnect.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import time
from collections.abc import Hashable
from dataclasses import dataclass
from types import ModuleType
from typing import Generic, TypeVar

resource: ModuleType | None
try:
    import resource
except ImportError:  # not POSIX: the open-file limit is not read
    resource = None

#: a connection or a socket, as the server knows it
C = TypeVar("C", bound=Hashable)

#: seconds a new connection has to send a whole request's headers
HEADER_TIMEOUT = 10.0
#: seconds an idle connection (between requests) stays open
IDLE_TIMEOUT = 15.0
#: open connections from one address (a browser opens about six per site)
PER_ADDRESS_CONNECTIONS = 32
#: open connections in all, at most (see :func:`connection_bound`)
MAX_CONNECTIONS = 512
#: one address's live sockets on one page (a phone, and its stale socket after a drop)
PER_PAGE_SOCKETS = 2
#: one address's live sockets in all (a laptop may open every page to test)
PER_ADDRESS_SOCKETS = 8
#: live sockets in all (a posse's phones and a few spares)
MAX_SOCKETS = 64


def connection_bound() -> int:
    """Open connections the service allows: :data:`MAX_CONNECTIONS`, and never more
    than a quarter of the process's soft open-file limit (the window, its files and
    the sockets the service must still accept need the rest)."""
    if resource is None:
        return MAX_CONNECTIONS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft // 4))


def _fullest(by_address: dict[str, list[C]]) -> list[C]:
    """The entries of the address holding the most, oldest first."""
    return max(by_address.values(), key=len, default=[])


class Connections(Generic[C]):
    """The open connections by address, oldest first (see the module docstring).
    Used on the service's thread only."""

    def __init__(self, per_address: int = PER_ADDRESS_CONNECTIONS, bound: int = 0) -> None:
        self.per_address = per_address
        self.bound = bound or connection_bound()
        self._by_address: dict[str, list[C]] = collections.defaultdict(list)
        self._address: dict[C, str] = {}
        self._sockets: set[C] = set()

    def __len__(self) -> int:
        return len(self._address)

    def admit(self, address: str, conn: C) -> list[C]:
        """Count ``conn`` in; the connections to close now (possibly ``conn``)."""
        victim: C | None = None
        if len(self._by_address.get(address, ())) >= self.per_address:
            mine = [c for c in self._by_address[address] if c not in self._sockets]
            victim = mine[0] if mine else conn
        elif len(self._address) >= self.bound:
            plain = {
                a: [c for c in cs if c not in self._sockets] for a, cs in self._by_address.items()
            }
            fullest = _fullest(plain)
            victim = fullest[0] if fullest else conn
        if victim is conn:
            return [conn]
        self._by_address[address].append(conn)
        self._address[conn] = address
        if victim is not None:
            self.lost(victim)
            return [victim]
        return []

    def carries_socket(self, conn: C) -> None:
        """``conn`` now carries a live page: the connection bounds never close it (the
        socket bounds do)."""
        if conn in self._address:
            self._sockets.add(conn)

    def lost(self, conn: C) -> None:
        address = self._address.pop(conn, None)
        self._sockets.discard(conn)
        if address is not None:
            conns = self._by_address[address]
            conns.remove(conn)
            if not conns:
                del self._by_address[address]


@dataclass(frozen=True)
class Device:
    """A live page open now: the page, the device's address, since when (seconds
    since the epoch), and whether it waits for the Judge to let it in (it is sent
    nothing meanwhile)."""

    page: str
    address: str
    since: float
    waiting: bool = False


class Sockets(Generic[C]):
    """The live pages' sockets (see the module docstring). Changed on the service's
    thread; :meth:`devices` may be read from any thread."""

    def __init__(self) -> None:
        self._open: dict[C, Device] = {}  # oldest first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, page: str, address: str, ws: C, waiting: bool = False) -> tuple[bool, list[C]]:
        """Whether ``ws`` may open, and the sockets it replaces (to close now)."""
        with self._lock:
            same_page = [w for w, d in self._open.items() if (d.page, d.address) == (page, address)]
            mine = [w for w, d in self._open.items() if d.address == address]
            victim: C | None = None
            if len(same_page) >= PER_PAGE_SOCKETS:
                victim = same_page[0]
            elif len(mine) >= PER_ADDRESS_SOCKETS:
                victim = mine[0]
            elif len(self._open) >= MAX_SOCKETS:
                by_address: dict[str, list[C]] = collections.defaultdict(list)
                for w, d in self._open.items():
                    by_address[d.address].append(w)
                fullest = _fullest(by_address)
                if len(fullest) <= 1:
                    return False, []  # every address holds one: the service is full
                victim = fullest[0]
            if victim is not None:
                del self._open[victim]
            self._open[ws] = Device(page, address, time.time(), waiting)
            return True, [] if victim is None else [victim]

    def let_in(self, page: str | None) -> list[tuple[C, Device]]:
        """The waiting sockets of ``page`` (None: of every page) let in, each with
        its device."""
        with self._lock:
            out = []
            for w, d in self._open.items():
                if d.waiting and page in (None, d.page):
                    self._open[w] = dataclasses.replace(d, waiting=False)
                    out.append((w, d))
            return out

    def remove(self, ws: C) -> None:
        with self._lock:
            self._open.pop(ws, None)

    def sockets(self, page: str | None = None) -> list[C]:
        """The sockets open now (of ``page`` only, if given)."""
        with self._lock:
            return [w for w, d in self._open.items() if page is None or d.page == page]

    def devices(self) -> list[Device]:
        """The live pages open now, oldest first."""
        with self._lock:
            return list(self._open.values())

    def clear(self) -> None:
        with self._lock:
            self._open.clear()
