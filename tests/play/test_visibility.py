"""The players' rule (Qt-free): what the players may see of tokens, map objects,
condition marks and pushes; the fog's knowledge while an answer is pending; the
seen-areas memory through a resize and its undo."""

from __future__ import annotations

import numpy as np
import pytest

from twtw_desktop.geometry.visibility import SightSnapshot
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import Hex, hex_to_offset
from twtw_desktop.model import Encounter, Feature, Map, Token
from twtw_desktop.model import edit as ed
from twtw_desktop.model.map import Label, Marker, Note
from twtw_desktop.play.fog import REMEMBERED, SEEN, UNKNOWN, FogOfWar, SeenMemory, shift_mask
from twtw_desktop.play.visibility import (
    FogKnowledge,
    PlayersOptions,
    is_public,
    players_sight,
    posse_viewers,
    push_allowed,
    token_marks,
)
from twtw_desktop.rules.samples import sample_characters

WALL_Y = 1.5 * 6.5


def _at(m: Map, col: int, row: int) -> tuple[int, int]:
    h = m.hex_at(col, row)
    return (h.q, h.r)


def make_encounter() -> Encounter:
    """20×14, a wall across with a gap at its east end; Miranda and Hank (posse) in
    the north, Angus (hombre) in the south, Felicia hidden, plus Judge-only things."""
    cs = sample_characters()
    miranda, hank, angus, felicia = (
        cs["miranda_valentine"],
        cs["hank_daggett"],
        cs["angus_laroq"],
        cs["felicia_laroq"],
    )
    m = Map.blank(20, 14)
    m.features = [
        Feature(id="wall", points=[(-1.0, WALL_Y), (28.0, WALL_Y)], material="brick"),
        Feature(id="secret", points=[(12.0, 3.0), (16.0, 3.0)], material="adobe", judge_only=True),
    ]
    m.labels = [
        Label(id="town", at=(3.0, 2.0), text="Main Street"),
        Label(id="gold", at=(10.0, 4.0), text="Gold", judge_only=True),
    ]
    m.notes = [Note(id="note", hex=_at(m, 12, 5), text="bribed")]
    m.markers = [
        Marker(id="goal", hex=_at(m, 15, 2), kind="objective", judge_only=False),
        Marker(id="trap", hex=_at(m, 14, 5), kind="trap"),
    ]
    tokens = [
        Token(id="t-miranda", character_id=miranda.id, hex=_at(m, 4, 3)),
        Token(id="t-hank", character_id=hank.id, hex=_at(m, 8, 4)),
        Token(id="t-angus", character_id=angus.id, hex=_at(m, 6, 10)),
        Token(id="t-felicia", character_id=felicia.id, hex=_at(m, 10, 2), hidden=True),
    ]
    return Encounter(map=m, characters=[miranda, hank, angus, felicia], tokens=tokens)


def test_judge_only_things_are_never_in_the_players_sight():
    enc = make_encounter()
    s = players_sight(enc, enc.map, PlayersOptions())
    assert s.tokens == {"t-miranda", "t-hank", "t-angus"}
    assert s.features == {"wall"} and s.labels == {"town"} and s.markers == {"goal"}
    assert not s.background
    assert not is_public(enc.map.notes[0])


def test_condition_marks_follow_the_badge_setting():
    enc = make_encounter()
    angus = enc.character(enc.token("t-angus").character_id)
    miranda = enc.character(enc.token("t-miranda").character_id)
    angus.unconscious = True
    angus.stunned = True
    miranda.dead = True
    # posse only: the knocked-out hombre looks like any hombre
    assert token_marks(angus, "posse") == token_marks(None, "posse").__class__(named=True)
    assert token_marks(miranda, "posse").out and token_marks(miranda, "posse").dead
    # everyone's: the cross and the badges; nobody's: none at all
    a = token_marks(angus, "all")
    assert a.out and a.stunned and a.concussed and a.unconscious
    assert not token_marks(miranda, "none").out
    # names off: hombres lose their initials, the posse keeps them
    assert not token_marks(angus, "all", names=False).named
    assert token_marks(miranda, "all", names=False).named
    s = players_sight(enc, enc.map, PlayersOptions(conditions="posse"))
    assert not s.marks["t-angus"].out and s.marks["t-miranda"].out


def test_under_the_fog_only_tokens_known_seen_show():
    enc = make_encounter()
    m = enc.map
    opts = PlayersOptions(fog=True)
    shape = (m.rows, m.cols)
    # nothing known yet: the posse shows, the hombre waits
    s = players_sight(enc, m, opts, FogKnowledge(shape))
    assert s.tokens == {"t-miranda", "t-hank"}
    s = players_sight(enc, m, opts, None)
    assert "t-angus" not in s.tokens
    seen = np.zeros(shape, dtype=bool)
    c, r = hex_to_offset(enc.token("t-angus").at, m.orientation)
    seen[r, c] = True
    assert "t-angus" in players_sight(enc, m, opts, FogKnowledge(shape, seen=seen)).tokens
    assert "t-angus" in players_sight(enc, m, opts, FogKnowledge(shape, known=seen)).tokens
    # an answer for another shape of map counts for nothing
    assert "t-angus" not in players_sight(enc, m, opts, FogKnowledge((3, 3), seen=seen)).tokens
    # the hidden token never, even on a seen hex
    seen[:] = True
    assert "t-felicia" not in players_sight(enc, m, opts, FogKnowledge(shape, seen=seen)).tokens


def test_pushes_never_point_at_a_token_the_players_do_not_see():
    enc = make_encounter()
    s = players_sight(enc, enc.map, PlayersOptions())
    fel = enc.token("t-felicia").at
    mir = enc.token("t-miranda").at
    ang = enc.token("t-angus").at
    assert push_allowed("cover_line", (mir, ang), enc, s)
    assert not push_allowed("cover_line", (mir, fel), enc, s)
    assert not push_allowed("scatter", (fel, mir, ang), enc, s)
    assert not push_allowed(
        "scatter",
        {"thrower": fel.to_list(), "target": mir.to_list(), "landing": ang.to_list()},
        enc,
        s,
    )
    assert not push_allowed("focus", "t-felicia", enc, s)
    assert not push_allowed("focus", fel, enc, s)
    assert push_allowed("focus", "t-angus", enc, s) and push_allowed("clear", None, enc, s)


def test_posse_viewers_skip_the_hidden_and_the_fallen():
    enc = make_encounter()
    assert set(posse_viewers(enc, enc.map)) == {
        enc.token("t-miranda").at,
        enc.token("t-hank").at,
    }
    enc.character(enc.token("t-hank").character_id).unconscious = True
    assert posse_viewers(enc, enc.map) == [enc.token("t-miranda").at]


def _snap(enc):
    return SightSnapshot.of(enc.map, WallIndex(enc.map))


def test_fog_keeps_the_last_picture_and_only_certain_knowledge_while_pending():
    enc = make_encounter()
    m = enc.map
    fog = FogOfWar()
    snap = _snap(enc)
    viewers = posse_viewers(enc, m)
    job = fog.job(snap, viewers)
    assert job is not None and fog.pending
    assert not fog.knowledge().known.any()  # nothing certain yet
    assert (fog.states((m.rows, m.cols)) == UNKNOWN).all()
    assert fog.accept(job, job.run()) and not fog.pending
    north = fog.seen.copy()
    assert north[2, 4] and not north[11, 6]
    # Miranda walks round the wall: pending; Hank's sight is still certain
    new_viewers = [m.hex_at(8, 11), enc.token("t-hank").at]
    job2 = fog.job(snap, new_viewers)
    assert job2 is not None and job2.missing == (m.hex_at(8, 11),)
    know = fog.knowledge()
    assert know.seen is None and know.known[4, 8]
    assert fog.states((m.rows, m.cols))[2, 4] == SEEN  # the last picture stays
    # a stale answer (older walls) is dropped
    other_map = m.model_copy(deep=True)
    other_map.features = other_map.features[1:]
    other = SightSnapshot.of(other_map, WallIndex(other_map))
    assert other.key != snap.key and SightSnapshot.of(m, WallIndex(m)).key == snap.key
    assert not fog.accept(FogJob_for(other, new_viewers), {m.hex_at(8, 11): north})
    assert fog.pending
    assert fog.accept(job2, job2.run())
    assert fog.seen[11, 6] and fog.states((m.rows, m.cols))[11, 6] == SEEN
    assert fog.memory.mask[2, 4]  # remembered
    assert fog.states((m.rows, m.cols))[2, 4] == REMEMBERED or fog.seen[2, 4]


def FogJob_for(snap, viewers):
    from twtw_desktop.play.fog import FogJob

    return FogJob(snap, tuple(viewers), tuple(viewers))


@pytest.mark.parametrize("shift", [(0, 0), (3, 2), (1, 1)])
def test_seen_memory_moves_with_a_resize_and_back_with_its_undo(shift):
    enc = make_encounter()
    m = enc.map
    mem = SeenMemory()
    mem.follow(enc, m)
    seen = np.zeros((m.rows, m.cols), dtype=bool)
    h = enc.token("t-miranda").at
    c, r = hex_to_offset(h, m.orientation)
    seen[r, c] = True
    seen[0, 0] = True
    mem.add(seen)
    before = mem.mask.copy()
    old_map = m.model_copy(deep=True)
    old_hexes = {t.id: t.hex for t in enc.tokens}
    t = ed.translation(m, *shift)
    new, _ = ed.resize(m, 26, 19, shift)
    m.__dict__.update({k: new.__dict__[k] for k in type(m).model_fields})
    for tok in enc.tokens:
        tok.__dict__["hex"] = (tok.at + t).to_list()
    assert mem.follow(enc, m)
    c2, r2 = hex_to_offset(h + t, m.orientation)
    assert mem.mask.shape == (19, 26) and mem.mask[r2, c2]
    assert mem.mask.sum() == 2
    # undo: the old map and hexes come back, the memory shifts back
    m.__dict__.update({k: old_map.__dict__[k] for k in type(m).model_fields})
    for tok in enc.tokens:
        tok.__dict__["hex"] = old_hexes[tok.id]
    assert mem.follow(enc, m)
    assert np.array_equal(mem.mask, before)


def test_seen_memory_is_forgotten_when_the_shift_cannot_be_told():
    enc = make_encounter()
    m = enc.map
    mem = SeenMemory()
    mem.follow(enc, m)
    mem.add(np.ones((m.rows, m.cols), dtype=bool))
    # the map changes shape while tokens move by different amounts
    new, _ = ed.resize(m, 22, 15)
    m.__dict__.update({k: new.__dict__[k] for k in type(m).model_fields})
    enc.tokens[0].__dict__["hex"] = (enc.tokens[0].at + Hex(1, 0)).to_list()
    assert mem.follow(enc, m)
    assert mem.mask.shape == (15, 22) and not mem.mask.any()


def test_shift_mask_drops_what_falls_off():
    mask = np.zeros((4, 5), dtype=bool)
    mask[0, 0] = mask[3, 4] = True
    from twtw_desktop.hexgrid import Orientation

    out = shift_mask(mask, Orientation.POINTY, Hex(1, 0), (4, 5))
    assert out[0, 1] and out.sum() == 1
