"""Nothing the Judge hides leaves the machine (issue 29): for each Judge-only thing of
the bundled samples — a hidden NPC, a note, a Judge-only label or marker, an NPC out of
a character's sight, the names with "Name the hombres" off — every page's state is the
same with and without it (differential), and no byte served (files, first state and
later changes) contains its ids or text."""

from __future__ import annotations

import json

import pytest

from twtw_desktop.play.visibility import POSSE_SIDE, PlayersOptions, character_viewers
from twtw_desktop.web.state import TABLE_PAGE, FrameMaker, PageBuilder, posse_pages

from .conftest import SAMPLES, all_bytes, move, sample_table, served

NAMES_OFF = PlayersOptions(names=False)


def states(table, options: PlayersOptions | None = None) -> dict[str, str]:
    """Every page's first state, as the bytes that would be sent."""
    frame = FrameMaker()(table, options)
    keys = [k for k, _ in posse_pages(table.encounter)] + [TABLE_PAGE]
    return {k: json.dumps(PageBuilder(k).state(frame), sort_keys=True) for k in keys}


def judge_only_things(table) -> list[tuple[str, str]]:
    """(kind, id) of every Judge-only thing on the table."""
    enc, m = table.encounter, table.map
    out = [("token", t.id) for t in enc.tokens if t.hidden]
    out += [("note", n.id) for n in m.notes]
    out += [("label", x.id) for x in m.labels if x.judge_only]
    out += [("marker", x.id) for x in m.markers if x.judge_only]
    out += [("feature", f.id) for f in m.features if f.judge_only and not f.opaque]
    return out


def without(name: str, kind: str, thing_id: str):
    t = sample_table(name)
    enc, m = t.encounter, t.map
    if kind == "token":
        enc.tokens = [x for x in enc.tokens if x.id != thing_id]
    else:
        attr = {"note": "notes", "label": "labels", "marker": "markers", "feature": "features"}
        setattr(m, attr[kind], [x for x in getattr(m, attr[kind]) if x.id != thing_id])
        t.map_changed()
    return t


@pytest.mark.parametrize("name", SAMPLES)
def test_every_sample_has_judge_only_things(name):
    kinds = {k for k, _ in judge_only_things(sample_table(name))}
    assert {"note", "marker"} <= kinds


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("options", [PlayersOptions(), NAMES_OFF], ids=["names", "no-names"])
def test_pages_are_the_same_without_each_judge_only_thing(name, options):
    base = states(sample_table(name), options)
    for kind, thing in judge_only_things(sample_table(name)):
        assert states(without(name, kind, thing), options) == base, (kind, thing)


@pytest.mark.parametrize("name", SAMPLES)
def test_a_character_page_is_the_same_without_an_npc_out_of_its_sight(name):
    table = sample_table(name)
    base = states(table)
    frame = FrameMaker()(table)
    checked = 0
    for cid, _ in posse_pages(table.encounter):
        builder = PageBuilder(cid)
        shown = builder.state(frame)["tokens"]
        if character_viewers(table.encounter, table.map, cid):
            assert sum(1 for t in shown.values() if t.get("me")) == 1
        for tok in table.encounter.tokens:
            ch = table.encounter.character(tok.character_id)
            if ch.side == POSSE_SIDE or tok.hidden:
                continue
            if (tok.at.q, tok.at.r) in {(t["q"], t["r"]) for t in shown.values()}:
                continue  # this character sees it
            assert states(without(name, "token", tok.id))[cid] == base[cid], (cid, tok.id)
            checked += 1
    assert checked > 0  # every sample has an NPC someone cannot see


def secrets_of(table, names_off: bool) -> list[str]:
    """The ids and text of everything Judge-only (and, names off, every NPC's name)."""
    enc, m = table.encounter, table.map
    out: list[str] = []
    for t in enc.tokens:
        if t.hidden:
            out += [t.id, t.character_id, enc.character(t.character_id).name]
    for n in m.notes:
        out += [n.id, n.text]
    for x in [*m.labels, *m.markers]:
        if x.judge_only:
            out += [x.id, x.text]
    if names_off:
        for c in enc.characters:
            if c.side != POSSE_SIDE:
                out += [c.id, c.name]
                tok = enc.token_for(c.id)
                if tok is not None:
                    out.append(tok.id)
    return [s for s in out if len(s) >= 4]


@pytest.mark.parametrize("name", SAMPLES)
def test_no_byte_served_holds_a_judge_only_id_or_text(name):
    table = sample_table(name)
    secrets = secrets_of(table, names_off=True)
    assert secrets
    with served(table, NAMES_OFF) as (svc, maker):
        served_bytes = all_bytes(svc)
        # a step moving a hidden NPC, then one moving the posse: the changes too
        hidden = next((t for t in table.encounter.tokens if t.hidden), None)
        posse = next(
            t
            for t in table.encounter.tokens
            if table.encounter.character(t.character_id).side == POSSE_SIDE
        )
        if hidden is not None:
            move(table, hidden.id, hidden.at.q + 1, hidden.at.r)
            svc.publish(maker(table, NAMES_OFF))
        move(table, posse.id, posse.at.q, posse.at.r - 1)
        svc.publish(maker(table, NAMES_OFF))
        later = all_bytes(svc)
    assert set(served_bytes) == {a for a, _ in posse_pages(table.encounter)} | {TABLE_PAGE}
    for key, blob in [*served_bytes.items(), *later.items()]:
        for s in secrets:
            assert s.encode() not in blob, (key, s)
