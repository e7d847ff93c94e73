"""The editor's selection: the map object under the mouse or picked for the
Properties panel, and the region of hexes that is copied, cut, pasted, moved or
cleared with everything on it (each change one undoable command)."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath

from ...hexgrid import Hex
from ...model import edit as ed
from ...model.map import Feature, Label, Map, Marker, Note
from ..scene.map_items import FeatureItem, LabelItem, MarkerItem
from ..scene.map_scene import LAYER_TITLES, feature_layer
from .commands import MapStateCommand, ObjectsCommand, SetFieldCommand
from .editor_base import EditorBase
from .items import REGION_COLOUR, REGION_FILL, HexSetItem, OutlineItem, remove
from .tools import RegionTool

#: layers every region operation changes (terrain, walls, doors, labels, notes)
REGION_LAYERS = ("terrain", "walls", "objects", "labels", "notes")


class EditorSelection(EditorBase):
    """The selected object and region of the editor (see module docstring)."""

    def object_at(self, pos: QPointF, layers=None) -> str | None:
        """The id of the topmost wall, door, label, note or marker under a scene point
        (on a shown layer, and of ``layers`` when given)."""
        sc = self.view.map_scene
        if sc is None:
            return None
        for it in sc.items(pos):
            if not it.isVisible():
                continue
            oid = None
            if isinstance(it, FeatureItem):
                oid = it.feature_id
            elif isinstance(it, LabelItem):
                oid = it.label_id
            elif isinstance(it, MarkerItem):
                oid = it.obj_id
            if oid is None:
                continue
            if layers is not None and it.data(0) not in layers:
                continue
            return oid
        return None

    def layer_of(self, oid: str) -> str:
        obj = ed.find_object(self._doc().map, oid)
        if isinstance(obj, Feature):
            return feature_layer(obj.kind)
        if isinstance(obj, Label):
            return "labels"
        return "notes"

    def selected_object(self):
        if self.selected_id is None or self.document is None:
            return None
        try:
            return ed.find_object(self.document.map, self.selected_id)
        except KeyError:
            return None

    def select_object(self, oid: str | None) -> None:
        if oid == self.selected_id:
            self._show_selection()
            return
        self.selected_id = oid
        self._show_selection()
        self.selectionChanged.emit(oid)

    def _show_selection(self) -> None:
        sc = self.view.map_scene
        obj = self.selected_object()
        if sc is None or obj is None:
            remove(self._select_item)
            self._select_item = None
            return
        path = QPainterPath()
        item = sc.features.get(obj.id) or sc.others.get(obj.id)
        if isinstance(item, FeatureItem):
            path = item.shape()
        elif item is not None:
            path.addRect(item.mapRectToScene(item.boundingRect()))
        else:
            return
        if self._select_item is None or self._select_item.scene() is not sc:
            self._select_item = OutlineItem()
            sc.addItem(self._select_item)
        self._select_item.set_path(path)

    def set_field(self, obj, field: str, value, *, merge: bool = True) -> tuple[bool, str]:
        """Change one field of a map object, the map or its picture (undoable,
        validated). Returns (done, reason when refused)."""
        if self.document is None:
            return False, "No map."
        layer = None
        if isinstance(obj, Feature):
            layer = feature_layer(obj.kind)
        elif isinstance(obj, Label):
            layer = "labels"
        elif isinstance(obj, (Note, Marker)):
            layer = "notes"
        if layer is not None and self.layer_locked(layer):
            msg = f"The {LAYER_TITLES[layer]} layer is locked."
            self.say(msg)
            return False, msg
        try:
            cmd = SetFieldCommand(self.document, obj, field, value, merge=merge)
        except ValueError as e:
            self.say(str(e))
            return False, str(e)
        if not self.push(cmd):
            return False, "The change was refused."
        return True, ""

    def delete_selected(self) -> bool:
        obj = self.selected_object()
        if obj is None:
            self.say("Nothing selected.")
            return False
        layer = self.layer_of(obj.id)
        if self.refuse_locked([layer]):
            return False
        if self.push(ObjectsCommand(self._doc(), f"Delete {obj.id}", remove=[obj])):
            self.select_object(None)
            return True
        return False

    def delete_selection(self) -> None:
        """Del: the selected object, else the selected hexes."""
        if self.selected_object() is not None:
            self.delete_selected()
        elif self.region:
            self.delete_region()
        else:
            self.say("Select hexes or a thing on the map first.")

    # -- regions ------------------------------------------------------------------------------

    def set_region(self, hexes) -> None:
        m = self.document.map if self.document else None
        hs = frozenset(h for h in hexes if m is not None and m.contains(h))
        if hs == self.region:
            return
        self.region = hs
        self._show_region()
        self.regionChanged.emit()
        if hs:
            # one selection at a time: hexes or a single thing
            self.select_object(None)
            self.say(f"{len(hs)} hexes selected.")

    def _show_region(self) -> None:
        sc = self.view.map_scene
        if sc is None or not self.region:
            remove(self._region_item)
            self._region_item = None
            return
        item = self._region_item
        if item is None or item.scene() is not sc or item.frame is not sc.frame:
            # a new scene, or the same one rebuilt for another hex size
            remove(item)
            item = self._region_item = HexSetItem(sc.frame, REGION_COLOUR, REGION_FILL, dashed=True)
            sc.addItem(item)
        item.set_hexes(self.region)

    def select_all(self) -> None:
        doc = self._editing()
        if doc is not None:
            self.set_region(doc.map.hexes())

    def copy_region(self) -> bool:
        doc = self._editing()
        if doc is None:
            return False
        if not self.region:
            self.say("Select some hexes first (Select region, Shift+S).")
            return False
        clip = self.clipboard = ed.copy_region(doc.map, self.region)
        self.say(f"Copied {len(clip.cells)} hexes and {clip.object_count} things on them.")
        return True

    def cut_region(self) -> bool:
        if not self.region or self.refuse_locked(REGION_LAYERS):
            if not self.region:
                self.say("Select some hexes first (Select region, Shift+S).")
            return False
        if not self.copy_region():
            return False
        return self.delete_region(text="Cut hexes")

    def delete_region(self, text: str = "Clear hexes") -> bool:
        doc = self._editing()
        if doc is None or not self.region:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        region = set(self.region)
        cmd = MapStateCommand(doc, text, lambda m: ed.delete_region(m, region))
        if self.push(cmd):
            self.select_object(None)
            self.say(cmd.result.message())
            return True
        return False

    def paste(self) -> None:
        """Ctrl+V: the copied hexes follow the mouse until a click puts them down."""
        if self._editing() is None:
            return
        if self.clipboard is None:
            self.say("Copy some hexes first (select them, then Ctrl+C).")
            return
        if self.refuse_locked(REGION_LAYERS):
            return
        self.view.set_tool("ed_region")
        tool = self.tools["ed_region"]
        if isinstance(tool, RegionTool):
            tool.start_paste()

    def paste_at(self, at: Hex) -> bool:
        """Put the copied hexes down with their top-left hex on ``at``."""
        doc = self._editing()
        if doc is None or self.clipboard is None:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        clip = self.clipboard
        cmd = MapStateCommand(doc, "Paste hexes", lambda m: ed.paste_clip(m, clip, at))
        if self.push(cmd):
            self.set_region(cmd.result.hexes)
            self.say(cmd.result.message())
            return True
        return False

    def move_region(self, delta: Hex, *, copy: bool = False) -> bool:
        """Move (or copy) the selected hexes with everything on them by ``delta``."""
        doc = self._editing()
        if doc is None or not self.region:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        region = set(self.region)
        to = ed.region_anchor(doc.map, region) + delta

        def go(m: Map):
            if copy:
                return ed.paste_clip(m, ed.copy_region(m, region), to)
            return ed.move_region(m, region, to)

        cmd = MapStateCommand(doc, "Copy hexes" if copy else "Move hexes", go)
        if self.push(cmd):
            self.set_region(cmd.result.hexes)
            self.say(cmd.result.message().replace("Pasted", "Copied" if copy else "Moved"))
            return True
        return False
