"""What a posse character's page may offer its player now (issue 39): each action
with its AP cost and, where the table would refuse it, the table's reason — worked
out on the thread that owns the table, from the table, and cut to what that page
shows (:class:`~twtw_desktop.play.player_requests.PageView`). The browser never
computes a cost or a reason itself, and is never sent anything it could not see.

:func:`options` gives, as plain JSON:

* ``actions``: ``[{"label", "declare", "ap", "why"}]`` — each action of the page's
  list (:data:`~twtw_desktop.play.player_requests.FIELDS`) that needs no hex or
  target: draw / ready, cock, reload (each weapon carried), the postures, a turn,
  pass; in the Phases edition's action time the round's speed (Quick, Half, Full)
  and the phase to act in; ``declare`` is what the page sends to ask for it (its journal form, as the
  page names things); ``why`` is None when the table would take it now.
* ``reach``: ``[[col, row, ap], …]`` — the hexes the character could walk to (the
  reach area the window's overlay shows) through hexes it has seen, with their AP:
  a hex reached only (or more cheaply) through hexes it has never seen would tell
  of them, so the reach walks its seen hexes alone (the table may still take a
  move there; its answer's words go through :func:`scrub`).
* ``targets``: ``{alias: {"tn", "tn_items", "ap", "ap_items", "why", "declare"}}`` —
  a normal shot at the figure the page asked about (``{"options": {"target":
  alias}}``, one the page shows, not the character itself), as the Attack panel
  prices it, with the table's words scrubbed of what the page does not
  name.
* ``wait``: the most counters the character may wait for this round (AP v2 action
  time), or absent.
* ``turn``: ``{"able", "bid"}`` — what the run waits for from this character now
  (:func:`turn`): able to act with nothing declared (the page offers its actions and
  **Pass**), or offered AP from the pool for the stack (``actions`` then holds
  "No bid" and "Bid N AP for the stack", ``{"do": "stack_bonus", "ap": N}``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RulesError
from ..geometry import movement
from .action_base import ref_of
from .actions import parse_action
from .declarations import cost_of, segments
from .movement import occupied_hexes, reach_budget
from .player_requests import NoBid, PageView, Refused, check, scrub
from .table import Table

#: hexes of the reach area sent at most (the nearest first)
MAX_REACH = 400


def _entry(table: Table, view: PageView, label: str, declare: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label, "declare": declare, "ap": None, "why": None}
    if declare["do"] == "stack_bonus":  # the AP it spends from the pool, not counters
        out["ap"] = declare["ap"]
        try:
            check(table, view, declare)
        except Refused as e:
            out["why"] = str(e)
        return out
    try:
        action = check(table, view, declare)
    except Refused as e:
        out["why"] = str(e)
        try:
            line = dict(declare, who=view.character_id)
            out["ap"] = cost_of(table, parse_action(line))
        except (RulesError, ValueError, KeyError):
            pass
        return out
    if isinstance(action, NoBid):
        return out
    inner = getattr(action, "inner", None)
    try:
        out["ap"] = cost_of(table, inner() if callable(inner) else action)
    except (RulesError, ValueError, KeyError):
        out["ap"] = None
    return out


def _actions(table: Table, view: PageView) -> list[dict[str, Any]]:
    c = table.character(view.character_id)
    gear = table.gear.weapons
    out = []
    for i, cw in enumerate(c.weapons):
        w = gear.get(cw.weapon_id)
        if w is None:
            continue
        pick = {"weapon": cw.weapon_id, "slot": i}
        if not cw.readied:
            out.append(_entry(table, view, f"Draw the {w.name}", {"do": "draw", **pick}))
            continue
        if w.cock_ap is not None and not cw.cocked:
            out.append(_entry(table, view, f"Cock the {w.name}", {"do": "cock", **pick}))
        if w.capacity and cw.loaded < w.capacity:
            out.append(_entry(table, view, f"Reload the {w.name}", {"do": "reload", **pick}))
    posture = str(getattr(c.posture, "value", c.posture))
    if posture == "prone":
        out.append(_entry(table, view, "Stand up", {"do": "stand_up"}))
    else:
        out.append(_entry(table, view, "Drop prone", {"do": "drop_prone"}))
    if posture == "ducked":
        out.append(_entry(table, view, "Emerge from cover", {"do": "emerge"}))
    else:
        out.append(_entry(table, view, "Duck behind cover", {"do": "duck"}))
    tok = table.encounter.token_for(c.id)
    if tok is not None:
        f = int(tok.facing)
        out.append(_entry(table, view, "Turn left", {"do": "face", "facing": (f + 1) % 6}))
        out.append(_entry(table, view, "Turn right", {"do": "face", "facing": (f + 5) % 6}))
        out.append(_entry(table, view, "Turn about", {"do": "face", "facing": (f + 3) % 6}))
    if segments(table):
        out.append(_entry(table, view, "Pass", {"do": "pass"}))
        room = dict(table.track.bonus_bidders(offered=True)).get(view.character_id, 0)
        if room:  # 000 Determine Bonus: the offer of AP from the pool for the stack
            out.append(_entry(table, view, "No bid", {"do": "stack_bonus", "ap": 0}))
            for ap in range(1, room + 1):
                bid = {"do": "stack_bonus", "ap": ap}
                out.append(_entry(table, view, f"Bid {ap} AP for the stack", bid))
    if table.in_action and table.time is not None and table.time.kind == "phases":
        # 004 Declaring Actions: the round's speed, then the phase to act in
        for speed, word in (("fast", "Quick"), ("normal", "Half"), ("slow", "Full")):
            out.append(_entry(table, view, f"Declare {word}", {"do": "declare", "speed": speed}))
        for phase in range(1, 5):
            out.append(
                _entry(table, view, f"Act in phase {phase}", {"do": "choose_phase", "phase": phase})
            )
    return out


def _reach(table: Table, view: PageView) -> list[list[int]]:
    tok = table.encounter.token_for(view.character_id)
    c = table.character(view.character_id)
    if tok is None or c.move <= 0:
        return []
    budget, counters = reach_budget(table, c.id)
    now = counters if counters is not None else budget
    m = table.map
    ever = view.ever(table)
    # walked through seen hexes alone: an AP through hexes never seen would tell of
    # a way (or a wall) the page does not show
    unseen = [m.hex_at(int(col), int(row)) for row, col in np.argwhere(~ever)]
    try:
        area = movement.reachable(
            m, table.walls(), tok.at, tok.facing, budget, now, c.move,
            [*occupied_hexes(table, tok.id), *unseen],
        )  # fmt: skip
    except RulesError:
        return []
    hexes, costs = area.costs()
    out = []
    for h, cost in sorted(zip(hexes, costs.tolist(), strict=True), key=lambda x: x[1]):
        if h == tok.at:
            continue
        col, row = ref_of(table, h)
        out.append([col, row, int(cost)])
        if len(out) >= MAX_REACH:
            break
    return out


def _targets(table: Table, view: PageView, asked: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for alias, tid in view.aliases.items():
        if alias != asked or table.token(tid).character_id == view.character_id:
            continue
        declare = {"do": "normal_shot", "target": alias, "draw_first": True}
        entry: dict[str, Any] = {"declare": declare, "why": None}
        try:
            action = check(table, view, declare)
            # in action time the request is the shot declared when able: priced as
            # the shot itself, as the Attack panel prices it
            inner = getattr(action, "inner", None)
            p = table.preview(inner() if callable(inner) else action)
        except Refused as e:
            entry["why"] = str(e)
            out[alias] = entry
            continue
        if isinstance(p, dict):
            for k in ("tn", "ap"):
                if p.get(k) is not None:
                    entry[k] = int(p[k])
            for k in ("tn_items", "ap_items"):
                entry[k] = [scrub(table, view, str(x)) for x in p.get(k) or ()]
            if p.get("why_not") and not callable(inner):  # (declared: the table took it)
                entry["why"] = scrub(table, view, str(p["why_not"]))
        out[alias] = entry
    return out


def options(table: Table, view: PageView, target: Any = None) -> dict[str, Any]:
    """The page's options now (see the module docstring); ``targets`` holds the shot
    at ``target`` (an alias on the page) alone — a shot is priced when the player
    taps a figure, not for every figure after every step."""
    out: dict[str, Any] = {
        "actions": _actions(table, view),
        "reach": _reach(table, view),
        "targets": _targets(table, view, target),
    }
    if segments(table):
        row = table.track.row(view.character_id)
        out["wait"] = int(row.counters + row.pool)
    out["turn"] = turn(table, view.character_id)
    return out


def turn(table: Table, character_id: str) -> dict[str, Any]:
    """What the run waits for from this character now (AP v2 action time): ``able``,
    it may act on this segment with nothing declared (000 Action Timing: declare,
    or pass); ``bid``, the most AP from the pool it is offered to spend for the
    segment's stack (000 Determine Bonus), 0 when none."""
    if not segments(table):
        return {"able": False, "bid": 0}
    t = table.track
    return {
        "able": character_id in t.pending_declarers(),
        "bid": int(dict(t.bonus_bidders(offered=True)).get(character_id, 0)),
    }


def answer_options(table: Table, n: int, view: PageView, asked: Any) -> dict[str, Any]:
    """The answer to a page's ``{"options": {}}`` or ``{"options": {"target": alias}}``:
    ``{"options": {...}, "asked": n}``."""
    target = asked.get("target") if isinstance(asked, dict) else None
    return {"options": options(table, view, target), "asked": n}


__all__ = ["MAX_REACH", "answer_options", "options", "turn"]
