"""The editor's edits of the map as a whole: a new map, resizing it, saving it alone
to a ``.map.json``, and its background picture (import, settings, removal and
aligning the grid to it)."""

from __future__ import annotations

import contextlib
import filecmp
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ...errors import LoadError, RulesError
from ...hexgrid import Hex
from ...model import edit as ed
from ...model.map import BackgroundImage, Map
from ..core.document import EncounterDocument
from .commands import MapStateCommand, SetFieldCommand
from .dialogs import NewMapDialog, NewMapSpec, ResizeDialog
from .selection import REGION_LAYERS, EditorSelection

MAP_FILTER = "Maps (*.map.json);;All files (*)"
PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg);;All files (*)"


class WholeMapEditing(EditorSelection):
    """The whole-map edits of the editor (see module docstring)."""

    def new_map_dialog(self) -> None:
        dlg = NewMapDialog(self.window)
        if dlg.exec() == NewMapDialog.DialogCode.Accepted:
            self.create_map(dlg.spec())

    def create_map(self, spec: NewMapSpec, *, ask: bool = True) -> EncounterDocument | None:
        """Open a blank map of ``spec`` in the window, in editor mode."""
        if ask and not self.window.maybe_save():
            return None
        doc = EncounterDocument.new(
            spec.cols,
            spec.rows,
            orientation=spec.orientation,
            hex_px=spec.hex_px,
            print_hex_mm=spec.print_hex_mm,
        )
        doc.kind = "map"
        doc.map.name = spec.name
        doc.encounter.name = spec.name
        self.window.set_document(doc)
        self.set_mode(True)
        self.say(f"New map {spec.cols}×{spec.rows}: save it with Save Map As… (Ctrl+Alt+S).")
        return doc

    def resize_dialog(self) -> None:
        doc = self._editing()
        if doc is None:
            return
        dlg = ResizeDialog(doc.map, self.window)
        if dlg.exec() == ResizeDialog.DialogCode.Accepted:
            cols, rows, shift = dlg.values()
            self.window._guarded(lambda: self.resize_map(cols, rows, shift, confirm=True))

    def resize_map(
        self, cols: int, rows: int, shift: tuple[int, int] = (0, 0), *, confirm: bool = False
    ) -> bool:
        """Resize the map (undoable), keeping what fits. Tokens move with the content;
        a token that would fall off refuses the resize (RulesError)."""
        doc = self._editing()
        if doc is None:
            return False
        if self.refuse_locked((*REGION_LAYERS, "background")):
            return False
        m = doc.map
        t = ed.translation(m, *shift)
        _preview, rep = ed.resize(m, cols, rows, shift)
        for tok in doc.encounter.tokens:
            if not _preview.contains(tok.at + t):
                try:
                    who = doc.character_of(tok.id).name
                except KeyError:
                    who = tok.id
                raise RulesError(f"{who} would fall off the map; move the token first.")
        lines = rep.lines()
        if confirm and lines:
            r = QMessageBox.question(
                self.window,
                "Resize the map?",
                "\n".join(lines) + "\n\nResize anyway? (Undo brings them back.)",
            )
            if r != QMessageBox.StandardButton.Yes:
                return False

        def go(m: Map):
            new, report = ed.resize(m, cols, rows, shift)
            m.assign_fields(new.field_values())
            for tok in doc.encounter.tokens:
                h = tok.at + t
                tok.hex = (h.q, h.r)
            return report

        cmd = MapStateCommand(doc, f"Resize map to {cols}×{rows}", go, tokens=True)
        if not self.push(cmd):
            return False
        self.set_region(())
        self.say(" ".join([f"The map is now {cols}×{rows} hexes.", *lines]))
        return True

    def save_map_as(self, path: str | Path | None = None) -> bool:
        """Write the map alone to a ``.map.json`` (atomic; its picture is copied
        along). A map-only document then lives in that file; an encounter keeps its
        own file and only exports a copy of its map."""
        doc = self.document
        if doc is None:
            return False
        if path is None:
            start = doc.map_path or doc.path
            from ..core.datadir import documents_dir

            last = self.window.settings.last_dir()
            folder = start.parent if start else Path(last) if last else documents_dir()
            stem = _slug(doc.map.name) or "map"
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save map", str(folder / f"{stem}.map.json"), MAP_FILTER
            )
            if not path:
                return False
        path = Path(path)
        if not path.name.endswith(".map.json"):
            base = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
            path = path.with_name(base + ".map.json")
        try:
            self._carry_background(path)
            if doc.kind == "map":
                doc.save(path)
            else:
                from ... import io as io_mod

                io_mod.save_map(doc.map, path)
        except LoadError as e:
            self.window.show_error("Cannot save the map", str(e))
            return False
        except OSError as e:
            self.window.show_error("Cannot save the map", f"{path}: {e.strerror or e}")
            return False
        with contextlib.suppress(Exception):
            self.window.settings.add_recent(path)
        self.say(f"Saved the map as {path.name}")
        return True

    def _carry_background(self, target: Path) -> None:
        """Copy the background picture into the folder of ``target`` (same relative
        path) when the map is saved somewhere else — checked like any picture the
        map opens, and never outside that folder (io.copy_picture)."""
        from ... import io as io_mod

        doc = self._doc()
        bg = doc.map.background
        base = doc.map_path or doc.path
        if bg is None or base is None:
            return
        io_mod.copy_picture(base, bg, target)

    # -- background picture ------------------------------------------------------------------------

    def import_background(self, path: str | Path | None = None) -> bool:
        """Put a PNG or JPEG under the grid. It is copied beside the map file (an
        unsaved map is saved first) and named by a relative path; only its header is
        read here, to check its size against the limits."""
        from ...io import check_background, check_picture_size, image_size
        from ...io.images import ImageHeaderError, read_picture_file

        doc = self._editing()
        if doc is None:
            return False
        if self.refuse_locked(["background"]):
            return False
        base = doc.map_path or doc.path
        if base is None:
            r = QMessageBox.question(
                self.window,
                "Save the map first?",
                "The picture is kept beside the map file, so the map needs a file first. "
                "Save it now?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Save,
            )
            if r != QMessageBox.StandardButton.Save:
                return False
            ok = self.save_map_as() if doc.kind == "map" else self.window.save()
            base = doc.map_path or doc.path
            if not ok or base is None:
                return False
        if path is None:
            start = str(base.parent)
            path, _ = QFileDialog.getOpenFileName(
                self.window, "Background picture", start, PICTURE_FILTER
            )
            if not path:
                return False
        src = Path(path)
        try:
            _fmt, width, height = image_size(read_picture_file(src))
            check_picture_size(width, height)
            rel = _place_beside(src, base.parent)
            old = doc.map.background
            fields: dict[str, object] = {"path": rel, "width": width, "height": height}
            fields.update(ed.fit_background(doc.map, width, height))
            if old is not None:
                fields.update(opacity=old.opacity, visible_to_players=old.visible_to_players)
            bg = BackgroundImage.model_validate(fields)
            check_background(base, bg)
        except ImageHeaderError as e:
            self.window.show_error("Cannot use that picture", f"{src.name}: {e}")
            return False
        except LoadError as e:
            self.window.show_error("Cannot use that picture", str(e))
            return False
        except (OSError, ValueError) as e:
            reason = getattr(e, "strerror", None) or str(e)
            self.window.show_error("Cannot use that picture", f"{src.name}: {reason}")
            return False
        cmd = SetFieldCommand(
            doc, doc.map, "background", bg, text="Import background picture", merge=False
        )
        if not self.push(cmd):
            return False
        self.say(
            f"{rel} is under the grid ({width}×{height}). Use Align grid to picture "
            "(Ctrl+Alt+A) to fit the hexes."
        )
        return True

    def set_background(self, **changes) -> tuple[bool, str]:
        doc = self.document
        bg = doc.map.background if doc is not None else None
        if doc is None or bg is None:
            return False, "There is no background picture."
        if self.refuse_locked(["background"]):
            return False, "The background layer is locked."
        try:
            new = BackgroundImage.model_validate({**bg.model_dump(), **changes})
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in err.get("loc", ())) or "value"
            msg = f"{where.replace('_', ' ')}: {err['msg']}"
            self.say(msg)
            return False, msg
        if new == bg:
            return True, ""
        if not self.push(
            SetFieldCommand(doc, doc.map, "background", new, text="Change background picture")
        ):
            return False, "The change was refused."
        return True, ""

    def remove_background(self) -> bool:
        doc = self._editing()
        if doc is None or doc.map.background is None:
            return False
        if self.refuse_locked(["background"]):
            return False
        return self.push(
            SetFieldCommand(
                doc, doc.map, "background", None, text="Remove background picture", merge=False
            )
        )

    def show_background_settings(self) -> None:
        d = self.docks["dock_editor_properties"]
        d.show()
        d.raise_()
        self.properties_panel.ensureWidgetVisible(self.properties_panel.bg_form)

    def begin_align(self) -> None:
        doc = self._editing()
        if doc is None:
            return
        if doc.map.background is None:
            self.say("Import a background picture first (Ctrl+Alt+I).")
            return
        if self.refuse_locked(["background"]):
            return
        if not isinstance(self.view.tool, type(self.tools["ed_align"])):
            self._before_align = self.view.tool
        self.view.set_tool("ed_align")

    def end_align(self) -> None:
        prev, self._before_align = self._before_align, None
        if self.view.tool is self.tools["ed_align"]:
            self.view.set_tool(prev if prev is not None else "ed_region")

    def align_background(self, img_a, img_b, hex_a: Hex, hex_b: Hex, answer=None) -> bool:
        """Scale and shift the picture from two picked points (picture pixels) and the
        Judge's answer: ("hexes", hex_a, hex_b) or ("distance", paces)."""
        doc = self._doc()
        bg = doc.map.background
        if bg is None:
            return False
        if answer is None:
            answer = self.ask_alignment(hex_a, hex_b)
            if answer is None:
                self.say("Alignment cancelled.")
                return False
        try:
            if answer[0] == "distance":
                new = ed.align_to_distance(doc.map, bg, img_a, img_b, float(answer[1]))
            else:
                new = ed.align_to_hexes(doc.map, bg, img_a, img_b, answer[1], answer[2])
        except RulesError as e:
            self.say(str(e))
            QMessageBox.information(self.window, "Cannot align", str(e))
            return False
        ok = self.push(
            SetFieldCommand(
                doc, doc.map, "background", new, text="Align grid to picture", merge=False
            )
        )
        if ok:
            self.say(f"Picture aligned: scale {new.scale:.4f}, turned {new.rotation}°.")
        return ok


# -- files ----------------------------------------------------------------------------------


def _slug(name: str) -> str:
    keep = [c.lower() if c.isalnum() else "_" for c in name.strip()]
    return "".join(keep).strip("_")[:60]


def _copy_atomic(src: Path, dst: Path) -> None:
    """Copy a picture the Judge picked through the package's one atomic write: a
    reader never sees half a picture, a pipe or device is never read."""
    from ... import io as io_mod
    from ...io.images import read_picture_file

    dst.parent.mkdir(parents=True, exist_ok=True)
    io_mod.write_atomic(dst, read_picture_file(src))


def _place_beside(src: Path, folder: Path) -> str:
    """The picture's path relative to ``folder``: itself when it already lies in that
    folder (or below), else a copy put there (a new name when another picture of the
    same name is in the way)."""
    src_r = src.resolve()
    folder_r = folder.resolve()
    if src_r.is_relative_to(folder_r):
        return src_r.relative_to(folder_r).as_posix()
    dst = folder / src.name
    n = 2
    while dst.exists() and not filecmp.cmp(src, dst, shallow=False):
        dst = folder / f"{src.stem}-{n}{src.suffix}"
        n += 1
    if not dst.exists():
        _copy_atomic(src, dst)
    return dst.name
