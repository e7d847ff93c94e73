"""Rows and tokens light each other up: hovering a row lights its token on the map, hovering or selecting a token marks its row."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush

from .._common import find_map_view
from .host import TrackHost
from .widgets import (
    _HOVER,
    _SEL,
)


# -- hover and selection --------------------------------------------------------------
def _row_hovered(panel: TrackHost, r: int | None) -> None:
    if r == panel._hover_row:
        return
    panel._hover_row = r
    cid = panel._row_ids[r] if r is not None and r < len(panel._row_ids) else None
    panel.hoverCharacter.emit(cid)
    view = find_map_view(panel.document)
    if view is not None and hasattr(view, "highlight_token"):
        tok = panel.document.token_for(cid) if cid else None
        view.highlight_token(tok.id if tok is not None else None, tok is not None)


def _row_selected(panel: TrackHost) -> None:
    cid = panel.selected_character()
    t = panel.stack.currentWidget()
    if cid is None or not t.selectedIndexes():  # type: ignore[union-attr]
        return
    tok = panel.document.token_for(cid)
    if tok is not None and panel.document.selected_token_id != tok.id:
        panel.document.select(tok.id)


def _hook_map(panel: TrackHost) -> None:
    view = find_map_view(panel.document)
    if view is None or view is panel._hooked_view:
        return
    panel._hooked_view = view
    sig = getattr(view, "hexHovered", None)
    if sig is not None:
        sig.connect(panel._map_hovered)
    said = getattr(view, "statusMessage", None)
    if said is not None:
        said.connect(lambda text: _map_said(panel, text))


def _map_said(panel: TrackHost, text: str) -> None:
    """In action time what a step on the map said — a refused move's whole reason
    with its page and quoted sentence — stays readable, wrapped, on the track's
    message line (the status bar cuts a long one at the window's width)."""
    if panel.track is not None and text:
        panel.message.note(text)


def _map_hovered(panel: TrackHost, h) -> None:
    cid = None
    if h is not None:
        tok = panel.document.encounter.token_at(h)
        cid = tok.character_id if tok is not None else None
    if cid != panel._map_hover_cid:
        panel._map_hover_cid = cid
        panel._mark_rows()


def set_map_hover(panel: TrackHost, cid: str | None) -> None:
    """Mark ``cid``'s row as hovered on the map (what the map view's hover does)."""
    panel._map_hover_cid = cid
    panel._mark_rows()


def _mark_rows(panel: TrackHost) -> None:
    """Colour the name cell of the selected token's row and the map-hovered row
    (only the cells whose colour changes are touched)."""
    tok = panel.document.selected_token()
    sel = tok.character_id if tok is not None else None
    table = panel.stack.currentWidget()
    shown = panel._marks.setdefault(id(table), {})  # (a new name cell drops its row's)
    hover = panel._map_hover_cid
    for r, cid in enumerate(panel._row_ids):
        mark = _HOVER if cid == hover else _SEL if cid == sel else None
        if shown.get(r, 0) is mark:
            continue
        item = table.item(r, 0)  # type: ignore[union-attr]
        if item is None:
            continue
        shown[r] = mark
        item.setBackground(QBrush(mark) if mark is not None else QBrush())


def row_marked(panel: TrackHost, cid: str) -> bool:
    """Whether ``cid``'s row is marked (selected or hovered on the map)."""
    if cid not in panel._row_ids:
        return False
    item = panel.stack.currentWidget().item(panel._row_ids.index(cid), 0)  # type: ignore[union-attr]
    return item is not None and item.background().style() != Qt.BrushStyle.NoBrush
