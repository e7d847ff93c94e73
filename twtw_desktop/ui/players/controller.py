"""The players' screen add-on of the Judge's window: the menu entries, the toolbar,
opening and closing the second window, placing it on a display, and passing the
Judge's pushes and view changes to it.

* View > Players' screen (F12) opens or closes the window; View > Players' screen
  options holds the display list, full screen, the camera, the fog and the token
  drawing choices, and the push actions. The "Players" toolbar has the push actions.
* Placing: the chosen display is remembered by name. When it is connected the window
  goes there (full screen if chosen). When none is chosen yet or it is not connected
  and there is a display other than the Judge's, the window goes full screen on the
  largest such display (the first F12 at a table with a TV; a first choice is
  remembered); with one display only, it opens as an ordinary movable window on the
  primary display. The Display menu marks the display the window is on. If the
  display is unplugged while the window is on it, the window comes back to the
  primary display as a movable window; plugged in again, it goes back.
  Choosing a display other than the one the Judge's window is on turns full screen on
  (that is the projector case); the Full screen switch turns it off again.
* Closing the players' window never touches the Judge's window; closing the Judge's
  window closes the players' window with it.
* Remembered fog lives here, per open document: reopening the players' screen keeps
  it, opening another encounter starts afresh.
* The players' camera is its own by default (fit the posse); it follows the Judge's
  panning only when the Judge chooses "Follow the Judge's view".
* The players' window never takes the keyboard (see :mod:`.window`); should a window
  manager activate it all the same, the Judge's window gets the keyboard back.
* While the map editor is on, the players' window keeps its last picture of play.
* The TV on the table (issue 29): Miniature scale fixes hexes of a physical size on
  the players' display (:mod:`.miniature`; the zoom locked, the camera only pans);
  the Judge's map shows a frame round the TV's view (:mod:`.tv_frame`): dragging its
  edge, or Alt+arrow (one hex), moves the TV's view, which is remembered; Shift+P
  (the hex under the mouse), a token's menu or Alt+click rings a hex on the TV for
  two seconds (a ``ping`` push; a key because many window managers take Alt+click
  and Alt+drag for themselves); Blackout (Ctrl+B) blanks
  the TV while the Judge rearranges. All of it is view state: nothing is journaled.
* A push (card, cover line, scatter, "show this") is the document's signal
  (``playersShow``), heard by this window and by the players' devices alike: a card
  pushed with the players' screen closed still reaches the phones.

Here: building the actions, menus and toolbar, following the document, opening and
closing, and the pushes. Placing the window on a display is :mod:`.displays`; the
options' and the TV's slots are :mod:`.options` (the controller's bases).
"""

from __future__ import annotations

import contextlib
import logging

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication
from PySide6.QtWidgets import QMenu, QToolBar

from ...hexgrid import Hex
from ...play.fog import SeenMemory
from ..core.actions import make_action
from ..core.commands import HIDE_TOKEN_SHORTCUT, PING_KEY, toggle_token_hidden
from .camera import CAMERA_MODES, CAMERA_TITLES
from .displays import screen_id
from .options import PlayersChoices
from .settings import PlayersSettings
from .tv_frame import TvHand
from .window import PlayersWindow

log = logging.getLogger(__name__)

CONDITION_TITLES = {
    "none": "&Nobody's",
    "posse": "The &posse's only",
    "all": "&Everyone's",
}


class PlayersController(PlayersChoices):
    """Owns the players' window (``players_window``, None while closed)."""

    # the switches made by :meth:`_switch` (``act_fullscreen``, ``act_fog``…) are
    # declared on the bases that read them

    def __init__(self, window) -> None:
        super().__init__(window)
        self.setObjectName("players_screen")
        self.main = window
        self.settings = PlayersSettings(window.settings.q)
        self.players_window: PlayersWindow | None = None
        #: hexes the posse has seen in this document (kept across reopening)
        self.remembered = SeenMemory()
        self.document = None
        self._make_actions()
        self._make_menus()
        self._make_toolbar()
        self.hand = TvHand(self)
        self._attach(window.document)
        window.documentReplaced.connect(self._document_replaced)
        window.map_view.viewportChanged.connect(self._judge_view_moved)
        window.installEventFilter(self)
        window.destroyed.connect(self._main_destroyed)
        editor = getattr(window, "editor", None)
        if editor is not None:
            editor.modeChanged.connect(self._editing)
        app = QGuiApplication.instance()
        app.screenRemoved.connect(self._on_screen_removed)
        app.screenAdded.connect(self._on_screen_added)

    # -- building -----------------------------------------------------------------------------

    def _act(
        self,
        text: str,
        tip: str,
        slot=None,
        shortcut: str | None = None,
        name: str = "",
        checkable: bool = False,
    ) -> QAction:
        return make_action(self.main, text, slot, shortcut, tip, name, checkable)

    def _switch(self, attr: str, text: str, tip: str, slot, name: str, on: bool) -> None:
        """A checkable action kept as ``self.<attr>``, then ticked as the remembered
        setting ``on`` says (ticking runs ``slot``, which may read the attribute)."""
        a = self._act(text, tip, slot, None, name, True)
        setattr(self, attr, a)
        a.setChecked(on)

    def _choice(
        self, titles: dict[str, str], tips: dict[str, str], name: str, slot, current: str
    ) -> tuple[QActionGroup, dict[str, QAction]]:
        """Exclusive checkable actions, one per key of ``titles`` (object name
        ``name`` + key); choosing one calls ``slot(key)``; ``current`` starts ticked."""
        group = QActionGroup(self)
        actions: dict[str, QAction] = {}
        for key, title in titles.items():
            a = self._act(title, tips[key], None, None, f"{name}{key}", True)
            a.triggered.connect(lambda _=False, k=key: slot(k))
            group.addAction(a)
            actions[key] = a
        actions[current].setChecked(True)
        return group, actions

    def _make_actions(self) -> None:
        s = self.settings
        self.act_toggle = self._act(
            "&Players' screen",
            "Open or close the players' screen: a second window showing only what the posse "
            "may see (while it is open, Shift+P rings the hex under the mouse on it)",
            self._toggled,
            "F12",
            "act_players_screen",
            True,
        )
        self._switch(
            "act_fullscreen",
            "&Full screen",
            "Fill the chosen display with the players' screen (F11 in that window)",
            self.set_fullscreen,
            "act_players_fullscreen",
            s.fullscreen,
        )
        self._switch(
            "act_fog",
            "Line-of-sight &fog",
            "Darken the hexes no posse member can see, and hide the tokens standing there",
            self.set_fog,
            "act_players_fog",
            s.fog,
        )
        self._switch(
            "act_remember",
            "&Remember seen areas",
            "Hexes the posse saw earlier stay dimly visible under the fog",
            self.set_remember,
            "act_players_remember",
            s.remember_seen,
        )
        self._switch(
            "act_fog_dim",
            "&Dim never-seen areas",
            "Darken the hexes the posse never saw instead of covering them (walls and labels "
            "stay faintly readable there)",
            self.set_fog_dim,
            "act_players_fog_dim",
            s.fog_dim,
        )
        self.act_forget = self._act(
            "Forget the seen areas",
            "Darken again everything the posse is not looking at now",
            self.forget,
            None,
            "act_players_forget",
        )
        self._switch(
            "act_names",
            "&Name the hombres",
            "Show the names of tokens outside the posse on the players' screen",
            self.set_names,
            "act_players_names",
            s.names,
        )
        self.condition_group, self.condition_actions = self._choice(
            CONDITION_TITLES,
            {
                who: "Wound badges and stun/concussion marks on the players' screen: "
                + title.replace("&", "").lower()
                for who, title in CONDITION_TITLES.items()
            },
            "act_players_conditions_",
            self.set_conditions,
            s.conditions,
        )
        self.camera_group, self.camera_actions = self._choice(
            {mode: CAMERA_TITLES[mode] for mode in CAMERA_MODES},
            {
                "follow": "The players' screen shows what your map view shows",
                "fit_map": "The players' screen shows the whole map",
                "fit_posse": "The players' screen keeps the posse in view",
                "lock": "The players' screen stays where it is",
            },
            "act_players_camera_",
            self.set_camera,
            s.camera,
        )
        self.act_hide_token = self._act(
            "&Hide from / reveal to the players",
            "Hide the selected token from the players' screen, or reveal it again (undoable)",
            self.toggle_hidden,
            HIDE_TOKEN_SHORTCUT,
            "act_players_hide_token",
        )
        self.main.addAction(self.act_hide_token)
        self.act_show_this = self._act(
            "&Show this to the players",
            "Pan the players' screen to the selected token (or the hex under the mouse) and ring it",
            self.show_this,
            "Shift+F12",
            "act_players_show_this",
        )
        self.act_ping = self._act(
            "&Ring the hex under the mouse",
            "Ring the hex under the mouse on the players' screen and devices for two "
            "seconds (the same as Alt+click, which some window managers take for "
            "themselves)",
            self.ping_under_mouse,
            PING_KEY,
            "act_players_ping",
        )
        self.act_show_card = self._act(
            "Show the last &card",
            "Show the last card drawn, large, on the players' screen",
            self.show_last_card,
            "Ctrl+Shift+D",
            "act_players_show_card",
        )
        self.act_show_scatter = self._act(
            "Show the last scatter cl&ock",
            "Show the last missed throw's scatter clock and landing hex on the players' screen",
            self.show_last_scatter,
            "Ctrl+Shift+K",
            "act_players_show_scatter",
        )
        self.act_clear = self._act(
            "C&lear the players' screen",
            "Take the shown card, cover line, scatter clock and ring off the players' screen",
            self.clear,
            "Ctrl+F12",
            "act_players_clear",
        )
        tool = self.main.map_view.tools().get("cover")
        self.act_show_cover = getattr(tool, "show_players_action", None)
        self._switch(
            "act_miniature",
            "&Miniature scale",
            "Hexes of a set size on the players' display (one inch unless set otherwise), "
            "the zoom locked; on by itself when the players' screen is full screen on "
            "another display, until you turn it off",
            self.set_miniature,
            "act_players_miniature",
            bool(s.miniature),
        )
        self.act_miniature_settings = self._act(
            "Miniature scale &settings…",
            "The hex size in inches, and the display's diagonal where it reports its size wrongly",
            self.edit_miniature,
            None,
            "act_players_miniature_settings",
        )
        self.act_blackout = self._act(
            "&Blackout",
            "Blank the players' screen while you rearrange; again to show the table",
            self.set_blackout,
            "Ctrl+B",
            "act_players_blackout",
            True,
        )
        self.main.addAction(self.act_blackout)
        #: Alt+arrow: the TV's view one hex that way
        self.tv_moves: dict[str, QAction] = {}
        for key, word, dx, dy in (
            ("Left", "left", -1, 0),
            ("Right", "right", 1, 0),
            ("Up", "up", 0, -1),
            ("Down", "down", 0, 1),
        ):
            a = self._act(
                f"Move the TV's view {word}",
                f"Move the players' screen's view one hex {word}",
                lambda _=False, x=dx, y=dy: self.move_tv_hexes(x, y),
                f"Alt+{key}",
                f"act_players_tv_{word}",
            )
            a.setEnabled(False)
            self.main.addAction(a)
            self.tv_moves[word] = a

    def _make_menus(self) -> None:
        vm = self.main.view_menu
        vm.addSeparator()
        vm.addAction(self.act_toggle)
        self.menu = m = QMenu("Players' screen &options", self.main)
        m.setObjectName("menu_players")
        m.setToolTipsVisible(True)
        vm.addMenu(m)
        self.screen_menu = m.addMenu("&Display")
        self.screen_menu.setToolTipsVisible(True)
        self.screen_menu.aboutToShow.connect(self._fill_screens)
        self._fill_screens()
        m.addAction(self.act_fullscreen)
        cam = m.addMenu("&Camera")
        for a in self.camera_actions.values():
            cam.addAction(a)
        m.addAction(self.act_miniature)
        m.addAction(self.act_miniature_settings)
        tv = m.addMenu("Move the &TV's view")
        tv.setToolTipsVisible(True)
        for a in self.tv_moves.values():
            tv.addAction(a)
        m.addAction(self.act_blackout)
        m.addAction(self.act_ping)
        m.addSeparator()
        m.addAction(self.act_fog)
        m.addAction(self.act_remember)
        m.addAction(self.act_fog_dim)
        m.addAction(self.act_forget)
        m.addSeparator()
        cond = m.addMenu("&Wounds and conditions shown")
        cond.setToolTipsVisible(True)
        for a in self.condition_actions.values():
            cond.addAction(a)
        m.addAction(self.act_names)
        m.addSeparator()
        m.addAction(self.act_hide_token)
        for a in self._push_actions():
            m.addAction(a)

    def _push_actions(self) -> list[QAction]:
        acts = [self.act_show_this, self.act_show_card, self.act_show_scatter]
        if self.act_show_cover is not None:
            acts.append(self.act_show_cover)
        acts.append(self.act_clear)
        return acts

    def _make_toolbar(self) -> None:
        tb = QToolBar("Players' screen", self.main)
        tb.setObjectName("toolbar_players")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        # the on/off switch lives with the main tools; this bar of pushes shows only
        # while the players' screen is open (a laptop keeps its map height)
        main_tb = getattr(self.main, "tools_toolbar", None)
        if main_tb is not None:
            main_tb.addAction(self.act_toggle)
        else:
            tb.addAction(self.act_toggle)
            tb.addSeparator()
        short = {
            self.act_show_this: "Show players",
            self.act_show_card: "Card",
            self.act_show_scatter: "Scatter",
            self.act_clear: "Clear",
        }
        if self.act_show_cover is not None:
            short[self.act_show_cover] = "Cover line"
        for a in self._push_actions():
            tb.addAction(a)
            btn = tb.widgetForAction(a)
            if btn is not None and a in short:
                btn.setText(short[a])
        self.main.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb)
        self.toolbar = tb

    def _fill_screens(self) -> None:
        m = self.screen_menu
        m.clear()
        group = QActionGroup(m)
        pw = self.players_window
        # the display in use: the one the window is on, else the one chosen
        in_use = screen_id(pw.screen()) if pw is not None else self.settings.screen_name
        primary = QGuiApplication.primaryScreen()
        for sc in QGuiApplication.screens():
            g = sc.geometry()
            name = screen_id(sc)
            extra = " (main)" if sc is primary else ""
            a = QAction(f"{name} — {g.width()}×{g.height()}{extra}", m)
            a.setCheckable(True)
            a.setChecked(name == in_use)
            a.setToolTip(f"Put the players' screen on {name}")
            a.triggered.connect(lambda _=False, n=name: self.choose_screen(n))
            group.addAction(a)
            m.addAction(a)

    # -- the document ------------------------------------------------------------------------

    def _attach(self, document) -> None:
        if self.document is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.document.playersShow.disconnect(self._pushed)
        self.document = document
        if document is not None:
            document.playersShow.connect(self._pushed)

    def _document_replaced(self, document) -> None:
        self._attach(document)
        self.remembered = SeenMemory()
        pw = self.players_window
        if pw is not None:
            pw.set_document(document, self.remembered)
            pw.view.follow(self.main.map_view.visible_scene_rect())
            pw.view.apply_camera()
            self._restore_tv_centre()

    def _pushed(self, kind: str, payload) -> None:
        pw = self.players_window
        if pw is not None:
            pw.show_push(kind, payload)

    def _judge_view_moved(self, rect) -> None:
        pw = self.players_window
        if pw is not None:
            pw.view.follow(rect)

    def _tv_view_moved(self, rect) -> None:
        if self.players_window is not None:
            self.hand.show_frame(rect)

    # -- opening and closing -------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.players_window is not None

    def _toggled(self, on: bool) -> None:
        if on:
            self.open()
        else:
            self.close()

    def sync_toggle(self) -> None:
        """Tick the switch and show the push toolbar exactly while the screen is open."""
        on = self.players_window is not None
        self.toolbar.setVisible(on)
        for a in self.tv_moves.values():
            a.setEnabled(on)
        if self.act_toggle.isChecked() != on:
            self.act_toggle.blockSignals(True)
            self.act_toggle.setChecked(on)
            self.act_toggle.blockSignals(False)

    def open(self) -> PlayersWindow:
        """Open the players' screen (or bring it forward) and return it."""
        pw = self.players_window
        if pw is not None:
            pw.raise_()
            return pw
        doc = self.main.document
        pw = PlayersWindow(doc, self.remembered)
        self.players_window = pw
        v = pw.view
        v.set_look(self._look())
        v.set_remember(self.act_remember.isChecked())
        v.set_fog_dim(self.act_fog_dim.isChecked())
        v.set_fog(self.act_fog.isChecked())
        v.follow(self.main.map_view.visible_scene_rect())
        v.set_camera(self._checked_camera())
        v.cameraChanged.connect(self._camera_changed)
        v.viewMoved.connect(self._tv_view_moved)
        pw.closed.connect(self._players_closed)
        pw.fullscreenRequested.connect(self.set_fullscreen)
        pw.installEventFilter(self)
        self.place()
        handle = pw.windowHandle()
        if handle is not None:  # another display: other pixels per inch
            handle.screenChanged.connect(self._apply_miniature)
        self._apply_miniature()
        if v.camera == "lock":  # sized now: start on the posse, then where it was put
            v.fit_posse()
        self._restore_tv_centre()
        pw.set_blackout(self.act_blackout.isChecked())
        self.sync_toggle()
        self.hand.show_frame(v.visible_scene_rect())
        if self._editor_on():
            pw.freeze(True)
        self._say("Players' screen open.")
        return pw

    def _editor_on(self) -> bool:
        editor = getattr(self.main, "editor", None)
        return bool(editor is not None and editor.mode)

    def _editing(self, on: bool) -> None:
        """The map editor went on or off: the players keep the last picture of play
        meanwhile."""
        pw = self.players_window
        if pw is not None:
            pw.freeze(on)

    def close(self) -> None:
        """Close the players' screen (the Judge's window stays as it is)."""
        pw = self.players_window
        if pw is None:
            return
        pw.close()
        if self.players_window is pw:  # a hidden window may get no close event
            self._players_closed()

    def _players_closed(self) -> None:
        pw = self.players_window
        if pw is None:
            return
        self.players_window = None
        if not pw.isFullScreen():
            self.settings.geometry = pw.saveGeometry()
        self.hand.hide_frame()
        with contextlib.suppress(RuntimeError, TypeError):
            pw.view.viewMoved.disconnect(self._tv_view_moved)
        pw.hide()
        pw.deleteLater()
        if self.act_blackout.isChecked():  # a blackout is for one rearranging
            self.act_blackout.setChecked(False)
        self.sync_toggle()

    def eventFilter(self, obj, ev) -> bool:
        if obj is self.players_window and ev.type() == QEvent.Type.WindowActivate:
            # a window manager activated the players' window all the same: the
            # keyboard goes back to the Judge
            QTimer.singleShot(0, self._judge_keeps_the_keyboard)
            return False
        # the Judge's window closed (not minimised): the players' window goes with it
        if obj is self.main:
            if ev.type() == QEvent.Type.Hide and not ev.spontaneous():
                self.close()
            elif ev.type() == QEvent.Type.Close:
                # a Judge's window closed while hidden sends no hide event: look
                # once the close has been decided
                QTimer.singleShot(0, self._after_main_close)
        return False

    def _judge_keeps_the_keyboard(self) -> None:
        with contextlib.suppress(RuntimeError):
            if self.main.isVisible():
                self.main.activateWindow()

    def _after_main_close(self) -> None:
        if not self.main.isVisible():
            self.close()

    def _main_destroyed(self, *_args) -> None:
        pw, self.players_window = self.players_window, None
        self.hand.item = None  # it went with the Judge's scene
        if pw is not None:
            with contextlib.suppress(RuntimeError):
                pw.hide()
                pw.deleteLater()

    # -- pushes --------------------------------------------------------------------------------

    def _need_window(self) -> bool:
        if self.players_window is None:
            self._say("Open the players' screen first (F12).")
            return False
        return True

    def show_this(self) -> bool:
        """Point the players' screen at the selected token, else the hex under the
        mouse, else the middle of the Judge's view."""
        if not self._need_window():
            return False
        doc = self.main.document
        tok = doc.selected_token()
        if tok is not None:
            if tok.hidden:
                self._say("That token is hidden from the players: nothing shown.")
                return False
            doc.show_players("focus", tok.id)
            return True
        mv = self.main.map_view
        h = mv.hovered_hex()
        if h is None and mv.map_scene is not None:
            h = mv.map_scene.frame.hex_at(mv.visible_scene_rect().center())
        if h is None or not doc.map.contains(h):
            self._say("Select a token or point at a hex to show it to the players.")
            return False
        doc.show_players("focus", h)
        return True

    def _audience(self) -> str:
        """Where a push shows now, in words (the players' screen, the devices)."""
        places = []
        if self.players_window is not None:
            places.append("the players' screen")
        devices = getattr(self.main, "devices", None)
        if devices is not None and getattr(devices, "running", False):
            places.append("the players' devices")
        return " and ".join(places) or "the players' devices once they are started"

    def show_last_card(self) -> bool:
        """Push the last card drawn: to the players' screen if it is open, and to the
        players' devices' pages either way (the document carries the push)."""
        doc = self.main.document
        cards = doc.deck.last_cards(1)
        if not cards:
            self._say("No card has been drawn yet.")
            return False
        doc.show_players("card", cards[-1])
        self._say(f"Card {cards[-1].number} shown on {self._audience()}.")
        return True

    def show_last_scatter(self) -> bool:
        doc = self.main.document
        for e in reversed(doc.encounter.log):
            d = e.detail
            if e.kind == "throw" and d and "landing" in d:
                if not self._need_window():
                    return False
                payload = tuple(Hex(*d[k]) for k in ("thrower", "target", "landing"))
                doc.show_players("scatter", payload)
                self._say("Scatter clock shown on the players' screen.")
                return True
        self._say("No throw has been made yet.")
        return False

    def toggle_hidden(self) -> bool:
        """Hide the selected token from the players, or reveal it (one undo step)."""
        doc = self.main.document
        if doc.selected_token_id is None:
            self._say("Select a token to hide it from the players or reveal it.")
            return False
        try:
            self._say(toggle_token_hidden(doc))
        except (KeyError, ValueError) as e:
            self._say(str(e))
            return False
        return True

    def clear(self) -> None:
        self.main.document.show_players("clear", None)
