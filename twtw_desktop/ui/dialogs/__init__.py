"""The table's dialogs, one module each, named after what they do: an action,
checks, first aid and rest, the Judge's override, speed, rules and options, Help's
manual and rules reference."""
