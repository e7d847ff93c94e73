"""The window: start-up (:mod:`.app`, :mod:`.display`, the application-wide filters
:mod:`.app_filters`, :mod:`.wheel`, :mod:`.dialog_titles`), the main window and its
parts (:mod:`.main_window` over :mod:`.window_base`, :mod:`.window_files`,
:mod:`.window_actions`, :mod:`.window_layout`, the dock title bars and rail), autosave
and recovery, the NPC autopilot and the preferences.

The top room of ``ui/``: it imports every other room; none imports it."""
