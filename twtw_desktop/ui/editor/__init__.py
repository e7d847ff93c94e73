"""The map editor add-on (issue 7): the Judge's window becomes a Tiled-style editor.

``install_editor(window)`` adds a Map menu (Edit map, New map…, Resize map…, Save Map
As…, the tools, clipboard and background picture commands), an editor toolbar and
the Palette, Properties and Layers docks, all shown while Map > Edit map (Ctrl+E) is
on. One tool is active at a time and every stroke is one undoable command on the
document's stack (a brush drag is one undo step); the map model is the truth.

Shortcuts (tools and sizes only while editing; clipboard keys when the map has focus):

==========================  ===============
Edit map on/off             Ctrl+E
New map…                    Ctrl+Alt+N
Resize map…                 Ctrl+Alt+R
Save Map As…                Ctrl+Alt+S
Select region               Shift+S
Terrain brush               B
Flood fill                  G
Rectangle fill              Shift+R
Raise/lower ground          H (Shift lowers)
Wall / Cover                W / Shift+W
Door / Window               O / Shift+O
Label                       L
Judge note                  N
Erase                       E
Brush size 1 / 2 / 3        1 / 2 / 3
Copy / Cut / Paste hexes    Ctrl+C / Ctrl+X / Ctrl+V
Delete                      Del
Select whole map            Ctrl+A
Import picture…             Ctrl+Alt+I
Picture settings            Ctrl+Alt+B
Align grid to picture…      Ctrl+Alt+A
==========================  ===============
"""

from __future__ import annotations

from .controller import EditorController


def install_editor(window) -> EditorController:
    """Add the map editor to a main window; the controller is also ``window.editor``."""
    existing = getattr(window, "editor", None)
    if isinstance(existing, EditorController):
        return existing
    ctl = EditorController(window)
    window.editor = ctl
    return ctl


__all__ = ["EditorController", "install_editor"]
