"""The players' devices service: each posse character's page (and the table page)
over HTTP and WebSocket on the local network, on its own thread with its own asyncio
loop (never the GUI thread).

* **Off until started.** :meth:`DeviceService.start` binds the chosen interface and
  port; :meth:`DeviceService.stop` closes every connection and stops listening.
* **Addresses.** Each page is ``http://HOST:PORT/p/TOKEN/``; a token is
  ``secrets.token_urlsafe(TOKEN_BYTES)`` (128 bits or more). Stopping, or
  :meth:`DeviceService.new_addresses`, revokes every token and closes the pages'
  connections; :meth:`DeviceService.revoke_page` does it for one page alone. A request
  under ``/p/`` without a valid token gets 403 and an empty body; any other path gets
  404. Nothing is logged with a token in it, not even for a malformed request, and no
  answer names the server's software or versions.
* **Same origin only.** A request whose ``Host`` is not the served address and port,
  or whose ``Origin`` (a browser's, for the WebSocket and scripts) is another site's,
  gets 403: a web page elsewhere cannot read a page's stream, nor a renamed host
  (DNS rebinding) reach it.
* **No device can hurt the table**: timeouts and per-address bounds on connections and
  live pages, see :mod:`.guard`; :meth:`DeviceService.devices` lists the live pages
  open now (page, address, since when).
* **Ask to join** (:attr:`DeviceService.ask_to_join`, off by default): a device not
  yet let in on a page is listed as waiting and sent nothing (no state, no picture)
  until the Judge lets it in (:meth:`DeviceService.let_in`); its address is then let
  in on that page until the page's address is revoked.
* **Every byte from the app**: the page, its script, style and icon are files of
  ``resources/web`` read at start; no outside server, no font or script from a CDN.
  The page's Content-Security-Policy allows only its own address.
* **Live.** :meth:`DeviceService.publish` hands a :class:`~.state.Frame` over (any
  thread); the service builds each page's new state with its
  :class:`~.state.PageBuilder` and sends the change as a merge patch with the page's
  sequence number. A page that reconnects says the last number it has (``?since=N``)
  and gets the patches it missed, or the whole state when they are too old.
* **Requests** (issue 39). A character page may send ``{"declare": <a table action
  in its journal form>}``, or ``{"options": {}}`` to learn what it may offer now. The service never applies it: it numbers it, notes what
  the page shows now (:class:`~twtw_desktop.play.player_requests.PageView`) and
  hands it to :attr:`DeviceService.on_request`, which passes it to the thread that
  owns the table; that side answers through :meth:`DeviceService.answer` and the
  page gets ``{"request": N, "status": ..., "why": ...}``. A message that is not such
  a request, one from the table page, or one past the page's rate
  (:data:`REQUEST_BURST`, then :data:`REQUEST_RATE` a second) is refused at once
  on the service's thread; a message over 4 KiB closes that socket.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import WSCloseCode, web
from aiohttp.web_protocol import RequestHandler

from ..errors import TwtwError
from ..geometry.hexcut import hex_rings
from ..io import checked_picture
from ..play.player_requests import PageView
from ..resources import resource_path
from .guard import HEADER_TIMEOUT, IDLE_TIMEOUT, Connections, Device, Sockets
from .state import TABLE_PAGE, Frame, PageBuilder, PictureCutter, merge_patch, posse_pages

log = logging.getLogger(__name__)

#: bytes of randomness in a page's token (128 bits is the least the issue allows)
TOKEN_BYTES = 18
#: patches a page keeps for devices that reconnect (older gaps get the whole state)
HISTORY = 1000
#: a device this many messages behind is dropped (it reconnects and catches up)
MAX_BACKLOG = 2000
#: the page's files: name -> content type
ASSETS = {
    "": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
ASSET_FILES = {"": "index.html", "app.js": "app.js", "app.css": "app.css", "icon.svg": "icon.svg"}
#: the ``Server`` header of every answer (no software or version named)
SERVER_NAME = "TWTW"
HEADERS = {
    "Server": SERVER_NAME,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
}
#: the WebSocket close code for a revoked address (the page stops retrying)
CLOSE_REVOKED = 4403
#: the WebSocket close code for a page replaced by a newer socket of the same device
#: (the page waits to be shown again before it reconnects)
CLOSE_REPLACED = 4409
#: requests a page may send at once, then so many a second (more are refused)
REQUEST_BURST = 12
REQUEST_RATE = 4.0
#: the answer to a message that is not a request
NOT_A_REQUEST = 'A page sends {"declare": <an action>} and nothing else.'
#: the answer to a request past the page's rate
TOO_MANY = "Too many requests at once: wait a moment and ask again."
#: the answer to a request when nobody on the table's side takes them
NOBODY = "The Judge is not taking requests from the phones now."


@dataclass(frozen=True)
class PlayerRequest:
    """A page's request, handed to the table's side: its number, the page's view and
    the action as the page sent it."""

    n: int
    view: PageView
    declare: Any
    #: "declare" (a request for an action) or "options" (what the page may offer now:
    #: answered ``{"options": {...}}``, see :mod:`twtw_desktop.play.player_options`)
    kind: str = "declare"


@dataclass
class _Bucket:
    """A page's allowance of requests (a token bucket)."""

    tokens: float = float(REQUEST_BURST)
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(REQUEST_BURST), self.tokens + (now - self.at) * REQUEST_RATE)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


#: the logger of malformed requests and failures while answering (never their text:
#: a request line carries the page's token)
http_log = logging.getLogger(__name__ + ".http")


class _NoRequestText(logging.Filter):
    """aiohttp's own reports about a connection may quote the request (its line
    carries the page's token): their tracebacks are dropped, the message kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


http_log.addFilter(_NoRequestText())


class ServiceError(TwtwError):
    """The service could not start (the port is taken, the address is not this
    machine's…)."""


@dataclass(frozen=True)
class PageAddress:
    key: str
    name: str
    url: str


def load_assets() -> dict[str, bytes]:
    """The page's files, read once (every byte served comes from the app)."""
    return {name: resource_path("web", f).read_bytes() for name, f in ASSET_FILES.items()}


@dataclass
class _Page:
    """One page on the service's thread: its builder, its last state and sequence
    number, the patches kept for catching up, and the queues of its open sockets."""

    key: str
    builder: PageBuilder
    state: dict[str, Any] | None = None
    seq: int = 0
    history: collections.deque = field(default_factory=lambda: collections.deque(maxlen=HISTORY))
    queues: set = field(default_factory=set)
    #: the picture last served to this page: (its state's ``v``, bytes, type)
    picture: tuple[str, bytes, str] | None = None

    def full(self) -> str:
        return _dumps({"seq": self.seq, "full": self.state})

    def catch_up(self, since: int) -> list[str]:
        if self.state is None or since == self.seq:
            return []
        if 0 < since < self.seq and self.history and self.history[0][0] <= since + 1:
            return [m for s, m in self.history if s > since]
        return [self.full()]


def _dumps(x: Any) -> str:
    return json.dumps(x, separators=(",", ":"), ensure_ascii=False)


class _Handler(RequestHandler):
    """aiohttp's handler of one connection, answering a malformed request or a failure
    with the bare status: the request line (the page's token in it) is neither logged
    nor echoed, and the answer names no software."""

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        kind = type(exc).__name__ if exc is not None else "no detail"
        if status >= 500 and exc is not None:
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
            http_log.error("answering a page failed: %s at %s", kind, where)
        else:
            http_log.debug("a request was refused with %d (%s)", status, kind)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer was already under way")
        resp = web.Response(status=status, headers=HEADERS)
        resp.force_close()
        return resp


class _Server(web.Server):
    """aiohttp's low-level server, telling the service of every connection opened and
    closed (the bounds of :mod:`.guard`)."""

    def __init__(self, service: DeviceService, **kwargs: Any) -> None:
        super().__init__(service._handle, **kwargs)
        self._service = service

    def __call__(self) -> RequestHandler:
        return _Handler(self, loop=self._loop, **self._kwargs)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        self._service._connected(handler, transport)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        super().connection_lost(handler, exc)
        self._service._disconnected(handler)


def _host_port(value: str) -> tuple[str, int | None]:
    """``Host`` or an origin's authority as (host, port): ``[::1]:80``, ``a.b:80``, ``a.b``."""
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = value.rpartition(":") if ":" in value else (value, "", "")
    try:
        return host.lower(), int(port) if port else None
    except ValueError:
        return "", -1


def _same_ip(a: str, b: str) -> bool:
    try:
        return ipaddress.ip_address(a) == ipaddress.ip_address(b)
    except ValueError:
        return False


class DeviceService:
    """The players' devices service (see the module docstring)."""

    def __init__(self, cutter: PictureCutter | None = None) -> None:
        #: cuts the background picture to what a character has seen (None: the
        #: character pages get no picture)
        self._cutter = cutter
        self._assets = load_assets()
        self._tokens: dict[str, str] = {}
        self._titles: dict[str, str] = {}
        self._pages: dict[str, _Page] = {}
        #: the live pages' sockets now, by page and address (see :mod:`.guard`)
        self._live: Sockets[web.WebSocketResponse] = Sockets()
        self._conns: Connections[RequestHandler] = Connections()
        #: connections yet to send their first request's headers -> their deadline
        self._deadlines: dict[RequestHandler, asyncio.TimerHandle] = {}
        self._closing: set[asyncio.Future] = set()
        #: "ask to join": the addresses let in on each page, and the waiting sockets'
        #: gates (service's thread)
        self.ask_to_join = False
        self._allowed: dict[str, set[str]] = {}
        self._gates: dict[web.WebSocketResponse, asyncio.Event] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.BaseRunner | None = None
        self._frame: Frame | None = None
        #: the background picture as read: (map file and placement, bytes, type)
        self._picture: tuple[tuple, bytes, str] | None = None
        self.host = ""
        self.port = 0
        #: called on the service's thread after each update is queued:
        #: ``(page key, seq, message bytes)`` (the bench and the load test listen)
        self.on_update: Callable[[str, int, int], None] | None = None
        #: called on the service's thread when a live page opens or closes (the
        #: devices dialog lists them)
        self.on_devices: Callable[[], None] | None = None
        #: called on the service's thread with each page's request (hand it to the
        #: table's thread; never apply it here); None: requests are refused
        self.on_request: Callable[[PlayerRequest], None] | None = None
        self._requests = 0
        self._buckets: dict[str, _Bucket] = {}

    # -- starting and stopping -----------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._loop is not None

    def start(self, frame: Frame, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on ``host:port`` (0: a free port) and serve the pages of ``frame``'s
        posse. Raises :class:`ServiceError` with a one-line reason."""
        if self.running:
            raise ServiceError("the players' devices service is already running")
        self._frame = frame
        self._new_tokens(frame)
        self._allowed = {}
        ready = threading.Event()
        problem: list[str] = []
        t = threading.Thread(
            target=self._run, args=(host, port, ready, problem), name="twtw-devices", daemon=True
        )
        self._thread = t
        t.start()
        ready.wait(15)
        if problem or not ready.is_set():
            t.join(5)
            self._thread = None
            self._tokens = {}
            raise ServiceError(problem[0] if problem else f"could not listen on {host}:{port}")

    def stop(self) -> None:
        """Stop listening, close every page's connection, revoke every address."""
        self._tokens = {}
        loop, t = self._loop, self._thread
        if loop is None or t is None:
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(loop.stop)
        t.join(15)
        self._thread = None

    def _run(self, host: str, port: int, ready: threading.Event, problem: list[str]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open(host, port))
        except (OSError, ValueError) as e:
            problem.append(
                f"cannot listen on {host}:{port} ({e.strerror or e})"
                if isinstance(e, OSError)
                else f"cannot listen on {host}:{port} ({e})"
            )
            with contextlib.suppress(Exception):
                loop.run_until_complete(self._close())
            loop.close()
            ready.set()
            return
        self._loop = loop
        if self._frame is not None:
            self._accept(self._frame, time.perf_counter())
        ready.set()
        try:
            loop.run_forever()
        finally:
            self._loop = None
            loop.run_until_complete(self._close())
            loop.close()

    async def _open(self, host: str, port: int) -> None:
        self._conns = Connections()
        server = _Server(
            self,
            keepalive_timeout=IDLE_TIMEOUT,
            lingering_time=0,  # a body is never read: the connection closes after the answer
            access_log=None,
            logger=http_log,
        )
        runner = web.ServerRunner(server, handle_signals=False)
        await runner.setup()
        self._runner = runner
        site = web.TCPSite(runner, host, port, reuse_address=True)
        await site.start()
        bound = runner.addresses[0]
        self.host, self.port = host, int(bound[1])

    async def _close(self) -> None:
        for ws in self._live.sockets():
            with contextlib.suppress(Exception):
                await ws.close(code=WSCloseCode.GOING_AWAY)
        self._live.clear()
        self._gates.clear()
        for h in self._deadlines.values():
            h.cancel()
        self._deadlines.clear()
        self._pages.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- addresses -----------------------------------------------------------------------

    def _new_tokens(self, frame: Frame) -> None:
        pages = [*posse_pages(frame.encounter), (TABLE_PAGE, "Table")]
        self._titles = dict(pages)
        self._tokens = {secrets.token_urlsafe(TOKEN_BYTES): key for key, _ in pages}

    def new_addresses(self) -> None:
        """New tokens for every page: the old addresses stop working at once and the
        pages open on them are closed."""
        if self._frame is None:
            return
        self._new_tokens(self._frame)
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._revoke()))

    def revoke_page(self, key: str) -> None:
        """A new token for page ``key`` alone: its old address stops working at once
        and its open pages are closed; the other pages keep theirs."""
        if key not in self._titles or not self.running:
            return
        tokens = {tok: k for tok, k in self._tokens.items() if k != key}
        tokens[secrets.token_urlsafe(TOKEN_BYTES)] = key
        self._tokens = tokens
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._revoke(key)))

    async def _revoke(self, key: str | None = None) -> None:
        if key is None:
            self._allowed.clear()
        else:
            self._allowed.pop(key, None)
        for ws in self._live.sockets(key):
            with contextlib.suppress(Exception):
                await ws.close(code=CLOSE_REVOKED, message=b"revoked")

    def set_ask_to_join(self, on: bool) -> None:
        """Ask new devices to wait for the Judge (any thread); off lets every waiting
        device in."""
        self.ask_to_join = on
        loop = self._loop
        if not on and loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._let_in, None)

    def let_in(self, key: str) -> None:
        """Let page ``key``'s waiting devices in (any thread)."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._let_in, key)

    def _let_in(self, key: str | None) -> None:
        for ws, device in self._live.let_in(key):
            self._allowed.setdefault(device.page, set()).add(device.address)
            gate = self._gates.pop(ws, None)
            if gate is not None:
                gate.set()
        self._devices_changed()

    def _may_see(self, key: str, address: str) -> bool:
        return not self.ask_to_join or address in self._allowed.get(key, ())

    def devices(self) -> list[Device]:
        """The live pages open now (page key, device address, since when), oldest
        first; any thread."""
        return self._live.devices() if self.running else []

    def addresses(self) -> list[PageAddress]:
        """One address per page: the posse's characters, then the table page."""
        if not self.running:
            return []
        host = f"[{self.host}]" if ":" in self.host else self.host
        by_key = {key: tok for tok, key in self._tokens.items()}
        out = []
        for key, name in self._titles.items():
            tok = by_key.get(key)
            if tok is not None:
                out.append(PageAddress(key, name, f"http://{host}:{self.port}/p/{tok}/"))
        return out

    def _page_for(self, token: str) -> str | None:
        found = None
        for tok, key in list(self._tokens.items()):
            if secrets.compare_digest(tok.encode(), token.encode()):
                found = key
        return found

    # -- updates -------------------------------------------------------------------------

    def publish(self, frame: Frame) -> None:
        """A new frame of the table (any thread): the pages are updated on the
        service's thread."""
        self._frame = frame
        loop = self._loop
        if loop is not None:
            t0 = time.perf_counter()
            with contextlib.suppress(RuntimeError):  # stopping meanwhile
                loop.call_soon_threadsafe(self._accept, frame, t0)

    def _page(self, key: str) -> _Page:
        p = self._pages.get(key)
        if p is None:
            p = self._pages[key] = _Page(key, PageBuilder(key, self._cutter is not None))
        return p

    def _accept(self, frame: Frame, t0: float) -> None:
        for key in self._titles:
            if key != TABLE_PAGE:
                try:
                    frame.encounter.character(key)
                except KeyError:
                    continue
            page = self._page(key)
            try:
                new = page.builder.state(frame)
            except Exception:  # one page's failure never stops the others
                log.exception("the page for %s could not be built", key)
                continue
            if page.state is None:
                page.state = new
                page.seq = 1
                msg = page.full()
            else:
                patch = merge_patch(page.state, new)
                if not patch:
                    continue
                page.state = new
                page.seq += 1
                msg = _dumps({"seq": page.seq, "patch": patch})
                page.history.append((page.seq, msg))
            for q in list(page.queues):
                q.put_nowait(msg)
            if self.on_update is not None:
                self.on_update(key, page.seq, len(msg.encode()))

    # -- connections ---------------------------------------------------------------------

    def _connected(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        closed = self._conns.admit(address, handler)
        for h in closed:
            h.force_close()
        if handler not in closed and self._loop is not None:
            self._deadlines[handler] = self._loop.call_later(
                HEADER_TIMEOUT, self._too_slow, handler
            )

    def _too_slow(self, handler: RequestHandler) -> None:
        """The connection sent no whole request in time: closed."""
        if self._deadlines.pop(handler, None) is not None:
            handler.force_close()

    def _disconnected(self, handler: RequestHandler) -> None:
        self._conns.lost(handler)
        h = self._deadlines.pop(handler, None)
        if h is not None:
            h.cancel()

    def _same_origin(self, request: web.BaseRequest) -> bool:
        """The ``Host`` is the served address and port, and the ``Origin`` (if any)
        is this very address."""
        host = request.headers.get("Host", "")
        name, port = _host_port(host)
        if port != self.port and not (port is None and self.port == 80):
            return False
        if self.host in ("0.0.0.0", "::", ""):  # every interface: any address, no name
            if not _same_ip(name, name):
                return False
        elif name != self.host.lower() and not _same_ip(name, self.host):
            return False  # (a name is accepted only when it is the one served: --host)
        origin = request.headers.get("Origin")
        return origin is None or origin == f"http://{host}"

    # -- HTTP ----------------------------------------------------------------------------

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        deadline = self._deadlines.pop(request.protocol, None)
        if deadline is not None:
            deadline.cancel()
        if not self._same_origin(request):
            return web.Response(status=403, headers=HEADERS)
        parts = request.path.split("/")
        if len(parts) < 3 or parts[0] != "" or parts[1] != "p":
            return web.Response(status=404, headers=HEADERS)
        key = self._page_for(parts[2])
        if key is None:
            return web.Response(status=403, headers=HEADERS)
        if len(parts) == 3:
            raise web.HTTPFound(f"/p/{parts[2]}/", headers=HEADERS)
        name = "/".join(parts[3:])
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, headers=HEADERS)
        if name == "ws":
            return await self._socket(request, key)
        if name == "background":
            if not self._may_see(key, request.remote or "?"):  # waiting to join
                return web.Response(status=404, headers=HEADERS)
            return await self._background(key)
        if name not in ASSETS:
            return web.Response(status=404, headers=HEADERS)
        return web.Response(
            body=self._assets[name], headers={**HEADERS, "Content-Type": ASSETS[name]}
        )

    async def _background(self, key: str) -> web.Response:
        """The map's background picture, only while this page's state shows it (the
        players may see it), read through io's one safe picture path; a page whose
        map is cut to what its character has seen gets the picture cut the same way
        (transparent elsewhere), on the Judge's machine, never the whole file."""
        page = self._pages.get(key)
        frame = self._frame
        bg = (page.state or {}).get("map", {}).get("bg") if page is not None else None
        if page is None or bg is None or frame is None or frame.map_path is None:
            return web.Response(status=404, headers=HEADERS)
        placed = frame.map.background
        mask = page.builder.cut_mask
        if placed is None or (mask is not None and self._cutter is None):
            return web.Response(status=404, headers=HEADERS)
        if page.picture is None or page.picture[0] != bg["v"]:
            whole = (str(frame.map_path), placed.model_dump_json())
            if self._picture is None or self._picture[0] != whole:
                try:
                    pic = checked_picture(frame.map_path, placed)
                except TwtwError as e:
                    log.warning("the background picture is not served: %s", e)
                    return web.Response(status=404, headers=HEADERS)
                self._picture = (whole, pic.data, f"image/{pic.format}")
            _w, data, kind = self._picture
            if mask is not None and self._cutter is not None:
                rings = hex_rings(frame.map, mask)
                try:
                    data = await asyncio.get_running_loop().run_in_executor(
                        None, self._cutter, data, placed, rings
                    )
                except ValueError as e:
                    log.warning("the background picture is not served: %s", e)
                    return web.Response(status=404, headers=HEADERS)
                kind = "image/png"
            page.picture = (bg["v"], data, kind)
        _v, data, kind = page.picture
        return web.Response(body=data, headers={**HEADERS, "Content-Type": kind})

    async def _socket(self, request: web.BaseRequest, key: str) -> web.StreamResponse:
        try:
            since = max(0, int(request.query.get("since", "0")))
        except ValueError:
            since = 0
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=4096)
        ws.headers["Server"] = SERVER_NAME
        if not ws.can_prepare(request).ok:  # not a WebSocket: it replaces none
            return web.Response(status=400, headers=HEADERS)
        address = request.remote or "?"
        waiting = not self._may_see(key, address)
        admitted, replaced = self._live.admit(key, address, ws, waiting)
        if not admitted:
            return web.Response(status=503, headers=HEADERS)
        for old in replaced:  # kept until done (the loop holds tasks weakly)
            task = asyncio.ensure_future(self._replace(old))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        try:
            await ws.prepare(request)
        except web.HTTPException as e:  # not a WebSocket handshake
            self._live.remove(ws)
            return web.Response(status=e.status, headers=HEADERS)
        self._conns.carries_socket(request.protocol)
        gate = None
        if waiting:
            gate = self._gates[ws] = asyncio.Event()
        self._devices_changed()
        q: asyncio.Queue[str] = asyncio.Queue()
        writer = asyncio.ensure_future(self._serve_page(ws, key, since, q, gate))
        try:
            async for msg in ws:  # requests; reading also notices the socket closing
                if msg.type == aiohttp.WSMsgType.TEXT and (gate is None or gate.is_set()):
                    self._message(key, str(msg.data))
        finally:
            self._page(key).queues.discard(q)
            self._gates.pop(ws, None)
            self._live.remove(ws)
            writer.cancel()
            self._devices_changed()
        return ws

    async def _serve_page(
        self,
        ws: web.WebSocketResponse,
        key: str,
        since: int,
        q: asyncio.Queue[str],
        gate: asyncio.Event | None,
    ) -> None:
        """Once let in (at once unless the Judge asks devices to join): the state, or
        what the page missed, then every update."""
        if gate is not None:
            await gate.wait()
        page = self._page(key)
        for m in page.catch_up(since):
            q.put_nowait(m)
        page.queues.add(q)
        await self._writer(ws, q)

    # -- requests ------------------------------------------------------------------------

    def _message(self, key: str, text: str) -> None:
        """A page's message (service's thread): a request is numbered and handed over,
        anything else refused at once."""
        self._requests += 1
        n = self._requests
        page = self._pages.get(key)
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        kind = next(iter(data), "") if isinstance(data, dict) and len(data) == 1 else ""
        if kind not in ("declare", "options"):
            self._answer(key, {"request": n, "status": "refused", "why": NOT_A_REQUEST})
            return
        if not self._buckets.setdefault(f"{kind}:{key}", _Bucket()).take():
            if kind == "options":
                return  # the page asks again with its next update
            self._answer(key, {"request": n, "status": "refused", "why": TOO_MANY})
            return
        if key == TABLE_PAGE or page is None or page.state is None or self.on_request is None:
            if kind == "declare":
                self._answer(key, {"request": n, "status": "refused", "why": NOBODY})
            return
        shown = page.state.get("tokens", {})
        aliases = {a: tid for tid, a in page.builder.aliases().items() if a in shown}
        named = frozenset(tid for a, tid in aliases.items() if "name" in shown[a])
        req = PlayerRequest(n, PageView(key, aliases, named), data[kind], kind)
        try:
            self.on_request(req)
        except Exception:  # the listener's failure never stops the service
            log.exception("a request could not be handed over")
            self._answer(key, {"request": n, "status": "refused", "why": NOBODY})

    def answer(self, key: str, reply: dict[str, Any]) -> None:
        """The table side's answer to one of page ``key``'s requests (any thread)."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._answer, key, reply)

    def _answer(self, key: str, reply: dict[str, Any]) -> None:
        page = self._pages.get(key)
        if page is None:
            return
        msg = _dumps(reply)
        for q in list(page.queues):
            q.put_nowait(msg)

    async def _replace(self, ws: web.WebSocketResponse) -> None:
        with contextlib.suppress(Exception):
            await ws.close(code=CLOSE_REPLACED, message=b"replaced")

    def _devices_changed(self) -> None:
        if self.on_devices is not None:
            try:
                self.on_devices()
            except Exception:  # a listener's failure never stops the service
                log.exception("the devices listener failed")

    async def _writer(self, ws: web.WebSocketResponse, q: asyncio.Queue[str]) -> None:
        with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
            while True:
                if q.qsize() > MAX_BACKLOG:
                    await ws.close(code=WSCloseCode.TRY_AGAIN_LATER)
                    return
                await ws.send_str(await q.get())
