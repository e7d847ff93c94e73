"""The table: one encounter in play, without Qt.

Every table action is a value with its cost, ``why_not``, preview and apply; the
window, the players' screen and the command line all go through this layer.
"""

# the track's and the attack's actions register themselves with the action catalogue
from . import (  # noqa: F401
    bonus_actions,
    care_actions,
    check_actions,
    combat_actions,
    cover_actions,
    deck_actions,
    declarations,
    entangle_actions,
    gear_actions,
    melee_actions,
    mount_actions,
    risk_actions,
    speed_actions,
    track_actions,
)
