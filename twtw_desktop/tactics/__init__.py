"""The NPC tactical autopilot: a client of the table, like a player.

It reads what one NPC sees (:mod:`.view`), scores candidate plans with the rules'
own numbers (:mod:`.planner`, :mod:`.odds`), weighs them by the NPC's temperament
(:mod:`.temperament`, a house design) and returns ordinary table actions with their
reasons; the ``autopilot`` table action and the ``plan`` command are in
:mod:`.autopilot`. It never writes the table's state: the table checks its actions
with ``why_not`` like anyone's.
"""
