"""What each page of the players' devices shows, as plain JSON, built on the Judge's
machine through the players' visibility rule (:mod:`twtw_desktop.play.visibility`).

* :class:`FrameMaker` takes, on the thread that owns the table (the GUI thread, or the
  ``serve`` command's main thread), a frozen copy of what the pages need: the
  encounter's characters and tokens, the map (copied again only when it changed),
  a mark in the table's record of what each posse character has seen
  (:class:`~twtw_desktop.play.seen.SightRecord`), the clock's public words, the last
  card pushed and the hex the Judge rings (a ping, or "show this" on a hex).
  Everything after that runs on the service's own thread.
* :class:`PageBuilder` turns a frame into one page's state: a **character page**
  shows the map as that character sees it (its own sight, not the posse's:
  :func:`~twtw_desktop.play.visibility.character_sight`), and **holds only the hexes
  it has seen this session** (issue 36): their terrain, the walls clipped to them,
  doors and windows in the state it last saw, their public labels and markers, and
  the background picture cut to them (by the service's cutter; no cutter, no
  picture); of the other hexes not a byte. Hexes seen before are dimmed. Its own
  token is marked, and its sheet is there. The **table page** shows what the
  players' screen shows (:func:`~twtw_desktop.play.visibility.players_sight`); with
  the fog on it is cut the same way to what the posse has seen.
  Nothing the rule does not allow is put in a state: a hidden token, a Judge's note,
  a Judge-only label or marker, a name with "Name the hombres" off, an NPC's sheet.
  Tokens are named by per-page aliases (``t1``, ``t2``…), never by their ids, which
  often carry a name; with names hidden, a figure back in sight gets a new alias.
  A change that alters nothing a page shows sends it nothing (the merge patch is
  empty).
  The Judge's pushes that make sense on a phone show on every page: the last card
  (number and shield) and a ringed hex; a ring on a hex where a token this page does
  not see stands is dropped unless it is a ping (a ping rings a hex, never a token).
  Cover lines, scatter clocks and covered areas stay on the table's screen.
* :func:`merge_patch` is the change from one state to the next (RFC 7386 JSON merge
  patch: ``null`` deletes), which is what goes over the wire after the first state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..geometry.hexcut import clip_polyline, point_in, region
from ..hexgrid import Hex
from ..model import Encounter
from ..model.map import TERRAIN_CODES, BackgroundImage, Map, Terrain
from ..play.fog import REMEMBERED, SEEN
from ..play.public_clock import public_clock
from ..play.seen import POSSE, STATEFUL, Mark, Seen, SightRecord
from ..play.visibility import (
    POSSE_SIDE,
    FogKnowledge,
    PlayersOptions,
    PlayersSight,
    character_sight,
    players_sight,
    push_allowed,
)
from ..rules.base import WoundLocation
from ..rules.card import Card
from ..rules.character import Character

if TYPE_CHECKING:
    from ..play.table import Table

#: the page that shows what the players' screen shows
TABLE_PAGE = "table"

#: terrain colours on the pages (the window's own palette lives in ui/, out of reach)
TERRAIN_COLOURS: dict[Terrain, str] = {
    Terrain.OPEN: "#e9dcc0",
    Terrain.ROUGH: "#cdb98f",
    Terrain.STEEP: "#b99a6b",
    Terrain.GENTLE: "#d8c59c",
    Terrain.STAIRS: "#c8b48a",
    Terrain.LADDER: "#b8a27a",
    Terrain.CLIMB: "#9c8259",
    Terrain.WATER: "#8fb4cf",
    Terrain.IMPASSABLE: "#5d5248",
}
WOUND_WORDS = {
    WoundLocation.HEAD: "Head",
    WoundLocation.TORSO: "Torso",
    WoundLocation.LEFT_ARM: "Left arm",
    WoundLocation.RIGHT_ARM: "Right arm",
    WoundLocation.LEFT_LEG: "Left leg",
    WoundLocation.RIGHT_LEG: "Right leg",
}


@dataclass(frozen=True)
class Frame:
    """A frozen copy of the table for the service thread (see the module docstring)."""

    encounter: Any
    map: Map
    #: bumps when the map (walls, labels, markers, terrain) changed
    map_version: int
    #: the table's record of what each posse character has seen
    #: (:class:`~twtw_desktop.play.seen.SightRecord`) and this frame's mark in it
    sight: SightRecord
    mark: Mark
    edition: Any
    gear: Any
    options: PlayersOptions
    #: ``character id -> {"round_ap", "counters", "spent", "status", ...}`` and the
    #: round/segment headline, from the clock (plain data)
    clock: str
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the last card the Judge pushed to the players (number and shield), or None
    card: dict[str, int] | None = None
    #: the file the map's background picture path is relative to (None: no file)
    map_path: Path | None = None
    #: the hex the Judge rings now: (push kind "ping" or "focus", q, r), or None
    ring: tuple[str, int, int] | None = None


#: cuts the background picture (the file's bytes, its placement, the polygons of the
#: hexes to keep, map units) to a PNG (the window's is Qt's: ui/picture_cut.py)
PictureCutter = Callable[[bytes, BackgroundImage, list[list[tuple[float, float]]]], bytes]


def _frame_seen(frame: Frame, who: str) -> Seen:
    """What ``who`` (a character id, or the posse) had seen at ``frame``'s moment."""
    m = frame.map
    return frame.sight.seen(who, (m.rows, m.cols), frame.mark)


def _value(v: object) -> str:
    return str(getattr(v, "value", v))


class FrameMaker:
    """Makes frames of one table on its owner's thread, copying the map and the
    walls only when they changed."""

    def __init__(self) -> None:
        self._map: Map | None = None
        self._map_src: tuple | None = None
        self.map_version = 0

    def __call__(
        self,
        table: Table,
        options: PlayersOptions | None = None,
        *,
        map_changed: bool = False,
        card: Card | None = None,
        map_path: Path | None = None,
        ring: tuple[str, int, int] | None = None,
    ) -> Frame:
        """A frame of ``table``; ``map_path`` is the map's file (or the encounter's
        when the map is inside it), which the background picture is relative to."""
        m = table.map
        table.sight.look(table)  # a change made outside a step (the editor) counts now
        walls = table.walls()
        # a door opened or a wall moved gives a new wall index or bumps its version; the
        # window also says ``map_changed`` for edits the index does not see (a label
        # moved). The map and the index are held, not their ids (an id is reused once
        # its object is gone).
        key = (m.rows, m.cols, m.orientation, len(m.features), len(m.labels),
               len(m.markers), walls.version)  # fmt: skip
        src = self._map_src
        if (
            map_changed
            or self._map is None
            or src is None
            or src[0] is not m
            or src[1] is not walls
            or src[2] != key
        ):
            self._map = m.model_copy(deep=True)
            self._map_src = (m, walls, key)
            self.map_version += 1
        enc = table.encounter.model_copy(update={"map": None, "log": []}).model_copy(deep=True)
        head, rows = public_clock(table)
        return Frame(
            encounter=enc,
            map=self._map,
            map_version=self.map_version,
            sight=table.sight,
            mark=table.sight.mark(),
            edition=table.edition,
            gear=table.gear,
            options=options or PlayersOptions(),
            clock=head,
            rows=rows,
            card=None if card is None else {"n": int(card.number), "shield": int(card.shield)},
            map_path=map_path if map_path is not None else table.source,
            ring=None if ring is None else (str(ring[0]), int(ring[1]), int(ring[2])),
        )


# -- the states --------------------------------------------------------------------------


def map_state(
    m: Map, sight: PlayersSight, cut: Seen | None = None, pictures: bool = False
) -> dict[str, Any]:
    """The public part of the map: terrain, the walls and labels and markers the
    rule shows (no ids, no notes), and where the background picture lies when the
    players may see it (the picture itself is a file of the page, ``background``;
    ``v`` changes with the picture's placement so a browser asks for it again).

    ``cut`` (a character's page, or the table page with the fog on) keeps only the
    hexes seen this session (``cut.ever``): the terrain of the others is a blank
    (``" "``), walls are clipped to the seen hexes, a door or window shows its state
    as last seen (one never seen in sight is left out), a label or marker shows only
    on a seen hex, and the background picture is described only when the service
    can cut it to those hexes (``pictures``): ``v`` then changes as they grow."""
    codes = {code: TERRAIN_COLOURS[t] for t, code in TERRAIN_CODES.items()}
    area = None if cut is None else region(m, cut.ever)
    walls: list[list[Any]] = []
    for f in m.features:
        if f.id not in sight.features:
            continue
        is_open = bool(f.is_open)
        if cut is None:
            pieces = [[(float(x), float(y)) for x, y in f.points]]
        else:
            if f.kind in STATEFUL:
                if f.id not in cut.doors:
                    continue
                is_open = cut.doors[f.id]
            pieces = clip_polyline(area, f.points)
        for pts in pieces:
            walls.append(
                [
                    f.kind,
                    int(is_open),
                    _value(f.height),
                    [[round(x, 4), round(y, 4)] for x, y in pts],
                ]
            )
    labels = [
        [round(lab.at[0], 4), round(lab.at[1], 4), lab.text, lab.size]
        for lab in m.labels
        if lab.id in sight.labels and (cut is None or point_in(m, cut.ever, *lab.at))
    ]
    markers = [
        [int(mk.hex[0]), int(mk.hex[1]), mk.kind, mk.text]
        for mk in m.markers
        if mk.id in sight.markers and (cut is None or _on(m, cut.ever, mk.hex))
    ]
    terrain = list(m.terrain)
    if cut is not None:
        grid = np.array([list(row) for row in terrain], dtype="<U1").reshape(m.rows, m.cols)
        grid[~cut.ever] = " "
        terrain = ["".join(row) for row in grid.tolist()]
    out: dict[str, Any] = {
        "cols": m.cols,
        "rows": m.rows,
        "orient": m.orientation.value,
        "terrain": terrain,
        "colours": codes,
        "walls": walls,
        "labels": labels,
        "markers": markers,
    }
    bg = m.background
    if bg is not None and sight.background and (cut is None or (pictures and cut.ever.any())):
        place = {
            "x": bg.x,
            "y": bg.y,
            "w": bg.width * bg.scale,
            "h": bg.height * bg.scale,
            "rot": bg.rotation,
            "op": bg.opacity,
        }
        digest = hashlib.blake2b(repr((bg.path, sorted(place.items()))).encode(), digest_size=6)
        if cut is not None:
            digest.update(cut.ever.tobytes())
        out["bg"] = {**place, "v": digest.hexdigest()}
    return out


def _on(m: Map, mask: np.ndarray, h: Any) -> bool:
    col, row = m.offset(Hex(int(h[0]), int(h[1])))
    return 0 <= row < mask.shape[0] and 0 <= col < mask.shape[1] and bool(mask[row, col])


def fog_states(cut: Seen) -> np.ndarray:
    """Every hex as 0 never seen, 1 remembered, 2 seen now (``(rows, cols)``)."""
    out = np.zeros(cut.ever.shape, dtype=np.uint8)
    out[cut.ever] = REMEMBERED
    out[cut.now] = SEEN
    return out


def fog_runs(states: np.ndarray) -> list[int]:
    """Fog states (0 never seen, 1 remembered, 2 seen), row by row, as runs
    ``[state, count, state, count, …]``."""
    flat = states.ravel()
    if flat.size == 0:
        return []
    cut = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    starts = np.concatenate(([0], cut))
    ends = np.concatenate((cut, [flat.size]))
    out: list[int] = []
    for s, e in zip(starts, ends, strict=True):
        out += [int(flat[s]), int(e - s)]
    return out


def initials(name: str) -> str:
    parts = [p for p in name.replace("(", " ").replace(")", " ").split() if p]
    return "".join(p[0] for p in parts[:2]).upper() or "?"


def sheet_state(frame: Frame, ch: Character) -> dict[str, Any]:
    """One posse character's sheet, as the player keeps it."""
    ed = frame.edition
    weapons = []
    for w in ch.weapons:
        try:
            g = frame.gear.weapon(w.weapon_id)
            name = g.name
        except (KeyError, ValueError):
            name = w.weapon_id
        entry: dict[str, Any] = {
            "name": name,
            "loaded": int(w.loaded),
            "cocked": bool(w.cocked),
            "readied": bool(w.readied),
        }
        if w.hand:
            entry["hand"] = w.hand
        if w.failure:
            entry["failure"] = w.failure
        weapons.append(entry)
    sheet: dict[str, Any] = {
        "name": ch.name,
        "wounds": [[WOUND_WORDS[loc], int(ch.wounds.get(loc, 0))] for loc in WoundLocation],
        "level": ch.wound_level_name(ed),
        "conc": [int(ch.conc), int(ch.conc_max)],
        "stunned": bool(ch.stunned),
        "concussed": bool(ch.concussed),
        "unconscious": bool(ch.unconscious),
        "dead": bool(ch.dead),
        "ap": int(ch.ap),
        "posture": _value(ch.posture),
        "weapons": weapons,
        "skills": [[k, int(v.level), v.trait] for k, v in sorted(ch.skills.items())],
    }
    row = frame.rows.get(ch.id)
    if row:
        sheet["track"] = dict(row)
    return sheet


class PageBuilder:
    """Builds the states of one page, frame after frame, from the table's record of
    what its character has seen (:class:`~twtw_desktop.play.seen.SightRecord`), with
    its own token aliases.

    With names hidden, a token outside the posse that leaves this page's sight and
    comes back gets a new alias: the page cannot tell it is the same figure."""

    def __init__(self, page: str, pictures: bool = False) -> None:
        #: a posse character's id, or :data:`TABLE_PAGE`
        self.page = page
        #: whether the background picture can be cut to what this page has seen
        self.pictures = pictures
        #: the hexes the page's map was last cut to (None: not cut), for its picture
        self.cut_mask: np.ndarray | None = None
        self._aliases: dict[str, str] = {}
        self._made = 0
        self._shown: frozenset[str] = frozenset()
        self._map_key: tuple | None = None
        self._map: dict[str, Any] = {}

    def aliases(self) -> dict[str, str]:
        """Token id -> its alias on this page (a copy)."""
        return dict(self._aliases)

    def alias(self, token_id: str) -> str:
        a = self._aliases.get(token_id)
        if a is None:
            self._made += 1
            a = self._aliases[token_id] = f"t{self._made}"
        return a

    def _cut(self, frame: Frame) -> Seen | None:
        """What this page's map is cut to (None: the whole public map)."""
        if self.page == TABLE_PAGE:
            if not frame.options.fog:
                return None
            who = POSSE
        else:
            who = self.page
        return _frame_seen(frame, who)

    def state(self, frame: Frame) -> dict[str, Any]:
        enc, m, opts = frame.encounter, frame.map, frame.options
        shape = (m.rows, m.cols)
        out: dict[str, Any] = {"clock": frame.clock}
        cut = self._cut(frame)
        know = None if cut is None else FogKnowledge(shape, seen=cut.now)
        if cut is not None:
            out["fog"] = fog_runs(fog_states(cut))
        if self.page == TABLE_PAGE:
            sight = players_sight(enc, m, opts, know)
            out["kind"] = "table"
            out["title"] = "Table"  # not the encounter's name: the Judge may name it a spoiler
            me = None
        else:
            sight = character_sight(enc, m, opts, know)
            me = enc.character(self.page)
            out["kind"] = "character"
            out["title"] = me.name
            out["sheet"] = sheet_state(frame, me)
        key: tuple = (
            frame.map_version, sight.features, sight.labels, sight.markers, sight.background
        )  # fmt: skip
        if cut is not None:
            key += (cut.ever.tobytes(), tuple(sorted(cut.doors.items())))
        if key != self._map_key:  # the same map: the same object (the patch skips it)
            self._map_key, self._map = key, map_state(m, sight, cut, self.pictures)
            self.cut_mask = None if cut is None else cut.ever
        out["map"] = self._map
        out["tokens"] = self._tokens(frame, sight, me)
        if self.page == TABLE_PAGE:
            out["strip"] = self._strip(frame, sight)
        if frame.card is not None:
            out["card"] = dict(frame.card)
        if frame.ring is not None:
            kind, q, r = frame.ring
            if m.contains(Hex(q, r)) and push_allowed(kind, Hex(q, r), enc, sight):
                out["ring"] = [q, r]
        return out

    def _tokens(self, frame: Frame, sight: PlayersSight, me: Character | None) -> dict[str, Any]:
        enc = frame.encounter
        out: dict[str, Any] = {}
        for t in enc.tokens:
            if t.id not in sight.tokens:
                continue
            marks = sight.marks.get(t.id)
            if marks is not None and not marks.named and t.id not in self._shown:
                self._aliases.pop(t.id, None)  # back in sight, unnamed: a new figure

            try:
                ch = enc.character(t.character_id)
            except KeyError:
                ch = None
            side = ch.side if ch is not None else "neutral"
            tok: dict[str, Any] = {
                "q": t.at.q,
                "r": t.at.r,
                "f": int(t.facing),
                "side": side,
                "posture": _value(t.posture),
            }
            if ch is not None and (marks is None or marks.named):
                tok["name"] = ch.name
                tok["ini"] = initials(ch.name)
            if t.mounted:
                tok["mounted"] = 1
            if me is not None and ch is not None and ch.id == me.id:
                tok["me"] = 1
            if marks is not None:
                for k in ("out", "stunned", "concussed", "dead"):
                    if getattr(marks, k):
                        tok[k] = 1
                if marks.wound_level:
                    tok["wl"] = int(marks.wound_level)
            out[self.alias(t.id)] = tok
        self._shown = sight.tokens
        return out

    def _strip(self, frame: Frame, sight: PlayersSight) -> list[list[str]]:
        """The posse members the players see, with their public row on the track."""
        enc = frame.encounter
        shown = {enc.token(t).character_id for t in sight.tokens}
        on_map = {t.character_id for t in enc.tokens}
        out = []
        for c in enc.characters:
            if c.side != POSSE_SIDE or (c.id not in shown and c.id in on_map):
                continue
            row = frame.rows.get(c.id)
            if not row:
                continue
            if "counters" in row:
                text = f"{row['counters']} counters"
                if "from" in row:
                    text = f"from segment {row['from']}"
            else:
                text = " · ".join(x for x in (row.get("speed"), row.get("phase")) if x) or "—"
            if row.get("status") in ("stunned", "surprised", "out"):
                text = row["status"]
            out.append([c.name, text])
        return out


def merge_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The RFC 7386 merge patch taking ``old`` to ``new`` (``None`` deletes a key;
    the states never hold ``None`` themselves). Lists are replaced whole."""
    patch: dict[str, Any] = {}
    for k in old:
        if k not in new:
            patch[k] = None
    for k, v in new.items():
        if k not in old:
            patch[k] = v
        elif old[k] is not v and old[k] != v:
            o = old[k]
            patch[k] = merge_patch(o, v) if isinstance(o, dict) and isinstance(v, dict) else v
    return patch


def apply_patch(state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``state`` with ``patch`` applied (what the page's script does; tests)."""
    out = dict(state)
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = apply_patch(out[k], v)
        else:
            out[k] = v
    return out


def posse_pages(encounter: Encounter) -> list[tuple[str, str]]:
    """``(character id, name)`` of every posse character: one page each."""
    return [(c.id, c.name) for c in encounter.characters if c.side == POSSE_SIDE]


__all__ = [
    "TABLE_PAGE",
    "Frame",
    "FrameMaker",
    "PageBuilder",
    "PictureCutter",
    "apply_patch",
    "merge_patch",
    "posse_pages",
]
