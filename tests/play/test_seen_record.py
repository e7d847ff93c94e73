"""The table's record of what each posse character has seen (issue 36): it grows with
every step, keeps a door's state as last seen, and a session recovered from its
journal rebuilds the same record (it is not journaled itself), whether or not pages
were read during the session."""

from __future__ import annotations

import shutil

import numpy as np

from twtw_desktop.hexgrid import Hex
from twtw_desktop.io.journal import journal_path
from twtw_desktop.play.actions import Place
from twtw_desktop.play.journal import Journal, pending_journal, replay
from twtw_desktop.play.seen import POSSE
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.web.state import TABLE_PAGE, FrameMaker, PageBuilder

HACIENDA = "laroq_hacienda"
JONAH = "token-jonah_benton"


def copy_hacienda(tmp_path):
    for f in maps_dir().glob(f"{HACIENDA}*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / f"{HACIENDA}.encounter.json"


def put(table, token: str, h: Hex) -> None:
    col, row = table.map.offset(h)
    table.apply(Place(who=token, to=(col + 1, row + 1)))


def play(table, frames: bool) -> None:
    """Jonah walks east, a door opens and closes by hand, one step is undone and
    redone; ``frames``: the pages are read after every step."""
    maker = FrameMaker()
    m = table.map
    col, row = m.offset(table.token(JONAH).at)
    door = next(f for f in m.features if f.kind == "door")
    for i in range(8):
        h = m.hex_at(col + i + 1, row - 1)
        if table.encounter.token_at(h) is None:
            put(table, JONAH, h)
        if i % 3 == 0:
            table.run("door", lambda: setattr(door, "is_open", not door.is_open), ("map",))
        if i == 4:
            table.undo()
            table.redo()
        if frames:
            frame = maker(table)
            for c in table.encounter.characters:
                if c.side == "posse":
                    PageBuilder(c.id).state(frame)


def record(table) -> dict:
    shape = (table.map.rows, table.map.cols)
    who = [c.id for c in table.encounter.characters if c.side == "posse"] + [POSSE]
    out = {}
    for w in who:
        s = table.sight.seen(w, shape)
        out[w] = (s.now.tobytes(), s.ever.tobytes(), sorted(s.doors.items()))
    return out


def pages(table) -> dict:
    frame = FrameMaker()(table)
    keys = [c.id for c in table.encounter.characters if c.side == "posse"] + [TABLE_PAGE]
    return {k: PageBuilder(k).state(frame) for k in keys}


def test_the_record_grows_and_a_recovered_session_rebuilds_it(tmp_path):
    path = copy_hacienda(tmp_path)
    for frames in (True, False):
        table = open_table(path).table
        journal = Journal(table, journal_path(path), path)
        start = table.sight.seen("jonah_benton", (table.map.rows, table.map.cols)).ever.sum()
        play(table, frames)
        expected, shown = record(table), pages(table)
        ever = np.frombuffer(expected["jonah_benton"][1], dtype=bool)
        assert ever.sum() > start  # he saw more as he walked
        journal.close()  # the app is killed here
        pending = pending_journal(path)
        assert pending is not None and pending.matches
        fresh = open_table(path).table
        assert replay(fresh, pending.lines).stopped is None
        assert record(fresh) == expected, frames
        assert pages(fresh) == shown, frames
        journal_path(path).unlink()
