"""Players' requests on the Laroq hacienda (issue 39): what a request or the page's
options bring back — the reach and its AP, a refusal, the table's words — tells
nothing of a hex the character has never seen, a figure its page does not show, or
a wall, door or label: the page draws walls without names, so the table's words
call every one of them "cover", and a hex it never saw "somewhere"."""

from __future__ import annotations

import json

import numpy as np

from twtw_desktop.errors import RulesError
from twtw_desktop.geometry import movement
from twtw_desktop.geometry.move_cost import path_cost
from twtw_desktop.hexgrid.layout import offset_label
from twtw_desktop.play.action_base import ref_of
from twtw_desktop.play.actions import StartActionTime, StartRound
from twtw_desktop.play.movement import occupied_hexes, reach_budget
from twtw_desktop.play.player_options import answer_options
from twtw_desktop.play.player_requests import (
    COVER,
    NO_WAY,
    SOMEWHERE,
    PageView,
    RequestDesk,
    scrub,
)

from .conftest import move, sample_table

HACIENDA = "laroq_hacienda.encounter.json"
POSSE = ("jonah_benton", "miranda_valentine", "hank_daggett", "cyril_wellington")


def _page(table, cid: str) -> PageView:
    """What the character's page shows: itself and the figures on hexes it sees now."""
    m = table.map
    now = table.sight.seen(cid, (m.rows, m.cols)).now
    aliases = {}
    for i, t in enumerate(table.encounter.tokens):
        col, row = m.offset(t.at)
        if t.character_id == cid or now[row, col]:
            aliases[f"t{i + 1}"] = t.id
    return PageView(cid, aliases, frozenset({f"token-{cid}"}))


def test_the_reach_walks_only_hexes_the_character_has_seen():
    """A hex the character has seen but reaches only through hexes it never saw is
    not in its page's reach, and no AP in the reach is cheaper than a walk over seen
    hexes: either would tell of a way the page does not show."""
    table = sample_table(HACIENDA)
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.sight.look(table)
    m = table.map
    leaked = 0
    for cid in POSSE:
        tok = table.encounter.token_for(cid)
        c = table.character(cid)
        ever = table.sight.seen(cid, (m.rows, m.cols)).ever
        budget, counters = reach_budget(table, cid)
        now = counters if counters is not None else budget
        occupied = occupied_hexes(table, tok.id)
        everywhere = movement.reachable(
            m, table.walls(), tok.at, tok.facing, budget, now, c.move, occupied
        )
        blind = [m.hex_at(int(col), int(row)) for row, col in np.argwhere(~ever)]
        seen_only = movement.reachable(
            m, table.walls(), tok.at, tok.facing, budget, now, c.move, [*occupied, *blind]
        )
        hexes, costs = seen_only.costs()
        walk = {ref_of(table, h): int(a) for h, a in zip(hexes, costs.tolist(), strict=True)}
        hexes, costs = everywhere.costs()
        told = [
            (ref_of(table, h), int(a))
            for h, a in zip(hexes, costs.tolist(), strict=True)
            if ever[m.offset(h)[1], m.offset(h)[0]] and h != tok.at
        ]
        hidden_ways = [(ref, a) for ref, a in told if walk.get(ref) != a]
        leaked += len(hidden_ways)
        sent = answer_options(table, 1, _page(table, cid), {})
        reach = {(col, row): ap for col, row, ap in sent["options"]["reach"]}
        assert reach == {ref: a for ref, a in walk.items() if ref != ref_of(table, tok.at)}
        raw = json.dumps(sent)
        for (col, row), _a in hidden_ways:
            if (col, row) not in walk:
                assert f"[{col}, {row}, " not in raw
    # the hacienda has such hexes at the start of the fight (Miranda's, Cyril's)
    assert leaked > 0


def test_a_move_onto_a_figure_the_page_does_not_show_is_refused_as_no_way_there():
    """A hex the character saw before, where a figure now stands out of its sight:
    the refusal is the table's words for a hex it finds no way to — not the figure's
    name, and not "someone stands there"."""
    table = sample_table(HACIENDA)
    table.sight.look(table)
    m = table.map
    cid = "hank_daggett"
    seen = table.sight.seen(cid, (m.rows, m.cols))
    # a hex it saw and does not see now; else one in sight where the figure is
    # hidden from it all the same
    where = seen.ever & ~seen.now if (seen.ever & ~seen.now).any() else seen.ever
    spot = next(
        m.hex_at(int(col), int(row))
        for row, col in np.argwhere(where)
        if table.encounter.token_at(m.hex_at(int(col), int(row))) is None
    )
    page = _page(table, cid)
    hombre = next(t for t in table.encounter.tokens if t.character_id == "angus_laroq")
    move(table, hombre.id, spot.q, spot.r)
    page = PageView(cid, {a: t for a, t in page.aliases.items() if t != hombre.id}, page.named)
    col, row = ref_of(table, spot)
    reply = RequestDesk(table.apply).receive(table, 1, page, {"do": "move", "to": [col, row]})
    assert reply == {"request": 1, "status": "refused", "why": NO_WAY}
    assert "Angus" not in json.dumps(reply) and "someone" not in reply["why"].lower()


def test_the_table_s_words_name_no_wall_door_label_or_unseen_hex():
    """A path's refusal from the table's own geometry, through a wall on hexes the
    character has never seen, names the wall (its id), both hexes (axial q,r) and
    their labels; scrubbed for the page, it names none of them. A Judge-only label's
    text, or one on an unseen hex, is "somewhere"."""
    table = sample_table(HACIENDA)
    table.sight.look(table)
    m = table.map
    cid = "jonah_benton"
    ever = table.sight.seen(cid, (m.rows, m.cols)).ever
    walls = table.walls()
    step = None
    for row, col in np.argwhere(~ever):
        a = m.hex_at(int(col), int(row))
        for d in range(6):
            b = a.neighbor(d)
            blind = m.contains(b) and not ever[m.offset(b)[1], m.offset(b)[0]]
            if blind and walls.movement_blocked(a, b) is not None:
                step = (a, b)
                break
        if step:
            break
    assert step is not None
    a, b = step
    wall = next(f for f in m.features if f.id == walls.movement_blocked(a, b))
    try:
        path_cost(m, walls, a, 0, [a, b], 2)
    except RulesError as e:
        words = str(e)
    assert wall.id in words and f"{a.q},{a.r}" in words
    labels = [offset_label(h, m.orientation) for h in (a, b)]
    text = f"{words} {wall.name} by {labels[0]}; {labels[1]}."
    hidden = [lab.text for lab in m.labels if lab.judge_only]
    text += " " + "; ".join(hidden)
    out = scrub(table, _page(table, cid), text)
    for told in (wall.id, wall.name, f"{a.q},{a.r}", f"{b.q},{b.r}", *labels, *hidden):
        assert told not in out, (told, out)
    assert COVER in out and SOMEWHERE in out
