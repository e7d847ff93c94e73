"""Adding, duplicating, removing and renaming characters: sheet and token together, one step each."""

from __future__ import annotations

from ....errors import RulesError
from ....hexgrid import Hex
from ....hexgrid.hex import hex_spiral
from ....model.encounter import Token
from ....model.map import Terrain
from ....rules.character import Character
from ...core.commands import (
    SnapshotCommand,
)
from .._common import USER_ERRORS, error_text
from .host import SheetHost


def _fill_templates(panel: SheetHost) -> None:
    panel.add_menu.clear()
    try:
        from ....rules.samples import sample_characters

        templates = sample_characters()
    except Exception as e:  # a broken samples file must not break the sheet
        act = panel.add_menu.addAction(f"(templates unavailable: {e})")
        act.setEnabled(False)
        templates = {}
    for tid, c in templates.items():
        act = panel.add_menu.addAction(f"{c.name} ({c.side})")
        act.triggered.connect(lambda _=False, t=tid: panel.add_character(t))


# -- characters and their tokens (snapshot commands) ------------------------------
def _free_hex(panel: SheetHost) -> Hex | None:
    doc = panel.document
    m = doc.map
    sel = doc.selected_token()
    start = sel.at if sel is not None else m.hex_at(m.cols // 2, m.rows // 2)
    for h in hex_spiral(start, max(m.cols, m.rows)):
        if not m.contains(h) or m.terrain_at(h) is Terrain.IMPASSABLE:
            continue
        if doc.encounter.token_at(h) is None:
            return h
    return None


def _next_free(base: str, taken: set[str], sep: str) -> str:
    """``base`` if it is not taken, else ``base`` with the first free number from 2."""
    if base not in taken:
        return base
    i = 2
    while f"{base}{sep}{i}" in taken:
        i += 1
    return f"{base}{sep}{i}"


def _unique_id(panel: SheetHost, base: str) -> str:
    return _next_free(base, {c.id for c in panel.document.encounter.characters}, "-")


def _unique_name(panel: SheetHost, base: str) -> str:
    return _next_free(base, {c.name for c in panel.document.encounter.characters}, " ")


def _insert(panel: SheetHost, c: Character, text: str) -> bool:
    doc = panel.document
    token_ids = {t.id for t in doc.encounter.tokens}

    def go() -> None:
        h = panel._free_hex()
        doc.encounter.characters.append(c)
        if h is not None:
            tid = f"t_{c.id}"
            while tid in token_ids:
                tid += "_"
            doc.encounter.tokens.append(Token(id=tid, character_id=c.id, hex=(h.q, h.r)))
        # the action-time engine reads the new sheet from its next round on
        update = getattr(doc.track, "update_characters", None) if doc.track else None
        if callable(update):
            update(doc.encounter.characters)
        doc.log(f"{c.name} joins the encounter.", "sheet")

    try:
        doc.push(SnapshotCommand(doc, text, go, {"characters", "tokens"}))
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return False
    panel.message.clear()
    tok = doc.token_for(c.id)
    panel.show_character(c.id)
    if tok is not None:
        doc.select(tok.id)
    return True


def add_character(panel: SheetHost, template_id: str) -> bool:
    """Add a fresh copy of an NPC template (one undoable step)."""
    from ....rules.samples import npc_template

    try:
        c = npc_template(template_id)
    except KeyError as e:
        panel.message.error(error_text(e))
        return False
    c.name = panel._unique_name(c.name)
    return panel._insert(c, f"Add {c.name}")


def duplicate_character(panel: SheetHost) -> bool:
    src = panel.character()
    if src is None:
        return False
    c = src.model_copy(deep=True)
    c.id = panel._unique_id(f"{src.id}-copy")
    c.name = panel._unique_name(src.name)
    return panel._insert(c, f"Duplicate {src.name}")


def remove_character(panel: SheetHost) -> bool:
    """Remove the shown character and its token (one undoable step)."""
    c = panel.character()
    if c is None:
        return False
    doc = panel.document
    if getattr(doc, "in_action", False):
        panel.message.error(
            "Characters cannot leave during action time; mark them dead or out of the "
            "scene instead, or return to narrative time first."
        )
        return False
    cid = c.id

    def go() -> None:
        enc = doc.encounter
        enc.characters[:] = [x for x in enc.characters if x.id != cid]
        enc.tokens[:] = [t for t in enc.tokens if t.character_id != cid]
        doc.log(f"{c.name} leaves the encounter.", "sheet")

    sel = doc.selected_token()
    if sel is not None and sel.character_id == cid:
        doc.select(None)
    try:
        doc.push(SnapshotCommand(doc, f"Remove {c.name}", go, {"characters", "tokens"}))
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return False
    chars = doc.encounter.characters
    panel.show_character(chars[0].id if chars else None)
    return True


def rename_id(panel: SheetHost, new_id: str) -> bool:
    """Change the sheet's id and every token pointing at it (one undoable step)."""
    c = panel.character()
    if c is None or panel._refreshing or new_id == c.id:
        return False
    doc = panel.document
    try:
        if not new_id:
            raise RulesError("An id cannot be empty.")
        if any(x.id == new_id for x in doc.encounter.characters):
            raise RulesError(f"Another character already has the id {new_id}.")
        if getattr(doc, "in_action", False):
            raise RulesError("Ids cannot change during action time (the track keys on them).")
    except RulesError as e:
        panel._refuse("Id", e, panel.id_edit)
        return False
    old = c.id

    def go() -> None:
        c.id = new_id
        for t in doc.encounter.tokens:
            if t.character_id == old:
                t.character_id = new_id

    doc.push(SnapshotCommand(doc, f"Rename {old} to {new_id}", go, {"characters", "tokens"}))
    panel._cid = new_id
    panel.refresh_list()
    panel.refresh()
    return True
