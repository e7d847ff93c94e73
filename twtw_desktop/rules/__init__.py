"""The rules model: plain Python + pydantic, no Qt and no map — every number the seed
pages decide, with its reason.

* the cards — :mod:`.card` (the action card), :mod:`.deck` (the deck, reading a card),
  :mod:`.deck_generator` (the bundled 54 cards);
* the people and their things — :mod:`.character` (sheets), :mod:`.gear` (weapons and
  the gear catalog), :mod:`.samples` (sample characters and NPC templates);
* checks and harm — :mod:`.checks` (success, bumps, victories, bonus counters),
  :mod:`.damage` (wounds, stun, recovery, bleeding), :mod:`.healing` (first aid, rest);
* action time — :mod:`.actions` (what each action costs: AP v2 AP, Phases speed),
  :mod:`.action_track` (AP v2: 20 segments, counters, the stack), :mod:`.phases` (the
  Phases round), :mod:`.timecommon` (what both share), :mod:`.editions` (every number
  that differs between the editions);
* combat — :mod:`.combat` (ranged TN, resolution card to wound, bumps, melee, thrown,
  blasts, aiming and covering fire; see that package);
* :mod:`.base` — the strict pydantic base, dice and pools.

The table that applies these rules to a map is :mod:`twtw_desktop.play`.
"""
