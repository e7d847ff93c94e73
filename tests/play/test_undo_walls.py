"""Undo and redo keep the map's wall index unless the step changed a map feature:
rebuilding it took about 100 ms on a 200×200 map, and the sight record reads it after
every step, so every undo of a move cost that (``move_undo_200_tokens``: 84 ms); a
door opened and taken back must still block again."""

from __future__ import annotations

from twtw_desktop.play.actions import Place
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

JONAH = "token-jonah_benton"


def _table():
    return open_table(maps_dir() / "main_street.encounter.json").table


def test_undoing_a_move_keeps_the_wall_index() -> None:
    table = _table()
    walls = table.walls()
    col, row = table.map.offset(table.token(JONAH).at)
    table.apply(Place(who=JONAH, to=(col + 2, row + 1)))
    assert table.walls_if_built() is walls
    table.undo()
    assert table.walls_if_built() is walls
    table.redo()
    assert table.walls_if_built() is walls


def test_undoing_a_door_rebuilds_the_wall_index_as_it_was() -> None:
    table = _table()
    door = next(f for f in table.map.features if f.kind == "door")
    shut = door.is_open
    walls = table.walls()
    table.run("door", lambda: setattr(door, "is_open", not shut), ("map",))
    opened = table.walls()  # built again for the door (the sight record asks at once)
    assert opened is not walls and opened.feature(door.id).is_open is not shut
    table.undo()
    again = table.walls()
    assert again is not opened and again.feature(door.id).is_open is shut
    table.redo()
    assert table.walls().feature(door.id).is_open is not shut
