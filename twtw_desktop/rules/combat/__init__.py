"""Combat resolution, card to wound (000 Combat Actions, Action Cards in Combat).

Plain Python and pydantic, no Qt: the map geometry arrives as plain inputs
(:mod:`.situation`), the rules return records with their reasons (:mod:`.records`).

* :mod:`.ranged` — the ranged TN breakdown, shot types and AP, multiple attacks, fan firing
* :mod:`.resolve` — the six-step resolution flow of one attack, and fan-firing series
  (a package: ``profile``, ``flow``, ``strike``, ``series``)
* :mod:`.bumps` — spending standard and conditional bumps
* :mod:`.thrown` — throwing range and where a missed throw lands
* :mod:`.melee` — hand to hand: defense, attack types, block, dodge
* :mod:`.melee_position` — advantage, dominance, breaking engagement, entanglement
  (re-exported by :mod:`.melee`)
* :mod:`.ancillary` — equipment failure, unintended targets, carried discharges
* :mod:`.blast` — an explosive's blast on everyone within its radius (house rule)
* :mod:`.aiming` — tactical aiming (Bravery) and covering fire
"""
