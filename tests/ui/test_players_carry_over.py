"""Every look setting of the players' screen carries over to whatever File ▸ Open
opens next (issue 27, "a leak"): with "Name the hombres" off, opening another
encounter (or the same one again) must not show the hombres' names on the TV, not
for a frame; the same for the wound badges, the fog, the remembered areas, the dim
never-seen areas and the camera.

A differential test: after each open (another encounter, the same one again, then
another once more), the players' screen must look exactly like a players' view
built afresh on that file with the Judge's settings — and every token item must
already carry the Judge's look when the open returns (before any event is
processed, so before any frame).
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from twtw_desktop.play.fog import SeenMemory
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.players.view import PlayersView

from .test_players_screen import answers, controller, make_doc, open_players, settings, win

__all__ = ["answers", "settings", "win"]  # fixtures shared with the players' screen tests

#: (name, how to set it on the controller) — each the non-default choice
SETTINGS = {
    "names_off": lambda ctl: ctl.set_names(False),
    "badges_none": lambda ctl: ctl.set_conditions("none"),
    "badges_all": lambda ctl: ctl.set_conditions("all"),
    "fog_on": lambda ctl: ctl.set_fog(True),
    "fog_off": lambda ctl: ctl.set_fog(False),
    "remember_off": lambda ctl: (ctl.set_fog(True), ctl.set_remember(False)),
    "dim_on": lambda ctl: (ctl.set_fog(True), ctl.set_fog_dim(True)),
    "camera_fit_map": lambda ctl: ctl.set_camera("fit_map"),
    "camera_lock": lambda ctl: ctl.set_camera("lock"),
    "camera_follow": lambda ctl: ctl.set_camera("follow"),
}


def _files(tmp_path):
    """Two encounters on disk: one with an hombre named plainly in sight, one with
    more hombres (a hidden one among them)."""
    a = make_doc(secrets=False)
    b = make_doc(secrets=True)
    pa, pb = tmp_path / "a.encounter.json", tmp_path / "b.encounter.json"
    a.save(pa)
    b.save(pb)
    return pa, pb


def _grab(v) -> QImage:
    return v.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


def _reference(qtbot, ctl, path, like: PlayersView) -> PlayersView:
    """A players' view built afresh on ``path`` with the controller's settings, the
    size and Judge's view of ``like``."""
    v = PlayersView(EncounterDocument.open(path), SeenMemory())
    qtbot.addWidget(v)
    v.resize(like.size())
    v.set_look(ctl._look())
    v.set_remember(ctl.act_remember.isChecked())
    v.set_fog_dim(ctl.act_fog_dim.isChecked())
    v.set_fog(ctl.act_fog.isChecked())
    if like.judge_rect is not None:
        v.follow(like.judge_rect)
    camera = ctl._checked_camera()
    v.set_camera("fit_posse" if camera == "lock" else camera)
    v.show()
    qtbot.waitExposed(v)
    v.refresh_now()
    v.apply_camera()
    if camera == "lock":  # a locked camera starts a new map on the posse
        v.set_camera("lock")
    return v


def _look_is_the_judges(ctl, v: PlayersView) -> None:
    """Right after the open returned: every item and switch as the Judge chose."""
    look = ctl._look()
    assert v.look == look
    for tid, it in v.map_scene.tokens.items():
        assert it.look == look, f"{tid} drawn with another look"
        if not look.names and it.side != "posse":
            assert not it.shows_name(), f"{tid}'s name shows with names off"
    assert v.fog_on == ctl.act_fog.isChecked()
    assert v.fog.remember == ctl.act_remember.isChecked()
    assert v.fog_dim == ctl.act_fog_dim.isChecked()
    if v.fog_item is not None:
        assert v.fog_item.isVisible() == v.fog_on
    assert v.camera == ctl._checked_camera()


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_every_look_setting_carries_over_to_what_file_open_opens(qtbot, tmp_path, win, setting):
    pa, pb = _files(tmp_path)
    assert win.open_path(pa, ask=False)
    ctl, pw = open_players(qtbot, win)
    SETTINGS[setting](ctl)
    for step, path in (("open another", pb), ("reopen", pb), ("open another again", pa)):
        assert win.open_path(path, ask=False), step
        v = pw.view
        assert v.document is win.document
        _look_is_the_judges(ctl, v)  # before any event: no frame can show more
        v.refresh_now()
        ref = _reference(qtbot, ctl, path, v)
        assert _grab(v) == _grab(ref), f"{setting}: the players' screen after {step}"
        ref.close()


def test_names_off_never_shows_an_hombres_name_after_open(qtbot, tmp_path, win):
    """The case as reported: names off, File ▸ Open of the same and another file."""
    pa, pb = _files(tmp_path)
    ctl, pw = open_players(qtbot, win)
    ctl.set_names(False)
    for path in (pa, pa, pb):
        win.open_path(path, ask=False)
        toks = pw.view.map_scene.tokens
        assert toks["t-angus"].look.names is False
        assert not toks["t-angus"].shows_name()
        assert toks["t-miranda"].shows_name()  # the posse is always named
    assert controller(win).act_names.isChecked() is False


# -- the map editor, the labels (issue 27) -------------------------------------------------


def test_the_players_screen_keeps_its_last_play_picture_while_the_map_is_edited(qtbot, win):
    from twtw_desktop.ui.core.commands import MoveTokenCommand

    _ctl, pw = open_players(qtbot, win)
    pw.view.refresh_now()
    before = pw.grab().toImage()
    win.editor.set_mode(True)
    assert pw.frozen is not None and pw.frozen.isVisible()
    doc = win.document
    doc.push(MoveTokenCommand(doc, "t-hank", doc.map.hex_at(12, 4)))
    qtbot.wait(50)
    assert pw.grab().toImage() == before  # nothing new is shown, nothing said
    win.editor.set_mode(False)
    assert pw.frozen is None
    pw.view.refresh_now()
    assert pw.grab().toImage() != before  # follows the table again


def test_opening_an_encounter_leaves_the_map_editor_off(qtbot, tmp_path, win):
    pa, _pb = _files(tmp_path)
    win.editor.set_mode(True)
    assert win.open_path(pa, ask=False)
    assert not win.editor.mode and not win.editor.toolbar.isVisible()


def test_name_plates_on_the_players_screen_never_overlap(qtbot, win):
    """Hombres side by side ("Laroq gu Laroq gun…"): the plates are laid out, the
    ones that would collide shortened to initials or left to the disc's initials."""
    from twtw_desktop.model import Token

    doc = make_doc(secrets=False)
    enc, m = doc.encounter, doc.map
    angus = doc.character("angus_laroq")
    for i in range(3):
        ch = angus.model_copy(update={"id": f"gun{i}", "name": f"Laroq gunman {i + 1}"})
        enc.characters.append(ch)
        h = m.hex_at(7 + i, 10)
        enc.tokens.append(Token(id=f"t-gun{i}", character_id=ch.id, hex=(h.q, h.r)))
    win.set_document(doc)
    _ctl, pw = open_players(qtbot, win)
    pw.view.refresh_now()
    items = [pw.view.map_scene.tokens[t] for t in pw.view.shown_token_ids()]
    plates = [
        it.plate_rect(it.plate_label()).translated(it.pos()) for it in items if it.plate_label()
    ]
    assert len(items) >= 5
    for i, a in enumerate(plates):
        for b in plates[i + 1 :]:
            assert not a.intersects(b)
    assert any(it.plate_text is not None for it in items)  # some were shortened
