"""The table: one encounter in play, without Qt.

Every table step is a typed, journaled, undoable *action* value with its cost,
``why_not``, preview and apply; the window, the players' screen, the devices and the
``play`` command all change the game through :class:`~.table.Table`. Where things
live — an action is found by its ``do`` name in the module of its family:

* the table itself — :mod:`.table` (``Table``, the steps, undo; ``TableView``, what a
  reading function needs of it), :mod:`.snapshot` (the copies undo restores),
  :mod:`.time` (the AP v2 track and the Phases round behind one clock),
  :mod:`.journal` (the session journal and its replay), :mod:`.session` (a table from
  a file), :mod:`.script` (``twtw-desktop play``);
* the actions — :mod:`.actions` (the ``Action`` base and the catalogue; action time,
  rounds and segments, ``declare``, ``move``/``run``/``place``/``face``, postures, weapon handling
  — ``draw``, ``ready``, ``cock``, ``holster``, ``reload`` —, ``skill``, ``recover``,
  ``wait``, ``set_rules``, ``judge``), :mod:`.track_actions` (the track's and the
  Phases round's own steps: ``declare_action``, ``join``, ``rush``, ``resolve``,
  ``delay``, ``interrupt``…), :mod:`.declarations` (``when_able``, ``pass``,
  ``run_on``, standing declarations), :mod:`.standing_actions` (``standing_bid``,
  ``standing_pass``: answers given ahead), :mod:`.combat_actions` (shots, ``fan_fire``,
  ``throw``, ``aim``, ``attack_card``; what every attack shares: :mod:`.attack_base`),
  :mod:`.melee_actions` (``melee_attack``, ``block``, ``dodge``, ``switch_target``,
  ``engage``, ``disengage``, ``hold``, ``escape``), :mod:`.cover_actions` (covering
  fire; its state in the log and the under-fire watch: :mod:`.cover_state`),
  :mod:`.cover_reactions` (``bravery_check``, ``reaction_shot``),
  :mod:`.check_actions` (``check``),
  :mod:`.care_actions` (``first_aid``, ``heal``, ``rest``), :mod:`.bonus_actions`
  (the bonus counters), :mod:`.deck_actions` (the deck's own steps),
  :mod:`.entangle_actions`, :mod:`.mount_actions`, :mod:`.speed_actions`
  (``set_speed``), :mod:`.gear_actions` (``clear_jam``), :mod:`.risk_actions`
  (``risk_death``), :mod:`.target_actions` (``target_token``);
* what the actions and the panels ask — :mod:`.attack` (plan, preview and write an
  attack: the TN breakdown off the map), :mod:`.throw` (throws and blasts),
  :mod:`.engagement` (hand-to-hand state), :mod:`.movement` (a drag's path, AP and
  riders), :mod:`.catalogue` (what a character could declare now), :mod:`.aim`,
  :mod:`.cards` (cards typed in from a printed deck, and a line's typed card);
* what the players may see — :mod:`.visibility` (the one rule), :mod:`.fog` (the
  posse's fog of war), :mod:`.public_clock` (the clock in words);
* :mod:`.rules_reference` — Help ▸ Rules reference: each seed section and how the app
  reads it (every house reading is quoted there).

The numbers themselves — TNs, AP costs, wounds — are the rules' (:mod:`twtw_desktop.rules`).
"""

import importlib
import threading

#: the action families outside :mod:`.actions`: importing one registers its actions
#: with the catalogue (:func:`.actions.register`) and its hooks with the table
#: (``ROUTE_ACTION``, ``AFTER_ACTION``, ``AIM_REFUSALS``). They are imported by
#: :func:`load_families` — whatever reads the catalogue or runs the hooks asks for it
#: first (:func:`.actions.all_actions`, ``Table.routed``, ``aim_refusal``) — not with
#: the package: the window's first frame (a map and its figures, no action asked
#: yet) does without their hundred-odd pydantic models
FAMILIES = (
    "bonus_actions",
    "care_actions",
    "check_actions",
    "combat_actions",
    "cover_actions",
    "cover_reactions",
    "deck_actions",
    "declarations",
    "entangle_actions",
    "gear_actions",
    "melee_actions",
    "mount_actions",
    "risk_actions",
    "speed_actions",
    "standing_actions",
    "target_actions",
    "track_actions",
)
_families_loaded = False
#: one thread imports them; another asking meanwhile (the autopilot's worker) waits
_families_lock = threading.RLock()


def load_families() -> None:
    """Import every action family (once): the catalogue and the table's hooks are
    then complete."""
    global _families_loaded
    if _families_loaded:
        return
    with _families_lock:
        if _families_loaded:
            return
        for name in FAMILIES:
            importlib.import_module(f"{__name__}.{name}")
        _families_loaded = True
