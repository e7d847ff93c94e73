"""``twtw-desktop serve ENCOUNTER [--host 127.0.0.1] [--port N] [--approve all|none]``:
the players' devices service for a saved encounter, without a window. Prints ``NAME
URL`` for each posse character (and ``Table URL`` for the table page), then serves
until Ctrl+C.

The players' requests (:mod:`twtw_desktop.play.player_requests`) are checked on this
command's main thread, which owns the table: with ``--approve all`` each legal one is
applied at once and the pages updated (tests and demos); by default (``none``) they
are held as waiting, and nothing a phone sends changes the table (there is no Judge
here to approve them). Nothing is saved."""

from __future__ import annotations

import argparse
import queue
import sys
import threading
from collections.abc import Callable

from ..errors import OneLineParser, TwtwError
from ..play.player_options import answer_options
from ..play.player_requests import RequestDesk
from ..play.session import open_table
from ..play.table import Table
from ..play.visibility import PlayersOptions
from .net import DEFAULT_PORT
from .server import DeviceService, PlayerRequest, ServiceError
from .state import FrameMaker, PictureCutter


def serve_request(
    table: Table,
    service: DeviceService,
    desk: RequestDesk,
    req: PlayerRequest,
    republish: Callable[[], None],
) -> None:
    """One page's request on the table's side (never the service's thread): its options
    answered, or its declaration checked by the desk and answered, the pages' state
    published again once it is applied."""
    if req.kind == "options":
        service.answer(req.view.character_id, answer_options(table, req.n, req.view, req.declare))
        return
    reply = desk.receive(table, req.n, req.view, req.declare)
    service.answer(req.view.character_id, reply)
    if reply["status"] == "approved":
        republish()


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="twtw-desktop serve",
        description="Serve each posse character's page (their map, sight and sheet) and the "
        "table page to browsers on the local network, for a saved encounter, until Ctrl+C.",
    )
    p.add_argument("file", help="an .encounter.json file")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    p.add_argument(
        "--hide-names",
        action="store_true",
        help='leave the names of tokens outside the posse off ("Name the hombres" off)',
    )
    p.add_argument(
        "--fog",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the table page shows the posse's line-of-sight fog, as the players' screen "
        "does (the default); --no-fog shows the whole public map and every NPC not hidden",
    )
    p.add_argument(
        "--approve",
        choices=("all", "none"),
        default="none",
        help="the players' requests from their pages: 'all' applies each legal one at once "
        "(no Judge; tests and demos), 'none' (the default) holds them as waiting",
    )
    return p


def main(
    argv: list[str], stop: threading.Event | None = None, cutter: PictureCutter | None = None
) -> int:
    """Run the service; ``stop`` (tests) ends it like Ctrl+C does; ``cutter`` cuts the
    background picture to what each character has seen (the command passes Qt's)."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if not 0 <= args.port <= 65535:
        print(f"twtw-desktop serve: --port {args.port} is not a port (0-65535)", file=sys.stderr)
        return 2
    try:
        opened = open_table(args.file)
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    options = PlayersOptions(names=not args.hide_names, fog=args.fog)
    maker = FrameMaker()
    table = opened.table
    map_path = opened.map_path or opened.path
    frame = maker(table, options, map_path=map_path)
    service = DeviceService(cutter)
    inbox: queue.SimpleQueue[PlayerRequest] = queue.SimpleQueue()
    service.on_request = inbox.put
    desk = RequestDesk(table.apply, approve_all=args.approve == "all")
    try:
        service.start(frame, args.host, args.port)
    except ServiceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        for a in service.addresses():
            print(f"{a.name} {a.url}", flush=True)
        print("Serving; Ctrl+C stops.", file=sys.stderr, flush=True)
        done = stop or threading.Event()
        while not done.is_set():
            try:
                req = inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            serve_request(
                table, service, desk, req,
                lambda: service.publish(maker(table, options, map_path=map_path)),
            )  # fmt: skip
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
    return 0
