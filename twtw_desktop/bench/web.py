"""The players' devices in the project benchmark (section ``web``; no Qt) and the
loopback run the load test shares.

* ``devices_step_to_page``: the Judge's step (an action applied to the table, its
  frame handed to the service) until the page's update has arrived at each of six
  devices over loopback — the 95th percentile; the bytes per update ride along.
  ``devices_step_to_page_hacienda``: the same on the Laroq hacienda (1,200 hexes,
  92 walls), where the pages are cut to what each character has seen, Jonah put on
  a new hex across the map every step (his sight worked out and his page's map cut
  again each time: the worst case).
* ``devices_frame_cost``: copying the table into a frame (the pages are built, and the
  messages sent, on the service's thread); its baseline is the step itself.
* ``devices_judge_thread`` (Main Street) and ``devices_judge_thread_hacienda``: all
  the work a step adds on the Judge's thread for the pages — the table's record of
  what each character has seen (a posse member walks to a new hex every step, so its
  sight is worked out each time) and the frame — as the step with both, less the
  step with neither (the record switched off).
* ``devices_request_to_table`` and ``devices_approval_to_phone`` (issue 39): six
  pages open on Main Street, Hank's page asks to turn; from its send until the
  table's side has the request (it crosses from the service's thread to the table's,
  as to the window's thread), and from the Judge's approval (applied, answered, the
  frame published) until the phone hears "approved" — the 95th percentile of each.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from ..play.action_base import ref_of
from ..play.actions import Place
from ..play.fog import SIGHT_CACHE_SIZE
from ..play.player_requests import RequestDesk
from ..play.seen import SightRecord
from ..play.session import open_table
from ..play.table import Table
from ..resources import maps_dir
from ..web.server import DeviceService, PlayerRequest
from ..web.state import TABLE_PAGE, FrameMaker, apply_patch
from . import BenchContext, Measured, figure

SAMPLE = "main_street.encounter.json"
MOVER = "token-hank_daggett"
HACIENDA = "laroq_hacienda.encounter.json"
HACIENDA_MOVER = "token-jonah_benton"
#: seconds a device waits for one update before counting it lost
UPDATE_WAIT = 10.0


@dataclass
class LoopbackRun:
    """What :func:`loopback_run` saw: per device and step, the seconds from the step
    to the update's arrival; the size of each update; updates lost or out of order;
    whether each device's state, patched step by step, ended equal to a fresh one."""

    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    lost: int = 0
    out_of_order: int = 0
    updates: int = 0
    final_ok: bool = False

    def p95(self) -> float:
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else float("nan")


def loopback_run(
    steps: int, devices: int = 6, sample: str = SAMPLE, mover: str = MOVER, walk: bool = False
) -> LoopbackRun:
    """The sample served on loopback with ``devices`` pages open (each posse
    character's, then the table page for the rest), ``steps`` Place actions of
    ``mover`` applied one after another, each update awaited on every device
    (bounded waits). ``mover`` steps back and forth between two hexes, or with
    ``walk`` to a new hex across the map every step (its sight worked out anew and
    its page's map cut again each time)."""
    table = open_table(maps_dir() / sample).table
    maker = FrameMaker()
    svc = DeviceService()
    svc.start(maker(table), "127.0.0.1", 0)
    out = LoopbackRun()
    try:
        asyncio.run(_run(svc, maker, table, steps, devices, out, mover, walk))
    finally:
        svc.stop()
    return out


async def _run(
    svc: DeviceService,
    maker: FrameMaker,
    table: Table,
    steps: int,
    devices: int,
    out: LoopbackRun,
    mover: str = MOVER,
    walk: bool = False,
) -> None:
    addrs = svc.addresses()
    posse = [a.url for a in addrs if a.key != TABLE_PAGE]
    table_url = next(a.url for a in addrs if a.key == TABLE_PAGE)
    urls = (posse + [table_url] * devices)[:devices]
    m = table.map
    start = table.token(mover).at
    near = next(
        h for h in start.neighbors() if m.contains(h) and table.encounter.token_at(h) is None
    )
    flip = _walk(table, mover, steps) if walk else [ref_of(table, start), ref_of(table, near)]
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(u + "ws") for u in urls]
        states, seqs = [], []
        for ws in sockets:
            first = json.loads((await asyncio.wait_for(ws.receive(), UPDATE_WAIT)).data)
            states.append(first["full"])
            seqs.append(first["seq"])
        for i in range(steps):
            t0 = time.perf_counter()
            table.apply(Place(who=mover, to=flip[(i + 1) % len(flip)]))
            svc.publish(maker(table))
            for k, ws in enumerate(sockets):
                try:
                    msg = await asyncio.wait_for(ws.receive(), UPDATE_WAIT)
                except TimeoutError:
                    out.lost += 1
                    continue
                out.latencies.append(time.perf_counter() - t0)
                out.sizes.append(len(msg.data.encode()))
                data = json.loads(msg.data)
                out.updates += 1
                if data["seq"] != seqs[k] + 1:
                    out.out_of_order += 1
                seqs[k] = data["seq"]
                states[k] = (
                    data["full"] if "full" in data else apply_patch(states[k], data["patch"])
                )
        fresh = []
        for u in urls:
            async with session.ws_connect(u + "ws") as ws:
                fresh.append(json.loads((await asyncio.wait_for(ws.receive(), UPDATE_WAIT)).data))
        out.final_ok = all(
            f["full"] == s and f["seq"] == q for f, s, q in zip(fresh, states, seqs, strict=True)
        )
        for ws in sockets:
            await ws.close()


@figure(
    "devices_step_to_page", "a step until its update reached 6 devices over loopback (p95)",
    section="web", target_s=0.150, size="6 pages",
)  # fmt: skip
def devices_step_to_page(ctx: BenchContext) -> Measured:
    return _step_to_page(ctx, SAMPLE, MOVER)


@figure(
    "devices_step_to_page_hacienda",
    "a step until its update reached 6 devices over loopback, Laroq hacienda (p95)",
    section="web", target_s=0.150, size="6 pages",
)  # fmt: skip
def devices_step_to_page_hacienda(ctx: BenchContext) -> Measured:
    return _step_to_page(ctx, HACIENDA, HACIENDA_MOVER, walk=True)


def _step_to_page(ctx: BenchContext, sample: str, mover: str, walk: bool = False) -> Measured:
    steps = 30 if ctx.quick else 200
    run = loopback_run(steps, sample=sample, mover=mover, walk=walk)
    failed = ""
    if run.lost or run.out_of_order or not run.final_ok:
        failed = f"{run.lost} lost, {run.out_of_order} out of order, final state ok={run.final_ok}"
    mean_bytes = statistics.fmean(run.sizes) if run.sizes else 0.0
    return Measured(
        run.p95(),
        note=f"{steps} steps; {mean_bytes:.0f} bytes per update (mean), "
        f"{max(run.sizes, default=0)} at most",
        extra={
            "bytes_per_update_mean": mean_bytes,
            "bytes_per_update_max": max(run.sizes, default=0),
        },
        failed=failed,
    )


@figure(
    "devices_frame_cost", "a step's added work on the Judge's thread with the pages served",
    section="web", target_s=0.010, ratio_kind="overhead", size="sample",
)  # fmt: skip
def devices_frame_cost(ctx: BenchContext) -> Measured:
    table = open_table(maps_dir() / SAMPLE).table
    maker = FrameMaker()
    maker(table)
    start = table.token(MOVER).at
    flip = [0]

    def step() -> None:
        flip[0] ^= 1
        table.apply(Place(who=MOVER, to=(start.q + flip[0], start.r)))

    frame = ctx.measure(lambda: maker(table))
    base = ctx.measure(step)
    return Measured(frame, baseline_s=base, note="frame copy; baseline: the step itself")


class _NoRecord(SightRecord):
    """The table's sight record switched off (the baseline of the Judge-thread
    figures)."""

    def look(self, table: Any) -> None:
        return None


def _walk(table: Table, mover: str, hexes: int) -> list[tuple[int, int]]:
    """``hexes`` free hexes (as the map labels them) for ``mover`` to walk through,
    more than the record's sight cache keeps, so every step's sight is worked out."""
    m = table.map
    out = []
    for row in range(m.rows):
        for col in range(m.cols):
            h = m.hex_at(col, row)
            t = table.encounter.token_at(h)
            if t is None or t.id == mover:
                out.append((col + 1, row + 1))
    step = max(1, len(out) // hexes)
    return out[::step][:hexes]


def _judge_thread(ctx: BenchContext, sample: str, mover: str) -> Measured:
    table = open_table(maps_dir() / sample).table
    maker = FrameMaker()
    maker(table)
    walk = _walk(table, mover, SIGHT_CACHE_SIZE * 2)
    at = [0]

    def step() -> None:
        at[0] = (at[0] + 1) % len(walk)
        table.apply(Place(who=mover, to=walk[at[0]]))

    def step_and_frame() -> None:
        step()
        maker(table)

    both = ctx.measure(step_and_frame)
    table.sight = _NoRecord()
    bare = ctx.measure(step)
    return Measured(
        max(0.0, both - bare),
        note=f"sight record + frame per step (a posse member to a new hex); "
        f"the bare step: {bare * 1e3:.2f} ms",
        extra={"bare_step_s": bare},
    )


@figure(
    "devices_judge_thread", "a step's added work on the Judge's thread for the pages",
    section="web", target_s=0.010, size="Main Street",
)  # fmt: skip
def devices_judge_thread(ctx: BenchContext) -> Measured:
    return _judge_thread(ctx, SAMPLE, MOVER)


@figure(
    "devices_judge_thread_hacienda",
    "a step's added work on the Judge's thread for the pages, Laroq hacienda",
    section="web", target_s=0.010, size="Laroq hacienda",
)  # fmt: skip
def devices_judge_thread_hacienda(ctx: BenchContext) -> Measured:
    return _judge_thread(ctx, HACIENDA, HACIENDA_MOVER)


@dataclass
class RequestRun:
    """What :func:`request_run` saw: per request, the seconds from the page's send to
    the table's side taking it, and from the Judge's approval to the page hearing it."""

    to_table: list[float] = field(default_factory=list)
    to_phone: list[float] = field(default_factory=list)
    lost: int = 0


def _p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))] if s else float("nan")


def request_run(steps: int, devices: int = 6) -> RequestRun:
    """Main Street served on loopback with ``devices`` pages open; Hank's page asks
    ``steps`` times to turn; the table's side (this thread, as the window's thread:
    the request crosses from the service's thread) takes each request, holds it, then
    approves it and publishes the new frame."""
    table = open_table(maps_dir() / SAMPLE).table
    maker = FrameMaker()
    svc = DeviceService()
    svc.start(maker(table), "127.0.0.1", 0)
    out = RequestRun()
    try:
        asyncio.run(_requests(svc, maker, table, steps, devices, out))
    finally:
        svc.stop()
    return out


async def _requests(
    svc: DeviceService, maker: FrameMaker, table: Table, steps: int, devices: int, out: RequestRun
) -> None:
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[PlayerRequest, float]] = asyncio.Queue()

    def hand_over(req: PlayerRequest) -> None:  # the service's thread
        loop.call_soon_threadsafe(lambda: inbox.put_nowait((req, time.perf_counter())))

    svc.on_request = hand_over
    desk = RequestDesk(table.apply)
    addrs = svc.addresses()
    hank = next(a.url for a in addrs if a.key == MOVER.removeprefix("token-"))
    others = [a.url for a in addrs if a.url != hank]
    urls = [hank, *(others * devices)][:devices]
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(u + "ws") for u in urls]
        for ws in sockets:
            await asyncio.wait_for(ws.receive(), UPDATE_WAIT)
        drains = [asyncio.ensure_future(_drain(ws)) for ws in sockets[1:]]
        phone = sockets[0]
        for i in range(steps):
            t0 = time.perf_counter()
            await phone.send_str(json.dumps({"declare": {"do": "face", "facing": i % 6}}))
            try:
                req, arrived = await asyncio.wait_for(inbox.get(), UPDATE_WAIT)
            except TimeoutError:
                out.lost += 1
                continue
            out.to_table.append(arrived - t0)
            reply = desk.receive(table, req.n, req.view, req.declare)
            svc.answer(req.view.character_id, reply)
            if not await _answered(phone, req.n, "waiting"):
                out.lost += 1
                continue
            t1 = time.perf_counter()
            reply2 = desk.approve(table, req.n)
            if reply2 is None:
                out.lost += 1
                continue
            svc.answer(req.view.character_id, reply2)
            svc.publish(maker(table))
            if await _answered(phone, req.n, reply2["status"]):
                out.to_phone.append(time.perf_counter() - t1)
            else:
                out.lost += 1
            await asyncio.sleep(0.26)  # a person's pace: the page's request rate is kept
        for d in drains:
            d.cancel()
        for ws in sockets:
            await ws.close()


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    while True:
        msg = await ws.receive()
        if msg.type != aiohttp.WSMsgType.TEXT:
            return


async def _answered(ws: aiohttp.ClientWebSocketResponse, n: int, status: str) -> bool:
    """Read the page's messages until request ``n``'s answer (bounded)."""
    while True:
        try:
            msg = await asyncio.wait_for(ws.receive(), UPDATE_WAIT)
        except TimeoutError:
            return False
        if msg.type != aiohttp.WSMsgType.TEXT:
            return False
        data = json.loads(msg.data)
        if data.get("request") == n:
            return bool(data.get("status") == status)


@figure(
    "devices_request_to_table",
    "a phone's request until the table's side has it, 6 devices connected (p95)",
    section="web", target_s=0.100, size="6 pages",
)  # fmt: skip
def devices_request_to_table(ctx: BenchContext) -> Measured:
    run = request_run(10 if ctx.quick else 40)
    return Measured(
        _p95(run.to_table),
        note=f"{len(run.to_table)} requests",
        failed=f"{run.lost} lost" if run.lost else "",
    )


@figure(
    "devices_approval_to_phone",
    "the Judge's approval until the phone hears it, 6 devices connected (p95)",
    section="web", target_s=0.150, size="6 pages",
)  # fmt: skip
def devices_approval_to_phone(ctx: BenchContext) -> Measured:
    run = request_run(10 if ctx.quick else 40)
    return Measured(
        _p95(run.to_phone),
        note=f"{len(run.to_phone)} approvals (each applied, then its answer and the update sent)",
        failed=f"{run.lost} lost" if run.lost else "",
    )
