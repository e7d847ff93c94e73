"""Players' requests (issue 39): a posse character's page asks for a table action, the
Judge approves it. Checked on the thread that owns the table, never on the devices
service's.

A page sends ``{"declare": <a table action in its journal form>}``; the service hands
it over with a :class:`PageView`, what that page shows at that moment (its own
character, the aliases of the tokens it sees, the ones it names). :func:`check`
then turns it into the table's own action, or a refusal:

* **Only what a player would say across the table**: the actions of
  :data:`FIELDS`, each with the fields listed there (anything else is refused).
* **Only for its own character**: ``who`` is ``"me"`` or the page's own alias.
* **Only what the page shows.** A token is named by its alias on that page; a
  token it does not show — by its real id, another page's alias, another
  character, or a guess — is refused with :data:`NO_FIGURE`, the very words of a
  figure that does not exist. A hex the character has never seen (this session,
  :class:`~twtw_desktop.play.seen.SightRecord`) is refused with :data:`NO_HEX`, the
  words of a hex off the map.
* **The player's own choices at the run's stops**: ``pass`` (000 Action Timing: able
  with nothing declared, the character declares nothing) and ``stack_bonus`` (000
  Determine Bonus: AP from the pool for the stack, spent now, never declared to be
  made when able); ``{"do": "stack_bonus", "ap": 0}`` is :class:`NoBid`, the offer
  answered with no AP (it changes nothing at the table).
* **Checked like any action**: parsed by :func:`~twtw_desktop.play.actions.parse_action`
  (the journal's parser), and asked ``why_not`` through the table; in AP v2 action
  time the action is declared the way the window does (``when_able``).
* **A refusal tells nothing the page does not show** (:func:`scrub`): every name and
  id of a figure the page does not name is replaced by its alias on the page, or by
  "someone"; every wall, door or window (the page draws walls, never their names or
  ids) by :data:`COVER`; a label the page does not show, and a hex the character has
  never seen (by its label or its axial ``q,r``), by :data:`SOMEWHERE`.

:class:`RequestDesk` holds the requests waiting for the Judge (or approves them at
once when "approve the posse's requests" is on) and makes the answers
``{"request": N, "status": "waiting" | "approved" | "refused", "why": text}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from ..geometry.hexcut import point_in
from ..hexgrid import Hex
from ..hexgrid.layout import offset_label
from .actions import Action, parse_action
from .declarations import WhenAble, segments
from .seen import Seen
from .table import Table

#: the words of a refusal for a token the page does not show
NO_FIGURE = "There is no figure {name} on your map."
#: the words of a refusal for a hex the character has never seen (or off the map)
NO_HEX = "There is no hex {ref} on your map."
#: what a wall, door or window is called on a page (it never shows their names)
COVER = "cover"
#: what a hex or label the page does not show is called
SOMEWHERE = "somewhere"
#: a hex in a table's words: axial "q,r" (a path's steps), or its label ("0412")
_AXIAL = re.compile(r"(?<![\w.\[-])(-?\d{1,4}),\s?(-?\d{1,4})(?![\w\]]|\.\d)")
_LABEL = re.compile(r"(?<![\w.-])(\d{4,8})(?![\w]|\.\d)")
#: the words of a refusal for a hex where a figure the page does not show stands: the
#: table's own for a hex it finds no way to (play/movement.py), so that a refusal
#: does not tell of the figure
NO_WAY = "No way there (walls, water or other figures)."
#: requests one page may have waiting for the Judge at once
MAX_WAITING = 8

_WEAPON = ("weapon", "slot")
#: the actions a page may ask for -> the fields it may give (``who`` is always the
#: page's own character; tokens in ``target``; hexes in ``to`` and ``toward``)
FIELDS: dict[str, tuple[str, ...]] = {
    "move": ("to",),
    "run": ("to",),
    "face": ("facing",),
    "drop_prone": (),
    "stand_up": (),
    "duck": (),
    "emerge": (),
    "draw": _WEAPON,
    "ready": _WEAPON,
    "cock": _WEAPON,
    "reload": _WEAPON,
    "aim": ("target", "weapon"),
    "snap_shot": ("target", *_WEAPON, "cock_first", "draw_first"),
    "normal_shot": ("target", *_WEAPON, "cock_first", "draw_first"),
    "aimed_shot": ("target", *_WEAPON, "aims", "cock_first", "draw_first"),
    "wait_until": ("counters",),
    "pass": (),
    "stack_bonus": ("ap",),
    "when_able": ("then",),
    "declare": ("speed",),
    "set_speed": ("speed", "facing", "toward"),
    "choose_phase": ("phase",),
}
#: what a page may ask for now, not declared to be made when able: a pass, a
#: declaration's own steps, and AP from the pool for the stack (000 Determine Bonus:
#: spent before the cards flip)
NOT_DECLARED = ("pass", "when_able", "wait_until", "stack_bonus")
#: fields naming a token, and fields naming a hex [column, row]
TOKEN_FIELDS = ("target",)
HEX_FIELDS = ("to", "toward")


class Refused(Exception):
    """A request the table will not take, with the words the page is shown."""


@dataclass(frozen=True)
class PageView:
    """What one page shows, as the service had it when the request came."""

    #: the page's character
    character_id: str
    #: alias on the page -> token id, for every token the page shows
    aliases: dict[str, str]
    #: token ids the page shows with their names
    named: frozenset[str] = frozenset()
    #: the character's sight record, copied when the table is copied to be asked on
    #: another thread (None: the table's own record, read on the table's thread)
    seen: Seen | None = None

    def ever(self, table: Table) -> Any:
        """The hexes the character has seen this session, ``(rows, cols)``."""
        m = table.map
        if self.seen is not None and self.seen.ever.shape == (m.rows, m.cols):
            return self.seen.ever
        return table.sight.seen(self.character_id, (m.rows, m.cols)).ever

    def own_aliases(self, table: Table) -> set[str]:
        return {
            a
            for a, tid in self.aliases.items()
            if any(
                t.id == tid and t.character_id == self.character_id for t in table.encounter.tokens
            )
        }


def _quoted(x: object) -> str:
    s = str(x)
    return "'" + (s[:40] + "…" if len(s) > 40 else s) + "'"


def _ref(x: object) -> str:
    if isinstance(x, list | tuple) and len(x) == 2:
        return f"[{str(x[0])[:8]}, {str(x[1])[:8]}]"
    return _quoted(x)


def _hex_seen(table: Table, view: PageView, ref: object) -> bool:
    if not (isinstance(ref, list | tuple) and len(ref) == 2):
        return False
    col, row = ref
    if not (isinstance(col, int) and isinstance(row, int)) or isinstance(col, bool):
        return False
    m = table.map
    if not (1 <= col <= m.cols and 1 <= row <= m.rows):
        return False
    return bool(view.ever(table)[row - 1, col - 1])


def translate(table: Table, view: PageView, declare: Any, depth: int = 0) -> dict[str, Any]:
    """The request's action with the table's own ids (Refused when the page may not ask
    for it, with words that tell nothing the page does not show)."""
    if not isinstance(declare, dict):
        raise Refused('A request is {"declare": an action}, the action a JSON object.')
    do = declare.get("do")
    if not isinstance(do, str) or do not in FIELDS:
        raise Refused(f"A player cannot ask for {_quoted(do)} (ask the Judge).")
    if depth > 0 and do in ("when_able", "pass", "wait_until"):
        raise Refused('"then" is the action to take, not another declaration.')
    allowed = FIELDS[do]
    out: dict[str, Any] = {"do": do}
    who = declare.get("who", "me")
    if who != "me" and (not isinstance(who, str) or who not in view.own_aliases(table)):
        raise Refused(NO_FIGURE.format(name=_quoted(who)))
    for k, v in declare.items():
        if k in ("do", "who"):
            continue
        if k not in allowed:
            raise Refused(f"{do}: a player's request has no field {_quoted(k)}.")
        if k in TOKEN_FIELDS:
            if not isinstance(v, str) or v not in view.aliases:
                raise Refused(NO_FIGURE.format(name=_quoted(v)))
            out[k] = view.aliases[v]
        elif k in HEX_FIELDS:
            if not _hex_seen(table, view, v):
                raise Refused(NO_HEX.format(ref=_ref(v)))
            out[k] = v
        elif k == "then":
            out[k] = translate(table, view, v, depth + 1)
        elif k == "ap" and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise Refused(f"{do}: ap is a whole number of AP (0: no bid).")
        else:
            out[k] = v
    if do == "pass":
        out["who"] = [view.character_id]
    else:
        out["who"] = view.character_id
    return out


@dataclass(frozen=True)
class NoBid:
    """A player's answer to the offer of AP from the pool for the stack (000 Determine
    Bonus: "each player … may spend AP from their pool"): none. It changes nothing at
    the table; the Judge's window reads it as the offer answered (the run goes on by
    itself once every phone offered has answered). A page asks for it as
    ``{"do": "stack_bonus", "ap": 0}``."""

    who: str
    do: str = "no_bid"

    def label(self, table: Table) -> str:
        return f"{table.character(self.who).name}: no AP for the stack"

    def why_not(self, table: Table) -> str | None:
        if self.who not in dict(table.track.bonus_bidders(offered=True)):
            name = table.character(self.who).name
            return f"{name} is not offered AP from the pool for the stack now."
        return None


def check(table: Table, view: PageView, declare: Any) -> Action | NoBid:
    """The table action a request asks for, legal now (Refused otherwise, scrubbed);
    a bid of no AP is :class:`NoBid`."""
    line = translate(table, view, declare)
    _hidden_there(table, view, line)
    if line["do"] == "stack_bonus" and line.get("ap") == 0 and segments(table):
        no = NoBid(view.character_id)
        why = no.why_not(table)
        if why is not None:
            raise Refused(scrub(table, view, why))
        return no
    try:
        action = parse_action(line)
        if segments(table) and line["do"] not in NOT_DECLARED:
            action = WhenAble(who=view.character_id, then=action.journal_form())
    except ValueError as e:
        raise Refused(scrub(table, view, str(e))) from None
    why = table.why_not(action)
    if why is not None:
        raise Refused(scrub(table, view, why))
    return action


def _hidden_there(table: Table, view: PageView, line: dict[str, Any]) -> None:
    """Refused with :data:`NO_WAY` when the hex a move asks for (its own or under
    ``then``) holds a figure the page does not show: the table's words would name
    it, or say that someone stands there."""
    then = line.get("then")
    if isinstance(then, dict):
        _hidden_there(table, view, then)
    to = line.get("to")
    if line.get("do") not in ("move", "run") or not isinstance(to, list | tuple):
        return
    other = table.encounter.token_at(table.map.hex_at(int(to[0]) - 1, int(to[1]) - 1))
    shown = set(view.aliases.values())
    if other is None or other.id in shown or other.riding in shown:
        return
    if table.token(other.id).character_id != view.character_id:
        raise Refused(NO_WAY)


def scrub(table: Table, view: PageView, text: str) -> str:
    """``text`` with every name and id the page does not show replaced by the figure's
    alias on the page, or "someone"."""
    alias_of = {tid: a for a, tid in view.aliases.items()}
    enc = table.encounter
    swaps: list[tuple[str, str]] = []
    for c in enc.characters:
        toks = [t.id for t in enc.tokens if t.character_id == c.id]
        shown = [alias_of[t] for t in toks if t in alias_of]
        instead = shown[0] if shown else "someone"
        if c.id != view.character_id and not any(t in view.named for t in toks):
            swaps.append((c.name, instead))
        swaps.append((c.id, instead))
        swaps += [(t, alias_of.get(t, instead)) for t in toks]
    m = table.map
    ever = view.ever(table)
    for f in m.features:
        swaps += [(f.id, COVER), (f.name, COVER)]
    for lab in m.labels:
        if lab.judge_only or not point_in(m, ever, *lab.at):
            swaps.append((lab.text, SOMEWHERE))
    swaps.sort(key=lambda s: -len(s[0]))
    for old, new in swaps:
        if old.strip():
            text = re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", new, text)
    return _unseen_hexes(table, ever, text)


def _unseen_hexes(table: Table, ever: Any, text: str) -> str:
    """``text`` with every hex of the map the character has never seen, named by its
    axial ``q,r`` or by its label, replaced by :data:`SOMEWHERE`."""
    m = table.map

    def unseen(h: Hex) -> bool:
        if not m.contains(h):
            return False
        col, row = m.offset(h)
        return not bool(ever[row, col])

    def axial(mt: re.Match[str]) -> str:
        return SOMEWHERE if unseen(Hex(int(mt[1]), int(mt[2]))) else mt[0]

    text = _AXIAL.sub(axial, text)
    if _LABEL.search(text) is None:
        return text
    hexes = {offset_label(m.hex_at(c, r), m.orientation): (r, c) for r in range(m.rows)
             for c in range(m.cols)}  # fmt: skip

    def label(mt: re.Match[str]) -> str:
        at = hexes.get(mt[1])
        return SOMEWHERE if at is not None and not ever[at] else mt[0]

    return _LABEL.sub(label, text)


@dataclass
class Request:
    """One request waiting for the Judge."""

    n: int
    view: PageView
    action: Action | NoBid
    #: what it asks, as the Judge reads it (the table's own label)
    label: str


def answer(n: int, status: str, why: str = "") -> dict[str, Any]:
    return {"request": n, "status": status, "why": why}


@dataclass
class RequestDesk:
    """The requests waiting for the Judge, on the table's thread.

    ``apply`` makes an approved action a table step (the window's undoable route, or
    the table's own ``apply`` without a window); it raises RulesError when the
    action is no longer legal, and the request is then refused with those words."""

    apply: Callable[[Action], Any]
    #: "approve the posse's requests" for this fight: applied as they come
    approve_all: bool = False
    waiting: dict[int, Request] = field(default_factory=dict)
    #: called after the waiting requests changed (the window's track shows them)
    on_change: Callable[[], None] | None = None
    #: (round, segment, character id) of each offer of AP for the stack answered by
    #: an approved bid or "no bid" (this segment's only)
    answered: set[tuple[int, int, str]] = field(default_factory=set)

    def receive(self, table: Table, n: int, view: PageView, declare: Any) -> dict[str, Any]:
        """Check a page's request: its answer (waiting, approved at once, or refused)."""
        mine = sum(1 for r in self.waiting.values() if r.view.character_id == view.character_id)
        if mine >= MAX_WAITING:
            return answer(n, "refused", f"You have {mine} requests waiting for the Judge already.")
        try:
            action = check(table, view, declare)
        except Refused as e:
            return answer(n, "refused", str(e))
        req = Request(n, view, action, action.label(table))
        if self.approve_all:
            return self._apply(table, req)
        self.waiting[n] = req
        self._changed()
        return answer(n, "waiting", scrub(table, view, req.label))

    def _apply(self, table: Table, req: Request) -> dict[str, Any]:
        try:
            if isinstance(req.action, NoBid):
                why = req.action.why_not(table)
                if why is not None:
                    raise RulesError(why)
            else:
                self.apply(req.action)
        except RulesError as e:
            return answer(req.n, "refused", scrub(table, req.view, str(e)))
        if req.action.do in ("stack_bonus", "no_bid"):
            at = (table.track.state.round, table.track.state.segment)
            self.answered = {a for a in self.answered if a[:2] == at}
            self.answered.add((*at, req.view.character_id))
        return answer(req.n, "approved", scrub(table, req.view, req.label))

    def unanswered_offers(self, table: Table) -> list[str]:
        """Who is offered AP from the pool for this segment's stack and has not
        answered it from their page (an approved bid or "no bid")."""
        st = table.track.state
        return [
            cid
            for cid, _room in table.track.bonus_bidders(offered=True)
            if (st.round, st.segment, cid) not in self.answered
        ]

    def approve(self, table: Table, n: int) -> dict[str, Any] | None:
        """Approve request ``n`` (its answer; None when it is not waiting)."""
        req = self.waiting.pop(n, None)
        if req is None:
            return None
        out = self._apply(table, req)
        self._changed()
        return out

    def approve_every(self, table: Table) -> list[dict[str, Any]]:
        """Approve every request waiting, oldest first."""
        out = []
        for n in sorted(self.waiting):
            a = self.approve(table, n)
            if a is not None:
                out.append(a)
        return out

    def refuse(self, n: int, why: str) -> dict[str, Any] | None:
        """The Judge refuses request ``n``, with a reason the phone shows."""
        req = self.waiting.pop(n, None)
        if req is None:
            return None
        self._changed()
        return answer(n, "refused", why.strip() or "The Judge refused.")

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
