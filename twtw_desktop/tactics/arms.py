"""The planner's weapons: which one it fights with, the shot or blow it declares
with it, what a shot leaves on the sheet, and the reload when the guns run dry.

An NPC carrying more than one gun (a pistol and a rifle, a shotgun and a revolver)
weighs each: :meth:`Arms.arms` lists the ones worth a look (one slot per kind of
weapon, loaded, the one in hand first), the planner scores its attacks with each
inside :meth:`Arms.arming` and keeps the best — the table's own attack plan prices
each (its TN at that range, a long arm fired with the other hand full, the draw or
ready it needs). Without a choice (:attr:`Arms.slot` None) it fights with the first
loaded gun it carries, else its blade: the naive opponent's way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..play.actions import Action, Reload
from ..play.combat_actions import AimedShot, NormalShot, SnapShot
from ..play.melee_actions import MeleeAttack
from ..rules.gear import Weapon
from .plans import _Attack
from .threat import is_gun

if TYPE_CHECKING:  # annotations only
    from ..play.table import Table
    from ..rules.character import Character


class Arms:
    """The weapon half of the planner (module docstring)."""

    t: Table
    c: Character
    cid: str
    #: the slot chosen for the attacks being scored (None: the default weapon)
    slot: int | None = None
    #: whether it chooses among its weapons and reloads what it holds (the naive
    #: opponent does not: the first loaded gun it carries, else its blade)
    choosing = True

    def _ap(self, action: Action) -> int:  # pragma: no cover - the planner's
        raise NotImplementedError

    def _legal(self, action: Action, ap: int, first: bool) -> bool:  # pragma: no cover
        raise NotImplementedError

    @contextmanager
    def arming(self, slot: int | None) -> Iterator[None]:
        """Inside: the attacks are made with the weapon in ``slot`` (None: the default)."""
        before = self.slot
        self.slot = slot
        try:
            yield
        finally:
            self.slot = before

    def arms(self) -> list[int | None]:
        """The slots worth scoring attacks with, one per kind of weapon: what it
        holds, while a weapon in hand can still fight (a gun with a round in it, a
        blade); else what it can draw — with a hand full, only a weapon for one
        hand (a long arm in one hand shoots 2 downgrades worse, 000 Two handed
        ranged weapons), and with nothing left to draw, the empty gun in hand (the
        reload follows). The first draw of the fight is where the choice counts:
        the rifle for a far foe, the revolver for a near one. A carriage gun
        (``is_mounted``: the Gatling) is not drawn — where it stands and who mans it
        is the Judge's call. Without a choice (:attr:`choosing` false), just the
        default."""
        if not self.choosing:
            return [None]
        gear = self.t.gear.weapons
        ready: list[int] = []  # in hand
        fights: list[tuple[int, Weapon]] = []  # loaded guns, blades
        for i, cw in enumerate(self.c.weapons):
            w = gear.get(cw.weapon_id)
            if w is None or cw.failure is not None:
                continue
            if cw.readied:
                ready.append(i)
            if w.is_mounted and not cw.readied:
                continue  # a carriage gun (the Gatling) is the Judge's to man: not drawn
            # a gun with a round in it, or a blade (a lasso entangles, it does not wound)
            if (cw.loaded > 0) if is_gun(w) else (w.is_melee and w.kind != "entangle"):
                fights.append((i, w))
        held = [i for i, _w in fights if i in ready]
        if held:
            pick = held
        else:
            # a hand is full: nothing for two hands; a long arm held: nothing at all
            full = bool(ready)
            both = any(w.two_handed for w in self._held(ready))
            pick = [i for i, w in fights if not both and not (full and w.two_handed)]
        slots: dict[str, int] = {}
        for i in pick:
            slots.setdefault(self.c.weapons[i].weapon_id, i)
        if not slots:
            return [ready[0]] if ready else [None]
        out: list[int | None] = [*sorted(slots.values())]
        return out

    def armed(self) -> bool:
        """Whether it has something to fight with now: a blade, or a gun with a
        round in it that it holds or can draw (:meth:`arms`)."""
        for slot in self.arms():
            with self.arming(slot):
                got = self._weapon()
            if got is not None and (not is_gun(got[1]) or self.c.weapons[got[0]].loaded > 0):
                return True
        return False

    def _held(self, slots: list[int]) -> list[Weapon]:
        gear = self.t.gear.weapons
        return [w for i in slots if (w := gear.get(self.c.weapons[i].weapon_id)) is not None]

    def _kinds(self) -> list[str]:
        slot = self._weapon()
        if slot is None:
            return ["blow"]
        w = slot[1]
        if not w.is_ranged:
            return ["blow"]
        kinds = ["normal"]
        if w.snap_ap is not None:
            kinds.insert(0, "snap")
        if w.aim_ap is not None:
            kinds.append("aimed")
        return kinds

    def _weapon(self) -> tuple[int, Weapon] | None:
        """The carried weapon it fights with: the one chosen (:meth:`arming`), else a
        loaded gun first, else a blade."""
        gear = self.t.gear.weapons
        if self.slot is not None:
            w = gear.get(self.c.weapons[self.slot].weapon_id)
            if w is not None:
                return self.slot, w
        guns = []
        blades = []
        for i, cw in enumerate(self.c.weapons):
            w = gear.get(cw.weapon_id)
            if w is None or cw.failure is not None:
                continue
            if is_gun(w):
                guns.append((0 if cw.loaded else 1, i, w))
            elif w.is_melee:
                blades.append((i, w))
        if guns:
            guns.sort(key=lambda g: (g[0], g[1]))
            return guns[0][1], guns[0][2]
        return blades[0] if blades else None

    def _with(self) -> str:
        """' with the Winchester' when it carries more than one kind of weapon (the
        Judge reads which), else nothing."""
        slot = self._weapon()
        kinds = {cw.weapon_id for cw in self.c.weapons}
        if slot is None or len(kinds) < 2:
            return ""
        return f" with the {slot[1].name}"

    def _naming(self, i: int, w: Weapon) -> dict[str, Any]:
        """The fields that name the carried weapon in slot ``i`` to the table: its
        gear id, and the slot when the sheet carries two of it (by the id alone the
        table takes the first, which may be the other one)."""
        out: dict[str, Any] = {"weapon": w.id}
        if sum(1 for cw in self.c.weapons if cw.weapon_id == w.id) > 1:
            out["slot"] = i
        return out

    def _shot(self, foe: Any, kind: str, first: bool) -> Action | None:
        slot = self._weapon()
        fields: dict[str, Any] = {"who": self.cid, "target": foe.character_id}
        if slot is not None:
            i, w = slot
            fields.update(self._naming(i, w))
            if first and not self.c.weapons[i].readied and w.is_ranged:
                fields["draw_first"] = True
        try:
            if kind == "blow":
                return MeleeAttack(**fields)
            cls = {"snap": SnapShot, "normal": NormalShot, "aimed": AimedShot}[kind]
            return cls(**fields)
        except ValueError:
            return None

    def _rounds_left(self) -> bool:
        slot = self._weapon()
        if slot is None or not slot[1].is_ranged:
            return True
        return self.c.weapons[slot[0]].loaded > 0

    def _blade(self) -> bool:
        slot = self._weapon()
        return slot is None or not slot[1].is_ranged

    def _fired(self, act: Action) -> None:
        """The scratch sheet as the shot leaves it: drawn, one round fewer, uncocked."""
        slot = self._weapon()
        if slot is None:
            return
        cw = self.c.weapons[slot[0]]
        cw.readied = True
        if slot[1].is_ranged:
            cw.loaded = max(0, cw.loaded - 1)
            cw.cocked = False

    def _reload(self, ap: int) -> _Attack | None:
        """A cartridge into a gun not full: the one it fights with, else one in hand
        (a planner with a choice: guns emptied in hand while a loaded one stays
        holstered are reloaded, not left dry)."""
        slot = self._weapon()
        tried = [] if slot is None else [slot[0]]
        if self.choosing:
            tried += [i for i, cw in enumerate(self.c.weapons) if cw.readied and i not in tried]
        gear = self.t.gear.weapons
        for i in tried:
            w = gear.get(self.c.weapons[i].weapon_id)
            if w is None or not is_gun(w) or not w.capacity:
                continue
            if self.c.weapons[i].loaded >= w.capacity:
                continue
            try:
                act = Reload(who=self.cid, **self._naming(i, w))
            except ValueError:
                continue
            need = self._ap(act)
            if need > ap or not self._legal(act, need, first=False):
                continue
            return _Attack([act], need, 0.05, f"reloads the {w.name}", slot=i)
        return None


__all__ = ["Arms"]
