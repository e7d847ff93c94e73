"""Encounter ▸ Hand to hand ▸ … for the selected figure.

The fight as it stands heads the submenu (whom the figure is engaged with, who holds
whom, a free blow owed), then the table's hand-to-hand state actions
(:mod:`twtw_desktop.play.melee_actions`):
engage a figure within a pace, hold an engaged foe at a level of dominance or let go
(the Judge's call on a position, 000 Position), escape a hold (the check is drawn),
disengage carefully, and the Judge's position and height advantage factors. The
submenu is filled when it opens from what the selected figure may do now; each entry
is one undo step, a refusal is shown and changes nothing.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from ...play.engagement import describe, foes, held_level, level_name
from ...play.melee_actions import Disengage, Engage, Escape, Hold, MeleeFactors
from ...rules.combat.melee import ENGAGEMENT_PACES


def _selected(window):
    """The window's document and its selected figure (None when there is none)."""
    doc = window.document
    return doc, doc.selected_token() if doc is not None else None


def _fill(window, menu: QMenu) -> None:
    menu.clear()
    doc, tok = _selected(window)
    if tok is None:
        menu.addAction("Select a figure on the map first").setEnabled(False)
        return
    table = doc.table
    me = tok.character_id
    for line in describe(table, tok):  # the fight as it stands, for reading
        menu.addAction(line).setEnabled(False)
    if menu.actions():
        menu.addSeparator()

    def add(text: str, action, tip: str = "") -> None:
        act = menu.addAction(text)
        if tip:
            act.setToolTip(tip)
        act.triggered.connect(lambda: window._guarded(lambda: doc.apply(action)))

    fighting = foes(table, tok)
    for other in table.encounter.tokens:
        if other is tok or other in fighting or other.riding == tok.id:
            continue
        if other.at.distance(tok.at) <= ENGAGEMENT_PACES:
            name = doc.character(other.character_id).name
            add(f"Engage {name}", Engage(who=me, target=other.character_id))
    for f in fighting:
        name = doc.character(f.character_id).name
        sub = menu.addMenu(f"Hold {name}")
        sub.setObjectName(f"hold_{f.id}")
        current = f.held_at if f.held_by == tok.id else 0
        for level in (1, 2, 3):
            act = sub.addAction(level_name(level).capitalize())
            act.setCheckable(True)
            act.setChecked(level == current)
            act.triggered.connect(
                lambda _=False, t=f.character_id, lv=level: window._guarded(
                    lambda: doc.apply(Hold(who=me, target=t, level=lv))
                )
            )
        if current:
            sub.addAction("Let go").triggered.connect(
                lambda _=False, t=f.character_id: window._guarded(
                    lambda: doc.apply(Hold(who=me, target=t, level=0))
                )
            )
    level = held_level(table, tok)
    if level:
        p = table.preview(Escape(who=me))
        add(
            f"Escape the {level_name(level)} (TN {p.get('tn', '?')})…",
            Escape(who=me),
            "000 Breaking Engagements When Dominated: an Unarmed check, one card",
        )
    if fighting:
        add("Disengage carefully (2 AP)", Disengage(who=me), "000 Breaking Engagement")
    if not any(a.isEnabled() for a in menu.actions()):
        menu.addAction("Nobody within a pace to fight").setEnabled(False)
    menu.addSeparator()
    for key, text in (("position", "Position advantage"), ("height", "Height advantage")):
        act = menu.addAction(text)
        act.setCheckable(True)
        on = tok.melee_position if key == "position" else tok.melee_height
        act.setChecked(on)
        act.setToolTip("000 Determining Advantage: +1 to the fighter's advantage count")
        factors = {
            "position": tok.melee_position,
            "height": tok.melee_height,
        } | {key: not on}
        act.triggered.connect(
            lambda _=False, kw=factors: window._guarded(
                lambda: doc.apply(MeleeFactors(who=me, **kw))
            )
        )


def install_melee_menu(window) -> QMenu:
    """Encounter ▸ Hand to hand (a submenu filled when opened)."""
    menu = window.encounter_menu.addMenu("&Hand to hand")
    menu.setObjectName("melee_menu")
    menu.aboutToShow.connect(lambda: _fill(window, menu))
    window.melee_menu = menu
    return menu
