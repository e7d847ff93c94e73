"""The track's drop-down menus: each entry tried on the engine first, so a disabled one says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QInputDialog,
    QMenu,
    QTableWidget,
)

from ....errors import RulesError
from ....play.catalogue import catalogue
from ....play.track_actions import (
    DeclareAction,
    FreeAction,
    JoinStack,
    Rush,
    StackBonus,
)
from ....rules import actions as A
from ....rules.action_track import QUICK_DRAW_TN
from ....rules.character import Character
from ....rules.timecommon import surprise_tn
from .dialogs import ModifiersDialog
from .host import TrackHost


def _escape_ampersands(menu: QMenu) -> None:
    for act in menu.actions():
        text = act.text()
        if "&" in text and "&&" not in text:
            act.setText(text.replace("&", "&&"))
        sub = act.menu()
        if isinstance(sub, QMenu):
            _escape_ampersands(sub)


def _ap_cost(spec: A.ActionSpec) -> str:
    """What ``spec`` costs, as a menu line shows it."""
    return "all AP" if spec.all_ap else f"{spec.ap} AP"


def _short(reason: str) -> str:
    """An engine refusal trimmed for a menu line (the whole sentence is the tooltip)."""
    return reason.removesuffix(".").removesuffix("; nothing was removed")


def _quick_draw_pool(track, c: Character) -> str:
    """The Quick Draw pool the track will read for ``c`` (000 Determine Bonus)."""
    pool = getattr(track, "_quick_draw_pool", None)
    try:
        return str(pool(c)) if callable(pool) else f"{c.quick_draw} dice"
    except (RulesError, ValueError):
        return "—"


#: more entries for a row's menu, from outside the track: ``hook(document, character
#: id, parent) -> [QAction]`` (the autopilot's "plan this NPC's round")
ROW_MENU_EXTRAS: list = []


def _row_menu(panel: TrackHost, table: QTableWidget, pos) -> None:
    menu = QMenu(table)
    for act in panel.row_menu_actions(table, pos, menu):
        menu.addAction(act)
    if menu.actions():
        menu.exec(table.viewport().mapToGlobal(pos))


def row_menu_actions(panel: TrackHost, table: QTableWidget, pos, parent) -> list:
    """A row's menu: hide its character's token from the players or reveal it,
    and the Judge's override."""
    from ...menus.token_menu import token_menu_actions  # lazy: the menu's dialogs on first use

    r = table.rowAt(pos.y())
    if not 0 <= r < len(panel._row_ids):
        return []
    cid = panel._row_ids[r]
    tok = panel.document.token_for(cid)
    acts = token_menu_actions(parent, panel.document, tok.id if tok else None, cid)
    extra = [a for hook in ROW_MENU_EXTRAS for a in hook(panel.document, cid, parent)]
    return panel._declaration_actions(cid, parent) + acts + extra


def _declaration_actions(panel: TrackHost, cid: str, parent) -> list:
    """AP v2: a row's standing declaration — pass, wait until N counters, or drop
    what is declared (000 Action Timing). Phases: a free action (004 Free Actions)."""
    from PySide6.QtGui import QAction

    t = panel.track
    if t is None or not panel.document.table.time.round_running():
        return []
    out = []
    name = panel.document.character(cid).name
    if panel.phases:
        why = panel._why(FreeAction(who=cid))
        act = QAction(
            f"{name}: a free action (talk, signal, drop)…" + (f"  ({_short(why)})" if why else ""),
            parent,
        )
        act.setToolTip("004 Free Actions: one a round on top of the declaration; more are Quick")
        act.setEnabled(not why)
        act.triggered.connect(lambda: panel.free_action(cid))
        return [act]
    if cid in t.pending_declarers():
        act = QAction(f"{name} passes this segment", parent)
        act.triggered.connect(lambda: panel.pass_turn([cid]))
        out.append(act)
    act = QAction(f"{name} waits until N counters…", parent)
    act.triggered.connect(lambda: panel.wait_until(cid))
    out.append(act)
    if t.state.standing.get(cid):
        act = QAction(f"{name}: drop the standing declaration", parent)
        act.triggered.connect(lambda: panel.clear_standing(cid))
        out.append(act)
    return out


def _build_declare_menu(panel: TrackHost) -> None:
    m = panel.declare_menu
    cid = panel._menu_head(m)
    t = panel.track
    if cid is None:
        return
    c = panel.document.character(cid)
    counters = None
    row = None
    if t is not None and hasattr(t, "row"):
        try:
            row = t.row(cid)
            counters = getattr(row, "counters", None)
        except RulesError:
            row = None
    head = f"{c.name}: {counters} counter(s) on the track" if counters is not None else c.name
    m.addSection(head)
    panel._fill_actions(
        m,
        cid,
        _ap_cost,
        lambda s: panel._why(DeclareAction(who=cid, declared=s)),
        panel.declare,
        reason_tip=False,
    )
    other = m.addAction("Other action (the Judge's cost)…")
    other.triggered.connect(lambda: panel._declare_other(cid))


def _declare_other(panel: TrackHost, cid: str) -> None:
    label, ok = QInputDialog.getText(panel.widget, "Other action", "What does the character do?")
    if not ok or not label.strip():
        return
    ap, ok = QInputDialog.getInt(panel.widget, "Other action", "AP it costs:", 1, 0, 40)
    if ok:
        panel.declare(cid, A.other_action(label.strip(), ap))


def _fill_actions(
    panel: TrackHost,
    menu: QMenu,
    cid: str,
    cost: Callable[[A.ActionSpec], str],
    refusal: Callable[[A.ActionSpec], str],
    go: Callable[[str, A.ActionSpec], bool],
    reason_tip: bool = True,
) -> None:
    """The action catalogue as submenus, each entry with its cost, disabled with
    ``refusal``'s reason ("" when the step would be accepted: :meth:`_why` asks
    the table); with ``reason_tip`` that reason also closes the tooltip."""
    groups: dict[str, QMenu] = {}
    for entry in catalogue(panel.document, panel.document.character(cid)):
        sub = groups.get(entry.group)
        if sub is None:
            sub = menu.addMenu(entry.group)
            sub.setToolTipsVisible(True)
            groups[entry.group] = sub
        if entry.spec is None:
            act = sub.addAction(f"{entry.label} — {entry.why}")
            act.setEnabled(False)
            continue
        spec = entry.spec
        why = refusal(spec)
        act = sub.addAction(f"{entry.label} — {cost(spec)}" + (f"  ({why})" if why else ""))
        tip = [f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown]
        act.setToolTip("\n".join([*tip, why] if why and reason_tip else tip))
        act.setEnabled(not why)
        act.triggered.connect(lambda _=False, s=spec, k=cid: go(k, s))


def _menu_head(panel: TrackHost, menu: QMenu) -> str | None:
    """Clear ``menu`` and return the selected character, or say why there is none."""
    menu.clear()
    cid = panel.selected_character()
    if cid is None:
        menu.addAction("Select a character's row or token first").setEnabled(False)
    return cid


def _note(panel: TrackHost, menu: QMenu, text: str) -> None:
    act = menu.addAction(text)
    act.setEnabled(False)


def _menu_track(
    panel: TrackHost, menu: QMenu, engine_step: str, missing: str
) -> tuple[str, Any] | None:
    """:meth:`_menu_head`, then the track when its engine offers ``engine_step``;
    None (with ``missing`` noted in the menu when the engine lacks it) otherwise."""
    cid = panel._menu_head(menu)
    t = panel.track
    if cid is None:
        return None
    if t is None or not hasattr(t, engine_step):
        panel._note(menu, missing)
        return None
    return cid, t


# -- the initiative stack: joining, rushing, bonuses (AP v2) ---------------------------
def _build_join_menu(panel: TrackHost) -> None:
    m = panel.join_menu
    found = panel._menu_track(
        m, "join_stack", "Joining the stack is part of the AP v2 action track"
    )
    if found is None:
        return
    cid, t = found
    name = panel.document.character(cid).name
    others = [e for e in t.stack() if not e.resolved and e.character_id != cid]
    if not others:
        panel._note(
            m,
            f"No other action waits on the stack of segment {t.current_segment}: declare normally",
        )
        return
    who = ", ".join(dict.fromkeys(t.row(e.character_id).name for e in others))
    head = m.addSection(f"{name} joins {who} on segment {t.current_segment}")
    head.setToolTip(
        "\n".join(f"{t.row(e.character_id).name}: {e.action.describe()}" for e in others)
    )
    panel._fill_actions(
        m,
        cid,
        lambda s: _ap_cost(s) + " + 1 AP to join",
        lambda s: panel._why(JoinStack(who=cid, declared=s)),
        panel.join_stack,
    )


def _build_rush_menu(panel: TrackHost) -> None:
    m = panel.rush_menu
    found = panel._menu_track(m, "rush", "Rushing is part of the AP v2 action track")
    if found is None:
        return
    cid, t = found
    if not panel.document.encounter.options.rushing:
        panel._note(m, "Rushing actions is an optional rule, off for this encounter")
        return
    try:
        counters = t.row(cid).counters
    except RulesError as e:
        panel._note(m, str(e))
        return
    m.addSection(
        f"{panel.document.character(cid).name}: {counters} counter(s), "
        f"{t.row(cid).pool} AP in the pool"
    )

    def cost(spec: A.ActionSpec) -> str:
        extra = max(0, spec.ap - counters)
        if extra == 0:
            return f"{spec.ap} AP, paid from the track: no rush tax"
        return f"{spec.ap} AP: {counters} from the track + {extra} from the pool, rushed by {extra}"

    panel._fill_actions(m, cid, cost, lambda s: panel._why(Rush(who=cid, declared=s)), panel.rush)


def _build_bonus_menu(panel: TrackHost) -> None:
    m = panel.bonus_menu
    found = panel._menu_track(
        m, "quick_draw_check", "The initiative stack is part of the AP v2 action track"
    )
    if found is None:
        return
    cid, t = found
    c = panel.document.character(cid)
    entry = panel.stack_entry(cid)
    if entry is None:
        panel._note(
            m, f"{c.name} has no action waiting on the stack of segment {t.current_segment}"
        )
        return
    head = m.addSection(f"{c.name}: {entry.action.describe()} — bonus {entry.bonus:+d}")
    head.setToolTip(
        "\n".join(f"{b.label} {b.value:+d} ({b.source})" for b in entry.bonus_items())
        or "no bonus yet"
    )
    pool = _quick_draw_pool(t, c)
    qd = m.addAction(f"Quick Draw check — {pool} against TN {QUICK_DRAW_TN}: +1, and +1 a bump")
    why = _short(t.quick_draw_refusal(cid))
    if why:
        qd.setText(f"{qd.text()}  ({why})")
    qd.setEnabled(not why)
    qd.setToolTip("000 Determine Bonus: a calamity gives nothing and bars spending AP")
    qd.triggered.connect(lambda _=False: panel.quick_draw(cid))
    room = max(1, c.quick_draw - entry.bonus_ap)
    for n in range(1, room + 1):
        why = panel._why(StackBonus(who=cid, ap=n))
        act = m.addAction(f"Spend {n} AP from the pool: +{n}" + (f"  ({why})" if why else ""))
        act.setToolTip(
            f"At most the Quick Draw level ({c.quick_draw}) in all; counters lost to "
            "overpaying are not in the pool (000 Determine Bonus)"
        )
        act.setEnabled(not why)
        act.triggered.connect(lambda _=False, n=n: panel.buy_stack_bonus(cid, n))
    m.addSeparator()
    mod = m.addAction(
        f"Gear, wound and environment modifiers… (now {entry.gear_modifier:+d}, "
        f"{entry.environment_modifier:+d})"
    )
    mod.setToolTip("The Judge's numbers for 000 Determine Bonus 1–2 (the page gives none)")
    mod.triggered.connect(lambda _=False: panel._ask_modifiers(cid))


def _ask_modifiers(panel: TrackHost, cid: str) -> None:
    entry = panel.stack_entry(cid)
    dlg = ModifiersDialog(panel.widget, entry)
    if dlg.exec():
        panel.set_stack_modifiers(cid, *dlg.values())


# -- surprise (both editions) -------------------------------------------------------------
def _build_surprise_menu(panel: TrackHost) -> None:
    m = panel.surprise_menu
    m.clear()
    doc = panel.document
    t = panel.track
    # 001 (AP v2) makes every check Standard once action time is under way; 003
    # (Phases) does not: the engine says which
    alert = t is not None and t.round > 0 and t.surprise_alert_in_action_time
    chars = [c for c in doc.encounter.characters if not c.out_of_action]
    if not chars:
        panel._note(m, "Nobody here can be surprised")
        return

    def add(menu: QMenu, ids: list[str], label: str) -> None:
        for expecting in (True, False):
            tn = surprise_tn(doc.edition, expecting, alert)
            why = (
                "expecting danger"
                if expecting
                else (
                    "not expecting (action time is under way)" if alert else "not expecting danger"
                )
            )
            act = menu.addAction(f"{label}{why} — Acuity against TN {tn}")
            act.setToolTip(
                "Failing: no action this round, then an Easy (3) Bravery check before "
                "acting again (001/003 Surprise)"
            )
            act.triggered.connect(lambda _=False, i=list(ids), e=expecting: panel.surprise(i, e))

    cid = panel.selected_character()
    if cid is not None and any(c.id == cid for c in chars):
        c = doc.character(cid)
        acuity = c.traits.get("acuity")
        m.addSection(f"{c.name} (Acuity {acuity or '—'})")
        add(m, [cid], "")
    sides = m.addMenu("A whole side")
    for side in dict.fromkeys(c.side for c in chars):
        ids = [c.id for c in chars if c.side == side]
        add(sides, ids, f"The {side} ({len(ids)}): ")
    others = m.addMenu("Someone else")
    for c in chars:
        add(others.addMenu(c.name), [c.id], "")


# -- continuous movers (both editions) ---------------------------------------------------
def _build_movers_menu(panel: TrackHost) -> None:
    m = panel.movers_menu
    m.clear()
    t = panel.track
    if t is None:
        panel._note(m, "Declare action time first")
        return
    act = m.addAction("Start or change a continuous mover…")
    act.setToolTip(
        "A mount, vehicle or runaway wagon: the round's paces spread over the round "
        "(000 Continuous Action Movement, 002 Continuous Actions)"
    )
    act.triggered.connect(lambda _=False: panel.edit_mover(panel.selected_character()))
    movers = list(t.state.movers)
    if not movers:
        return
    m.addSection("Moving continuously")
    for mv in movers:
        sub = m.addMenu(
            f"{mv.name} — {mv.paces} paces a round" + (" (automated)" if mv.automated else "")
        )
        sub.addAction("Change…").triggered.connect(
            lambda _=False, k=mv.mover_id: panel.edit_mover(k)
        )
        sub.addAction("Stop").triggered.connect(
            lambda _=False, k=mv.mover_id: panel.set_continuous(k, None)
        )


def _build_interrupt_menu(panel: TrackHost) -> None:
    m = panel.interrupt_menu
    found = panel._menu_track(m, "check_preempt", "Interrupting is part of the Phases round (004)")
    if found is None:
        return
    cid, t = found
    try:
        t.check_preempt(cid)
    except RulesError as e:
        panel._note(m, _short(str(e)))
        return
    name = panel.document.character(cid).name
    mine = panel.document.character(cid).traits.get("reflex")
    m.addSection(f"{name} (Reflex {mine or '—'} −2) tries to go before…")
    nxt = t.next_to_act()
    for target in t.preempt_targets(cid):
        other = panel.document.character(target)
        act = m.addAction(other.name + ("  (next to act)" if target == nxt else ""))
        act.setToolTip(
            f"A Reflex contest on one card: {name} {mine or '—'} at −2 against "
            f"{other.name} {other.traits.get('reflex') or '—'}; a tie stays with "
            f"{other.name} (004 Delaying an Action)"
        )
        act.triggered.connect(lambda _=False, k=target: panel.interrupt(cid, k))
