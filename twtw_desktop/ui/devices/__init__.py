"""The players' devices in the window: the dialog that serves their pages, their
requests waiting for the Judge, and the background picture cut to what a
character has seen."""
