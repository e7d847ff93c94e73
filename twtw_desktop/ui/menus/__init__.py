"""The menus, one module each: a token's right-click menu, rules, covering fire, hand
to hand, mounts and Help."""
