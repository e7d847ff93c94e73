"""What every room of the window builds on: the open encounter (:mod:`.document`:
Qt signals and the undo stack over the table), the undo commands, the settings, the
folders (:mod:`.datadir`), menu and toolbar actions and the toolbar icons.

The bottom room of ``ui/``: it imports no other room."""
